import Dispatch

/// The main queue, for handlers that touch the UI or other `@MainActor` state.
///
/// Handlers given to `on: .main` may be `@MainActor` closures, so code on the main actor needs no hop:
///
/// ```swift
/// response.onCompletion(on: .main) { user in self.nameLabel.text = user.name }
/// ```
///
/// On Linux the main queue runs only while the main thread services it (`dispatchMain()`, `RunLoop.main.run()`,
/// or an async `main` waiting in `await`). A command-line tool that blocks its main thread in a loop of its own
/// never sees main-queue handlers run: give such a program another queue with ``DefaultCallbackQueue/set(_:)``.
public final class MainCallbackQueue: CallbackQueue {
    /// The one instance; spell it `.main` where a ``CallbackQueue`` is expected.
    public static let shared = MainCallbackQueue()

    private init() {}

    /// Runs `job` on the main queue, later.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: job)
    }

    /// Whether the calling code runs on the main queue (for a program that has not started servicing it yet,
    /// on the main thread).
    public var isCurrent: Bool { DispatchQueue.main.isCurrent }
}

extension CallbackQueue where Self == MainCallbackQueue {
    /// The main queue. The default callback queue, unless the process chose another.
    public static var main: MainCallbackQueue { .shared }
}
