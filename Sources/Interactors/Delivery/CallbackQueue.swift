/// Where a ``Response`` runs a handler, or where it starts work given to ``Response/init(on:callbackQueue:file:line:_:)``.
///
/// The library ships four: ``ImmediateCallbackQueue`` (`.immediate`, on the settling or registering thread),
/// ``MainCallbackQueue`` (`.main`), `DispatchQueue`, and ``DefaultCallbackQueue`` (`.default`, whatever the
/// process has chosen). Conform your own type to plug in anything else: an `OperationQueue`, a run loop, or a
/// test queue that runs jobs only when the test says so.
///
/// ```swift
/// final class OperationCallbackQueue: CallbackQueue {
///     let queue: OperationQueue
///     init(_ queue: OperationQueue) { self.queue = queue }
///     func schedule(_ job: @escaping @Sendable () -> Void) { queue.addOperation(job) }
///     var isCurrent: Bool { OperationQueue.current === queue }
/// }
/// ```
///
/// A queue must run every job it is given exactly once. A queue that drops a job it was given by
/// ``Response/init(on:callbackQueue:file:line:_:)`` fails that response with ``ResponseError/abandoned``.
public protocol CallbackQueue: AnyObject, Sendable {
    /// Runs `job` later, once, on this queue. Must not run it synchronously unless the queue is meant to be
    /// immediate: callers may hold no lock, but they do expect to return before the job runs.
    func schedule(_ job: @escaping @Sendable () -> Void)

    /// Whether the calling code is running on this queue now.
    ///
    /// A thread about to block for a response whose work is queued here, but not yet started, runs that work
    /// itself when this is `true`: waiting would otherwise deadlock. The default is `false`.
    var isCurrent: Bool { get }
}

extension CallbackQueue {
    /// Queues that cannot tell say `false`: a blocked caller then waits for the queue to run the work.
    public var isCurrent: Bool { false }
}
