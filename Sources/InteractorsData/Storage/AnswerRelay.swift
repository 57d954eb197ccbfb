import Interactors

/// Answers the callers of a batch (a ``FileStore``'s) one after another on the batch's thread, without letting one
/// caller's code hold up the others' answers.
///
/// Answering a caller runs its code: an `.immediate` handler, a `flatMap` stage, which may block, waiting for
/// another call of the library or for something the app settles later. Whenever answers are left behind the one
/// about to run, a helper job is queued on `pool` first (one at a time): if that answer's code blocks, the helper
/// takes over the rest on another thread, and queues a helper of its own in turn. When nothing blocks, the helper
/// finds the answers delivered and ends at once; a batch of one answer queues none.
final class AnswerRelay: Sendable {
    private struct State {
        var answers = FIFO<@Sendable () -> Void>()
        /// A helper is queued and has not started yet.
        var helperQueued = false
    }

    private let pool: WorkerPool
    private let state = LockedBox(State())

    init(pool: WorkerPool) {
        self.pool = pool
    }

    /// Runs `answers` in order, here unless one of them blocks, on helpers from then on.
    func deliver(_ answers: [@Sendable () -> Void]) {
        guard !answers.isEmpty else { return }
        state.withLock { state in
            for answer in answers { state.answers.append(answer) }
        }
        relay()
    }

    private func relay() {
        while true {
            let (next, queuesHelper) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
                guard let answer = state.answers.popFirst() else { return (nil, false) }
                let queuesHelper = !state.answers.isEmpty && !state.helperQueued
                if queuesHelper { state.helperQueued = true }
                return (answer, queuesHelper)
            }
            guard let next else { return }
            if queuesHelper {
                pool.submit { [self] in
                    state.withLock { $0.helperQueued = false }
                    relay()
                }
            }
            next()
        }
    }
}
