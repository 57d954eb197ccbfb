import Dispatch

/// A bounded number of threads of the library's own that run submitted jobs, oldest first: where the library does
/// blocking work (a SQLite statement, a file store's batch, decoding a body) and delivers answers, instead of on
/// Dispatch's global pool.
///
/// The global pool is the app's: a handful of blocking waits on it (one of the library's three styles) or the
/// app's own long jobs can leave it without a free thread for tens of seconds, and work the library queued there
/// would wait as long. Like swift-nio's `NIOThreadPool`, a pool owns its threads, so its jobs wait only for each
/// other.
///
/// Threads start on demand, one per job waiting while none is idle, up to `threads` running at once, and then live
/// until ``shutDown()``: a process has as many library threads as its pools allow, never one per call. Each is
/// named `name` (Linux keeps 15 bytes of a name, so names are short: `ix.` and the role), for debuggers, `top -H`
/// and crash reports. With `threads: 1` the jobs run one at a time in submission order: a serial queue.
///
/// **A thread blocked on the library is replaced.** A job may run user code (a handler, a stage) that blocks on
/// another response of the library, which may need this very pool to settle. When a thread of a pool that
/// `compensatesBlockedThreads` blocks in a library wait (`get()`, `result`, `error`), it stops counting against
/// `threads`: a job waiting meanwhile starts a thread of its own, as a fork-join pool compensates a blocked worker.
/// Once the blocked thread returns, the pool has more running threads than `threads` for a moment; the first
/// threads to finish a job then exit until it is back within its size. So however many handlers block, the
/// pool's other work still runs, and with nothing blocked it never has more than `threads` threads.
package final class WorkerPool: Sendable {
    private struct State {
        var jobs = FIFO<@Sendable () -> Void>()
        /// Threads started and not yet exited.
        var started = 0
        /// Threads parked on `wakeUp`, each owed one signal when a job arrives.
        var idle = 0
        /// Threads blocked in a library wait inside a job: they do not count against the pool's size.
        var blocked = 0
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
    private let compensates: Bool
    private let state = LockedBox(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// A pool of at most `threads` running threads named `name`, none started yet. `compensatesBlockedThreads`:
    /// a thread blocked in a library wait is replaced (see above); `false` for a pool whose size is a guarantee
    /// (a serial writer whose jobs never run user code).
    package init(name: String, threads: Int = 1, compensatesBlockedThreads: Bool = true) {
        precondition(threads > 0, "Interactors: a worker pool needs at least one thread")
        self.name = name
        self.maximumThreads = threads
        self.compensates = compensatesBlockedThreads
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
            guard state.started - state.blocked < maximumThreads || (state.isShutDown && state.started == 0) else {
                return .nobody
            }
            state.started += 1
            return .newThread
        }
        switch wake {
        case .nobody: break
        case .idleThread: wakeUp.signal()
        case .newThread: startThread()
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

    /// How many of the pool's threads are blocked in a library wait now, for tests.
    package var blockedThreads: Int {
        state.withLock { $0.blocked }
    }

    private func startThread() {
        PlatformThread.detach(name: name) { [self] in
            DeliveryDrain.current.takeUnretainedValue().workerPool = Unmanaged.passUnretained(self)
            work()
        }
    }

    private func work() {
        while true {
            let next = state.withLock { state -> Next in
                // Back from a job with more threads running than the pool's size (a blocked thread returned, or
                // a compensating one finished): this one leaves.
                if state.started - state.blocked > maximumThreads, !state.isShutDown {
                    state.started -= 1
                    return .exit
                }
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

// MARK: - Compensating a blocked thread

extension WorkerPool {
    /// Called on one of this pool's threads about to block in a library wait: it stops counting against the pool's
    /// size, and a job already waiting gets a thread of its own.
    func threadWillBlock() {
        guard compensates else { return }
        let start = state.withLock { state -> Bool in
            state.blocked += 1
            guard !state.jobs.isEmpty, state.idle == 0, state.started - state.blocked < maximumThreads else {
                return false
            }
            state.started += 1
            return true
        }
        if start { startThread() }
    }

    /// Called on one of this pool's threads whose library wait is over: it counts against the pool's size again.
    /// The pool may now run more threads than its size; the first to finish a job leave.
    func threadDidUnblock() {
        guard compensates else { return }
        state.withLock { $0.blocked -= 1 }
    }
}
