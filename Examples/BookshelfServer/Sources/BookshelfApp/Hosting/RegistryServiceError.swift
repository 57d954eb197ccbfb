public import Interactors

/// Why a ``RegistryService`` stopped its service group: the registry's services failed to start, failed to stop,
/// or took longer than the deadline to stop.
public struct RegistryServiceError: Error, CustomStringConvertible {
    /// What went wrong. Compare with the static members; new codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A start-up hook threw (``LifecycleEvent/didFinishLaunching(_:)`` or ``LifecycleEvent/didBecomeActive``):
        /// the services that had started were torn down, and the server never accepted a connection.
        public static let launchFailed = Code("launchFailed")
        /// A tear-down hook threw; every service still heard the tear-down.
        public static let tearDownFailed = Code("tearDownFailed")
        /// The tear-down was still running when its deadline passed; the hook that hangs is left behind.
        public static let tearDownTimedOut = Code("tearDownTimedOut")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The hooks that threw, as the registry reported them.
    public let failures: [ServiceFailure]
    /// For ``Code/tearDownTimedOut``, the deadline that passed.
    public let deadline: Duration?

    init(_ code: Code, failures: [ServiceFailure] = [], deadline: Duration? = nil) {
        self.code = code
        self.failures = failures
        self.deadline = deadline
    }

    /// A sentence for the log and the process's last words: what failed, and each failure the registry reported.
    public var description: String {
        let what =
            switch code {
            case .launchFailed: "the registry's services failed to start, so the server stops"
            case .tearDownFailed: "the registry's services failed to stop cleanly"
            default: "the registry's services did not stop within \(deadline.map { "\($0)" } ?? "the deadline")"
            }
        guard !failures.isEmpty else { return "RegistryServiceError.\(code): \(what)" }
        return "RegistryServiceError.\(code): \(what): " + failures.map { "\($0)" }.joined(separator: "; ")
    }
}
