import Interactors

/// Runs asynchronous writes one at a time, in the order they were queued: each starts once the one before has
/// settled. What a write made of several calls to a plain data source needs to be atomic with respect to the
/// others (an ``UnindexedCache`` applying a refresh's answer while a put comes in).
///
/// A write begins when the lane reaches it, and its response is then committed to its outcome
/// (`Resolver.commitToOutcome()`): cancelling it later is ignored, and the caller hears what the write did. One
/// cancelled while it waited is withdrawn, and the lane moves on.
///
/// Nothing runs under the lane's lock. The next write starts on the thread that settled the one before (or, when
/// a write settles as it starts, in the same loop, not in a deeper call: a lane of synchronous writes does not
/// grow the stack).
final class WriteLane: Sendable {
    /// A queued write: starts its work, and calls `finished` exactly once, when that work has settled.
    typealias Job = @Sendable (_ finished: @escaping @Sendable () -> Void) -> Void

    private struct State {
        var jobs = FIFO<Job>()
        var isRunning = false
    }

    private let state = LockedBox(State())

    /// Queues `write`; its response settles with what the response `write` returns settles with.
    func enqueue<T: Sendable>(_ write: @escaping @Sendable () -> Response<T>) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        submit { finished in
            guard resolver.commitToOutcome() else { return finished() }  // cancelled while it waited
            write().onResult(on: .immediate) { result in
                // The lane moves on first: a caller's `.immediate` handler that queues a write and waits for it
                // must find the lane free.
                finished()
                resolver.resolve(result)
            }
        }
        return response
    }

    private func submit(_ job: @escaping Job) {
        let starts = state.withLock { state in
            state.jobs.append(job)
            defer { state.isRunning = true }
            return !state.isRunning
        }
        if starts { drain() }
    }

    /// Runs the queued jobs in order until one settles later than it starts (its `finished` then drains on), or
    /// none is left.
    private func drain() {
        while true {
            let job = state.withLock { state -> Job? in
                if let job = state.jobs.popFirst() { return job }
                state.isRunning = false
                return nil
            }
            guard let job else { return }
            let ends = Handoff()
            job { if ends.end() { self.drain() } }
            guard ends.end() else { return }
        }
    }

    /// A job's two ends, its work settling (`finished`) and its return: the one that comes second goes on with the
    /// lane.
    private final class Handoff: Sendable {
        private let ended = LockedBox(false)

        /// Whether the other end came first.
        func end() -> Bool {
            ended.withLock { ended in
                defer { ended = true }
                return ended
            }
        }
    }
}
