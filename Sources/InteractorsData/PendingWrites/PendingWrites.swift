/// What a ``CacheRepository`` does with a write its main source cannot take for now: fail it (``fail``, the
/// default) or keep it in the cache and send it later (``keep``).
///
/// ```swift
/// let notes = CacheRepository(
///     main: RESTDataSource<Note>(client: client, path: "notes"),
///     cache: try SQLiteDataSource<Note>(database: database, table: "notes"),
///     pendingWrites: .keep
/// )
/// _ = try notes.put(note).get()          // succeeds offline: kept, shown, sent by the next sync
/// let report = try notes.sync().get()    // later, once the server is back
/// ```
///
/// With ``keep``, a `put`, `putAll`, `delete` or `deleteAll` of an ``IdsQuery`` (with
/// ``RepositoryOperation/mainSync`` or ``RepositoryOperation/cacheSync``) that the main source fails with an error
/// the repository's `fallback` accepts is applied to the cache and kept as a ``PendingWrite``, in the same
/// transaction (or file write), and the call succeeds once both are durable. See ``CacheRepository`` for the
/// rules: reads show pending writes, refreshes never undo them, ``CacheRepository/sync()`` sends them.
public struct PendingWrites: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// A write the main source cannot take fails, with the main source's error, and the cache is left alone: the
    /// behaviour of a repository that keeps no pending writes.
    public static let fail = PendingWrites("fail")

    /// A write the main source cannot take for now is applied to the cache and kept until
    /// ``CacheRepository/sync()`` sends it. Needs a cache that adopts ``PendingWriteStore`` (``InMemoryDataSource``,
    /// ``FileDataSource``, InteractorsSQLite's `SQLiteDataSource`).
    public static let keep = PendingWrites("keep")

    /// `fail` or `keep`.
    public var description: String { name }
}
