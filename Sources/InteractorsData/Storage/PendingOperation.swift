import Interactors

/// An operation waiting in a ``FileStore``'s queue, with the resolver of the response it answers.
struct PendingOperation<Value: Identifiable & Sendable>: Sendable {
    let isWrite: Bool
    private let run: @Sendable (inout ValueCollection<Value>) -> PendingOutcome
    let fail: @Sendable (any Error) -> Void
    /// Whether the operation goes ahead as its batch reaches it: a write commits its response to its outcome (a
    /// cancellation from now on is ignored), a read checks it is still wanted; `false` for one cancelled while it
    /// waited, which the batch then skips.
    let begin: @Sendable () -> Bool

    /// An operation answering `resolver`; every failure it answers goes through `failure` first (which names the
    /// store's file in it).
    init<T: Sendable>(
        isWrite: Bool,
        body: @escaping @Sendable (inout ValueCollection<Value>) throws -> T,
        resolver: Resolver<T>,
        failure: @escaping @Sendable (any Error) -> any Error
    ) {
        self.isWrite = isWrite
        self.run = { collection in
            // Applied in place: a body throws before it changes anything, so a failed one leaves the batch's
            // working copy as it was, and no operation pays for a copy of the collection.
            do {
                let value = try body(&collection)
                return PendingOutcome(
                    succeeded: true,
                    deliver: { resolver.succeed(value) },
                    fail: { resolver.fail(failure($0)) }
                )
            } catch {
                let error = failure(error)
                return PendingOutcome(
                    succeeded: false,
                    deliver: { resolver.fail(error) },
                    fail: { _ in resolver.fail(error) }
                )
            }
        }
        self.fail = { resolver.fail(failure($0)) }
        if isWrite {
            self.begin = { resolver.commitToOutcome() }
        } else {
            self.begin = { !resolver.isCancelled }
        }
    }

    func apply(to collection: inout ValueCollection<Value>) -> PendingOutcome {
        run(&collection)
    }
}

/// What an applied operation answers once the commit is settled: `deliver` if it reached the disk (or was a
/// read), `fail` with the write's error if it did not.
struct PendingOutcome {
    let succeeded: Bool
    let deliver: @Sendable () -> Void
    let fail: @Sendable (any Error) -> Void
}
