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
/// never sees main-queue handlers run, except while it blocks on a response (see below): give such a program
/// another queue with ``DefaultCallbackQueue/set(_:)``.
///
/// The jobs the library schedules here wait in a first-in, first-out list of the queue's own, each with a token on
/// the main queue; a token runs the jobs scheduled no later than itself that are still waiting, oldest first. A
/// caller that blocks on a response while on the main queue (or on the main thread) runs them itself, in the same
/// order, while it waits: a response settled by a main-queue handler, or by main-queue work queued after the wait
/// began, then cannot deadlock it. The tokens of jobs it ran find nothing to run, so a job scheduled later never
/// runs in an older token's place, ahead of the app's own main-queue blocks queued in between.
public final class MainCallbackQueue: CallbackQueue {
    /// The one instance; spell it `.main` where a ``CallbackQueue`` is expected.
    public static let shared = MainCallbackQueue()

    /// The jobs waiting, numbered in the order they were scheduled.
    private struct Jobs {
        var waiting = FIFO<(number: UInt64, job: @Sendable () -> Void)>()
        var scheduled: UInt64 = 0
    }

    private let jobs = LockedBox(Jobs())

    private init() {}

    /// Runs `job` on the main queue, later.
    public func schedule(_ job: @escaping @Sendable () -> Void) {
        let number = jobs.withLock { jobs in
            jobs.scheduled += 1
            jobs.waiting.append((jobs.scheduled, job))
            return jobs.scheduled
        }
        DispatchQueue.main.async { MainCallbackQueue.shared.runJobs(scheduledBy: number) }
        WakeUpList.mainQueueCallers.notify()
    }

    /// Whether the calling code runs on the main queue, or on the main thread (which services the main queue,
    /// or will once the program starts servicing it).
    public var isCurrent: Bool { Self.isMainThread || DispatchQueue.main.isCurrent }

    /// A token's turn: runs the jobs still waiting that were scheduled no later than job `number`, oldest first.
    /// A blocked caller may have run them already; later jobs wait for their own tokens.
    private func runJobs(scheduledBy number: UInt64) {
        while let job = jobs.withLock({ $0.waiting.popFirst { $0.number <= number } })?.job { job() }
    }

    /// Runs every job waiting, oldest first, on behalf of a caller blocked on the main queue; returns whether it
    /// ran any. The caller holds the main queue, so nothing else runs these jobs meanwhile.
    func runWaitingJobs() -> Bool {
        var ran = false
        while let job = jobs.withLock({ $0.waiting.popFirst() })?.job {
            job()
            ran = true
        }
        return ran
    }

    /// Whether this is the process's main thread (`false` where there is no telling).
    static var isMainThread: Bool {
        callingThreadIsMain() ?? false
    }
}

extension CallbackQueue where Self == MainCallbackQueue {
    /// The main queue. The default callback queue, unless the process chose another.
    public static var main: MainCallbackQueue { .shared }
}
