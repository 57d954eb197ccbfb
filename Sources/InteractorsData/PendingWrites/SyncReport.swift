/// What a ``CacheRepository/sync()`` did: the pending writes the main source took, those it refused, and how many
/// are still pending.
///
/// ```swift
/// let report = try notes.sync().get()
/// for (id, error) in report.rejected { showRefused(id, reason: error) }   // the cache shows the server's value
/// if report.remaining > 0 { showBanner("\(report.remaining) changes wait for the server") }
/// ```
public struct SyncReport<ID: Hashable & Sendable>: Sendable {
    /// The ids whose pending writes the main source took, in the order they were sent (a delete it answered
    /// ``DataError/Code/notFound`` included: the value is gone either way). An id written again while the sync ran
    /// and sent again by it appears twice.
    public let sent: [ID]
    /// The ids whose pending writes the main source refused (a 4xx other than 408 and 429), each with its error: a
    /// ``DataError`` whose code is the source's own (``DataError/Code/notFound`` for a put answered 404) or
    /// ``DataError/Code/rejected``, and whose ``DataError/underlying`` is the source's error. The cache no longer
    /// shows them: it holds what the main source answered for the id since, or nothing.
    public let rejected: [ID: DataError]
    /// How many writes were still pending when the sync ended: those it did not reach (the main source unavailable
    /// again, or the sync stopped) and those made meanwhile that it did not reach.
    public let remaining: Int

    /// A report of `sent`, `rejected` and `remaining`.
    public init(sent: [ID], rejected: [ID: DataError], remaining: Int) {
        self.sent = sent
        self.rejected = rejected
        self.remaining = remaining
    }

    /// A sync that had nothing to do.
    static var empty: SyncReport { SyncReport(sent: [], rejected: [:], remaining: 0) }
}
