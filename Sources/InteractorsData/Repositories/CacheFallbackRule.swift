/// The rules for which failures of a ``CacheRepository``'s main source its cache may stand in for, without a type
/// argument: `fallback: CacheFallback.serverUnavailable`, or `while: CacheFallback.serverUnavailable` for
/// `Response.retry`.
public enum CacheFallback {
    /// The default rule: the failures that say the server could not be reached or could not answer. The same
    /// rule as ``CacheRepository/serverUnavailable(_:)``, which keeps compiling: see it for what it accepts.
    @Sendable public static func serverUnavailable(_ error: any Error) -> Bool {
        CacheRepository<RuleProbe>.serverUnavailable(error)
    }

    /// A value type for reaching the rule, which ``CacheRepository`` defines for every value type alike.
    private struct RuleProbe: Identifiable, Sendable {
        var id: Int
    }
}
