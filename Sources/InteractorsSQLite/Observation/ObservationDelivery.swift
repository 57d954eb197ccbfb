import Dispatch
import Interactors
import InteractorsData

/// Tells one observer what its query answers after each change: rows from the writer are decoded in order on a
/// serial queue of the observer's own (never on the writer), and the answers are told on the observer's queue,
/// oldest first, one at a time.
///
/// A `CallbackQueue` promises neither order nor one job at a time, so the answers wait in a mailbox, and at most
/// one job that empties it is on the observer's queue at a time.
final class ObservationDelivery<Value: Sendable>: Sendable {
    private struct Mailbox {
        var handler: (@Sendable (Result<[Value], any Error>) -> Void)?
        var answers = FIFO<Result<[Value], any Error>>()
        /// A job that empties the mailbox is queued or running; whoever finds it `false` and adds an answer queues
        /// one.
        var isEmptying = false
    }

    private let queue: any CallbackQueue
    private let decoding: DispatchQueue
    private let answer: @Sendable ([StoredRow]) throws -> [Value]
    private let mailbox: LockedBox<Mailbox>

    init(
        queue: any CallbackQueue,
        answer: @escaping @Sendable ([StoredRow]) throws -> [Value],
        handler: @escaping @Sendable (Result<[Value], any Error>) -> Void
    ) {
        self.queue = queue
        self.answer = answer
        self.decoding = DispatchQueue(label: "InteractorsSQLite observation")
        self.mailbox = LockedBox(Mailbox(handler: handler))
    }

    /// Whether the observation was cancelled.
    var isCancelled: Bool {
        mailbox.withLock { $0.handler == nil }
    }

    /// Decodes `rows` off the caller's thread, after the rows received before them, then tells the answer.
    func receive(_ rows: Result<[StoredRow], DataError>) {
        decoding.async { [self] in
            guard !isCancelled else { return }
            let told: Result<[Value], any Error>
            switch rows {
            case .success(let rows): told = Result { try answer(rows) }
            case .failure(let error): told = .failure(error)
            }
            let mustEmpty = mailbox.withLock { mailbox in
                guard mailbox.handler != nil else { return false }
                mailbox.answers.append(told)
                defer { mailbox.isEmptying = true }
                return !mailbox.isEmptying
            }
            if mustEmpty { queue.schedule { [self] in empty() } }
        }
    }

    /// No answer is told from now on (one being told on another thread finishes), and the handler is released,
    /// outside the lock (releasing it may release the app's objects).
    func cancel() {
        let released = mailbox.withLock { mailbox in
            defer { mailbox = Mailbox(handler: nil, isEmptying: mailbox.isEmptying) }
            return mailbox
        }
        withExtendedLifetime(released) {}
    }

    private func empty() {
        while let (handler, answer) = next() {
            handler(answer)
        }
    }

    /// The next answer and the handler to tell it to; nil (and no job queued any more) when there is none.
    private func next() -> (@Sendable (Result<[Value], any Error>) -> Void, Result<[Value], any Error>)? {
        mailbox.withLock { mailbox in
            guard let handler = mailbox.handler, let answer = mailbox.answers.popFirst() else {
                mailbox.isEmptying = false
                return nil
            }
            return (handler, answer)
        }
    }
}
