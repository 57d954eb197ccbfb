/// Runs every job at once on the calling thread: the thread that settles the response, or the one that adds a
/// handler to a response that is already settled. Never hops threads.
///
/// Use it for cheap handlers that only hand the value on (to a continuation, another response, a lock-protected
/// store). A slow handler here slows down whoever settles the response.
public final class ImmediateCallbackQueue: CallbackQueue {
    /// The one instance; spell it `.immediate` where a ``CallbackQueue`` is expected.
    public static let shared = ImmediateCallbackQueue()

    private init() {}

    /// Runs `job` now, on the calling thread.
    public func schedule(_ job: @escaping @Sendable () -> Void) { job() }

    /// Always `true`: whoever calls is where this queue runs.
    public var isCurrent: Bool { true }
}

extension CallbackQueue where Self == ImmediateCallbackQueue {
    /// Runs handlers synchronously on the settling (or registering) thread.
    public static var immediate: ImmediateCallbackQueue { .shared }
}
