/// The process-wide default: where handlers go when neither the handler nor its response names a queue.
///
/// It is the main queue unless the process chooses another, once, at start-up:
///
/// ```swift
/// DefaultCallbackQueue.set(DispatchQueue(label: "server.callbacks"))   // a server with no main queue loop
/// DefaultCallbackQueue.set(.immediate)                                  // a CLI, or a test process
/// ```
///
/// It is a forwarding queue: a handler scheduled here goes to whatever ``current`` is when the handler is
/// delivered. Setting it is thread-safe; changing it while responses are in flight sends later deliveries to
/// the new queue.
public final class DefaultCallbackQueue: CallbackQueue {
    /// The one instance; spell it `.default` where a ``CallbackQueue`` is expected.
    public static let shared = DefaultCallbackQueue()

    private static let chosen = LockedBox<any CallbackQueue>(MainCallbackQueue.shared)

    private init() {}

    /// The queue that default deliveries go to now.
    public static var current: any CallbackQueue {
        chosen.withLock { $0 }
    }

    /// Makes `queue` the process-wide default callback queue.
    public static func set(_ queue: some CallbackQueue) {
        // Forwarding to ourselves would loop forever; the request means "back to the built-in default".
        let target: any CallbackQueue = queue === shared ? MainCallbackQueue.shared : queue
        // Swapped under the lock, the old queue released after it: a queue's deinit may be user code.
        let previous = chosen.withLock { chosen in
            defer { chosen = target }
            return chosen
        }
        withExtendedLifetime(previous) {}
    }

    /// Hands `job` to the current default queue.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        Self.current.schedule(job)
    }

    /// Whether the calling code runs on the current default queue.
    public var isCurrent: Bool { Self.current.isCurrent }
}

extension CallbackQueue where Self == DefaultCallbackQueue {
    /// The process-wide default queue (the main queue unless changed with ``DefaultCallbackQueue/set(_:)``).
    public static var `default`: DefaultCallbackQueue { .shared }
}
