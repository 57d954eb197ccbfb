public import Foundation

/// A write a ``CacheRepository`` with ``PendingWrites/keep`` applied to its cache and still has to send to its main
/// source: a put (``value`` set) or a delete (``value`` nil) of one id.
///
/// ```swift
/// for write in try notes.pendingWrites().get() {
///     print(write.id, write.value == nil ? "delete" : "put", write.attempts, write.lastError?.code as Any)
/// }
/// ```
///
/// One id has at most one pending write: a later write of it replaces the earlier one and takes its place at the
/// end of the order (a delete after a put leaves one delete; a put after a delete, one put).
public struct PendingWrite<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    /// The id written.
    public let id: Value.ID
    /// The value put; nil for a delete.
    public let value: Value?
    /// When the write was made (and kept).
    public let queuedAt: Date
    /// How many times it was sent: the original call's attempt included, so 1 until a sync tries it again.
    public let attempts: Int
    /// Why the last attempt did not go through: the main source's error as a ``DataError`` (its own code when it
    /// was one, else ``DataError/Code/unavailable``). ``DataError/underlying`` is the source's error (a `URLError`,
    /// an ``HTTPError``) while the process that met it lives; after a restart the ``DataError/message`` keeps its
    /// description.
    public let lastError: DataError?
    /// Where the write is in its store's order of writes (``CacheWritePosition``): the order of the pending writes,
    /// and what names this one to its store.
    public let position: CacheWritePosition

    /// A pending write, as a ``PendingWriteStore`` answers it.
    public init(
        id: Value.ID,
        value: Value?,
        queuedAt: Date,
        attempts: Int,
        lastError: DataError?,
        position: CacheWritePosition
    ) {
        self.id = id
        self.value = value
        self.queuedAt = queuedAt
        self.attempts = attempts
        self.lastError = lastError
        self.position = position
    }

    /// Whether it is a delete.
    var isDeletion: Bool { value == nil }

    /// The same write, with `lastError`.
    func with(lastError: DataError?) -> PendingWrite {
        PendingWrite(
            id: id,
            value: value,
            queuedAt: queuedAt,
            attempts: attempts,
            lastError: lastError,
            position: position
        )
    }
}
