import Interactors
import InteractorsData

/// Reads and tells one observer what its query answers, one state at a time: a read (off the writer, on the
/// database's reader threads), then the answer told on the observer's queue, then, if a commit changed the table
/// meanwhile, one more read, which sees every commit before it.
///
/// Nothing piles up: while a read or the observer's handler is busy, the commits that come in only mark the
/// observation out of date, and however many there were, the next read sees them all. So an observer that is
/// still busy is told at most two states once it is free (the one being read, and one more if a commit came in
/// meanwhile), the newest last; intermediate states may be skipped, the last state is always told, and states
/// never go back in time (each read starts after the one before it). What it costs the writer per commit is a
/// flag and, at most, one job handed to a reader thread; what it holds is at most one state.
final class ObservationDelivery<Value: Sendable>: Sendable {
    typealias Answer = Result<[Value], any Error>

    private struct State {
        var handler: (@Sendable (Answer) -> Void)?
        /// A read is running, or its answer is on its way to the handler or being told.
        var isBusy = false
        /// A commit changed the table after the running read began: read again once the handler returns.
        var isOutOfDate = false
    }

    private let queue: any CallbackQueue
    /// Reads the current answer and hands it to the closure given, on a thread of the database's.
    private let read: @Sendable (@escaping @Sendable (Answer) -> Void) -> Void
    private let state: LockedBox<State>

    init(
        queue: any CallbackQueue,
        read: @escaping @Sendable (@escaping @Sendable (Answer) -> Void) -> Void,
        handler: @escaping @Sendable (Answer) -> Void
    ) {
        self.queue = queue
        self.read = read
        self.state = LockedBox(State(handler: handler))
    }

    /// Whether the observation was cancelled.
    var isCancelled: Bool {
        state.withLock { $0.handler == nil }
    }

    /// The table changed (or the observation starts): reads now if idle, else once the state being read or told
    /// has been told.
    func changed() {
        let mustRead = state.withLock { state -> Bool in
            guard state.handler != nil else { return false }
            guard !state.isBusy else {
                state.isOutOfDate = true
                return false
            }
            state.isBusy = true
            state.isOutOfDate = false
            return true
        }
        if mustRead { startRead() }
    }

    /// Tells `answer` once, with no read to follow: for a query the source cannot answer.
    func tellOnce(_ answer: Answer) {
        state.withLock { $0.isBusy = true }
        tell(answer)
    }

    private func startRead() {
        read { [self] answer in tell(answer) }
    }

    /// Hands `answer` to the observer's queue; once the handler has returned, reads again if the table changed
    /// meanwhile.
    private func tell(_ answer: Answer) {
        guard !isCancelled else { return }
        queue.schedule { [self] in
            if let handler = state.withLock({ $0.handler }) { handler(answer) }
            let readAgain = state.withLock { state -> Bool in
                guard state.handler != nil, state.isOutOfDate else {
                    state.isBusy = false
                    return false
                }
                state.isOutOfDate = false
                return true
            }
            if readAgain { startRead() }
        }
    }

    /// No answer is told from now on (one being told on another thread finishes), and the handler is released,
    /// outside the lock (releasing it may release the app's objects).
    func cancel() {
        let released = state.withLock { state in
            defer { state.handler = nil }
            return state.handler
        }
        withExtendedLifetime(released) {}
    }
}
