import InteractorsData

/// A write waiting for the writer: what it does inside the open transaction, and how its response is answered
/// once that transaction has ended.
struct QueuedWrite: Sendable {
    /// Whether its response was cancelled before the writer reached it: it is then skipped.
    let isCancelled: @Sendable () -> Bool
    /// Runs the write in the transaction (inside a savepoint of its own); answers what it did.
    let run: @Sendable (SQLiteTransaction) -> WriteOutcome
    /// Fails its response when the writer could not even start a transaction for it.
    let fail: @Sendable (any Error) -> Void
}

/// What a write did inside the transaction, and how to answer its response when the transaction ends.
struct WriteOutcome: Sendable {
    /// Whether the write's statements succeeded and are kept; a failed write is rolled back to its savepoint.
    let succeeded: Bool
    /// Answers the response: `nil` once the transaction committed, or the error that undid it.
    let answer: @Sendable (_ transactionFailure: (any Error)?) -> Void
}
