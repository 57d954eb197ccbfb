import InteractorsData

/// A write waiting for the writer: what it does inside the open transaction, and how its response is answered
/// once that transaction has ended.
struct QueuedWrite: Sendable {
    /// Called as the writer takes it into a transaction: commits its response to its outcome (a cancellation from
    /// now on is ignored, the caller hears what the transaction did); `false` if it was cancelled while queued: it
    /// is then skipped, and nothing of it is written.
    let begin: @Sendable () -> Bool
    /// Runs the write in the transaction (inside a savepoint of its own when it shares the transaction); answers
    /// what it did. May run more than once: when its group is committed again write by write, or on a fresh file.
    let run: @Sendable (SQLiteTransaction) -> WriteOutcome
    /// Fails its response when its transaction could not commit.
    let fail: @Sendable (DataError) -> Void
}

/// What a write did inside the transaction, and how to answer its response once the transaction has committed.
struct WriteOutcome: Sendable {
    /// Whether the write's statements succeeded and are kept; a failed write is rolled back to its savepoint.
    let succeeded: Bool
    /// Answers the response: with the body's value, or the error that undid the write alone.
    let answer: @Sendable () -> Void
}
