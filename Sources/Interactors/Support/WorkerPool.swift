import Dispatch

/// A fixed number of threads of the library's own that run submitted jobs, oldest first: where the library does
/// blocking work (a SQLite statement, a file store's batch, decoding a body) instead of on Dispatch's global pool.
///
/// The global pool is the app's: a handful of blocking waits on it (one of the library's three styles) or the
/// app's own long jobs can leave it without a free thread for tens of seconds, and work the library queued there
/// would wait as long. Like swift-nio's `NIOThreadPool`, a pool owns its threads, so its jobs wait only for each
/// other.
///
/// Threads start on demand, one per job waiting while none is idle, up to `threads`, and then live until
/// ``shutDown()``: a process has as many library threads as its pools allow, never one per call. Each is named
/// `name` (Linux keeps 15 bytes of a name, so names are short: `ix.` and the role), for debuggers, `top -H` and
/// crash reports. With `threads: 1` the jobs run one at a time in submission order: a serial queue.
package final class WorkerPool: Sendable {
    private struct State {
        var jobs = FIFO<@Sendable () -> Void>()
        /// Threads started and not yet exited.
        var started = 0
        /// Threads parked on `wakeUp`, each owed one signal when a job arrives.
        var idle = 0
        var isShutDown = false
    }

    /// What a thread does next.
    private enum Next {
        case run(@Sendable () -> Void)
        case park
        case exit
    }

    /// The name each of the pool's threads carries.
    package let name: String
    private let maximumThreads: Int
    private let state = LockedBox(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// A pool of at most `threads` threads named `name`, none started yet.
    package init(name: String, threads: Int = 1) {
        precondition(threads > 0, "Interactors: a worker pool needs at least one thread")
        self.name = name
        self.maximumThreads = threads
    }

    /// Runs `job` on one of the pool's threads as soon as one is free, after the jobs submitted before it.
    ///
    /// A job submitted after ``shutDown()`` still runs, on a thread started for it: the pool's owner may be
    /// closing while a last call comes in, and the call must still be answered (with the owner's "closed" error).
    package func submit(_ job: @escaping @Sendable () -> Void) {
        enum Wake { case nobody, idleThread, newThread }
        let wake = state.withLock { state -> Wake in
            state.jobs.append(job)
            if state.idle > 0 {
                state.idle -= 1
                return .idleThread
            }
            guard state.started < maximumThreads || (state.isShutDown && state.started == 0) else { return .nobody }
            state.started += 1
            return .newThread
        }
        switch wake {
        case .nobody: break
        case .idleThread: wakeUp.signal()
        case .newThread: PlatformThread.detach(name: name) { [self] in work() }
        }
    }

    /// Lets the threads exit once the jobs already submitted have run. Idempotent.
    package func shutDown() {
        let parked = state.withLock { state -> Int in
            state.isShutDown = true
            defer { state.idle = 0 }
            return state.idle
        }
        for _ in 0..<parked { wakeUp.signal() }
    }

    /// How many threads the pool has started and not yet seen exit, for tests.
    package var liveThreads: Int {
        state.withLock { $0.started }
    }

    private func work() {
        while true {
            let next = state.withLock { state -> Next in
                if let job = state.jobs.popFirst() { return .run(job) }
                if state.isShutDown {
                    state.started -= 1
                    return .exit
                }
                state.idle += 1
                return .park
            }
            switch next {
            case .run(let job): job()
            case .park: wakeUp.wait()
            case .exit: return
            }
        }
    }
}
