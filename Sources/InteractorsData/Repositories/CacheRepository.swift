import Foundation
public import Interactors

/// A repository over a main source (a server, a database) and a cache (memory, a file), driven by a
/// ``RepositoryOperation``, that tells the main source's truth.
///
/// ```swift
/// let books = CacheRepository(
///     main: RESTDataSource<Book>(client: client, path: "books"),
///     cache: FileDataSource<Book>(fileURL: cacheURL, corruptFile: .moveAside),
///     maxAge: .seconds(3600)
/// )
/// let shelf = try books.getAll(AllObjectsQuery()).get()                   // the last list, else the server
/// let fresh = try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
/// if case .cacheAfterFailure = fresh.origin { showOfflineBanner(since: fresh.storedAt) }
/// ```
///
/// **Lists are cached per query.** A ``RepositoryOperation/cacheSync`` `getAll` answers from the cache only with
/// a list an earlier read of the main source stored for the same ``CacheKeyQuery/cacheKey`` (every value in it
/// valid); values merely put, or read one by one, make no list. A query without a key (a ``FilterQuery``) is
/// asked of the main source; only when the main source cannot answer it (``DataError/Code/queryNotSupported``)
/// do the cache's matches stand.
///
/// **A refresh replaces the list.** Reading `AllObjectsQuery()` from the main source leaves the cache holding
/// exactly what it answered; another key's list is replaced, and the ids an ``IdsQuery`` or ``IdQuery`` asked for
/// that the main source no longer has are evicted.
///
/// **A read never undoes a write made after it was sent.** What a read of the main source (`.mainSync`, or a
/// `.cacheSync` miss) stores is applied as of the moment it was sent: a put or delete made meanwhile through a
/// repository on the same cache (in this process or another, on the same file or database table) keeps what it
/// left, in the values and in every list, and the read's lists and values are as old as the read (`storedAt` =
/// when it was sent). The read still answers what the main source said. See ``CacheIndexStore``.
///
/// **Batches applied in part.** When the main source stored or deleted only some of a `putAll` or a `deleteAll` of
/// an ``IdsQuery`` (``DataError/Code/partiallyApplied``), the cache keeps what it stored and evicts what it
/// deleted, and the call fails with its error.
///
/// **Deletions reach the cache.** ``DataError/Code/notFound`` from the main source never falls back: the id is
/// evicted from the cache and from every list, and a read fails with `notFound`; a delete succeeds (it is gone
/// either way).
///
/// **A cache never hides the main source's answer.** When the main source succeeded, the operation succeeds with
/// its answer even if the cache could not be read or written; the cache's failure goes to `onCacheFailure`, once
/// per operation. A write is never sent twice because the cache failed.
///
/// **Which failures fall back** is `fallback`'s call, given the main source's error unchanged; by default
/// ``serverUnavailable(_:)``. The cache's stand-in is valid or not, any age: stale beats nothing when offline.
/// ``fetch(_:operation:)`` and ``fetchAll(_:operation:)`` say where an answer came from and when it was stored.
///
/// With a cache that adopts ``CacheIndexStore`` (``InMemoryDataSource``, ``FileDataSource``, InteractorsSQLite's
/// `SQLiteDataSource`), the lists and times are kept with the cache's values, so a new repository over the same
/// file answers its last lists; with
/// another cache they are kept in memory. Writes go to the main source, then the cache; `.main` and `.cache`
/// ask that one source as it is, without lists.
///
/// **Writes the server cannot take, kept** (`pendingWrites: .keep`, see ``PendingWrites``). A `put`, `putAll`,
/// `delete` or `deleteAll` of an ``IdsQuery`` that the main source fails with an error `fallback` accepts is applied
/// to the cache and kept as a ``PendingWrite`` in the same transaction, and the call succeeds once both are durable.
/// An error the server gave (a 4xx other than 408 and 429) still fails the call, and nothing is kept. Every read but
/// ``RepositoryOperation/main`` answers with the pending writes applied (``Fetched/isPending``), a read of the main
/// source never undoes one, and ``sync()`` sends them, in order, once the server is back.
public struct CacheRepository<Value: Identifiable & Sendable>: GetRepository, PutRepository, DeleteRepository
where Value.ID: Sendable {
    let main: any DataSourceParts<Value>
    let cache: any CacheIndexStore<Value>
    let isValid: @Sendable (Value) -> Bool
    let maxAge: Duration?
    let fallback: @Sendable (any Error) -> Bool
    let onCacheFailure: @Sendable (DataError) -> Void
    let answerFromCacheAfter: Duration?
    /// The reads of the main source under way, shared by identical calls (and by the copies of this repository).
    let valueReads = SharedReads<Fetched<Value>>()
    let listReads = SharedReads<Fetched<[Value]>>()
    /// The cache, when it keeps pending writes (`pendingWrites: .keep`); nil with `.fail`.
    let pendingStore: (any PendingWriteStore<Value>)?
    /// The pending writes a read shows, read just before it (CacheRepository+PendingReads.swift).
    var pendingSnapshot: PendingSnapshot?

    /// A repository over `main` and `cache`.
    ///
    /// - Parameters:
    ///   - main: The source of truth.
    ///   - cache: Where answers are kept.
    ///   - isValid: Whether a cached value is still good enough for ``RepositoryOperation/cacheSync`` reads.
    ///   - maxAge: How long after the repository stored a value or a list it stays good enough for
    ///     ``RepositoryOperation/cacheSync`` reads; nil for no limit. Older ones still stand in when the main
    ///     source is unavailable.
    ///   - fallback: Whether the cache may answer after the main source failed with this error.
    ///   - onCacheFailure: Told when the cache failed during an operation the main source answered: the cache's
    ///     own ``DataError``, or any other error wrapped in ``DataError/Code/storageFailed``. By default, one line
    ///     on standard error.
    ///   - answerFromCacheAfter: How long a read waits for the main source before the cache answers in its place,
    ///     if the cache has the value, or the query's list (at any age): the call then answers it with
    ///     ``Fetched/Origin-swift.enum/cacheWhileRefreshing``, and the main source's read goes on, its answer kept
    ///     in the cache when it comes. Nil (the default): a read waits for the main source. Without a cached value,
    ///     a read waits for the main source as with nil.
    ///   - pendingWrites: What a write the main source cannot take does: fails (``PendingWrites/fail``, the
    ///     default) or is kept in the cache until ``sync()`` sends it (``PendingWrites/keep``). `.keep` needs a cache
    ///     that adopts ``PendingWriteStore`` (``InMemoryDataSource``, ``FileDataSource``, InteractorsSQLite's
    ///     `SQLiteDataSource`): with another one, this initializer stops with a precondition failure that says so.
    public init(
        main: some GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>,
        cache: some GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>,
        isValid: @escaping @Sendable (Value) -> Bool = { _ in true },
        maxAge: Duration? = nil,
        fallback: @escaping @Sendable (any Error) -> Bool = CacheRepository.serverUnavailable,
        onCacheFailure: @escaping @Sendable (DataError) -> Void = CacheRepository.reportToStandardError,
        answerFromCacheAfter: Duration? = nil,
        pendingWrites: PendingWrites = .fail
    ) {
        self.main = main
        self.cache = (cache as? any CacheIndexStore<Value>) ?? UnindexedCache.shared(over: cache)
        self.isValid = isValid
        self.maxAge = maxAge
        self.fallback = fallback
        self.onCacheFailure = onCacheFailure
        self.answerFromCacheAfter = answerFromCacheAfter
        self.pendingStore = Self.pendingStore(for: pendingWrites, cache: cache)
    }

    /// The one value `query` selects, from the sources `operation` names.
    public func get(_ query: any Query, operation: RepositoryOperation) -> Response<Value> {
        fetch(query, operation: operation).map(\.value)
    }

    /// Every value `query` selects, from the sources `operation` names.
    public func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Value]> {
        fetchAll(query, operation: operation).map(\.value)
    }

    // MARK: Validity

    /// Whether `entry` may answer a ``RepositoryOperation/cacheSync`` read.
    func isFresh(_ entry: CacheEntry<Value>) -> Bool {
        isValid(entry.value) && isYoung(entry.storedAt)
    }

    /// Whether something stored at `storedAt` is younger than `maxAge`; an unknown time is not, when there is a
    /// limit.
    func isYoung(_ storedAt: Date?) -> Bool {
        guard let maxAge else { return true }
        guard let storedAt else { return false }
        let components = maxAge.components
        let limit = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return Date().timeIntervalSince(storedAt) < limit
    }

    // MARK: Reporting the cache's failures

    /// Reports the cache's failure, once per operation: the first of an operation's cache steps that failed.
    final class CacheFailureReport: Sendable {
        private let reported = LockedBox(false)
        private let onCacheFailure: @Sendable (DataError) -> Void

        init(_ onCacheFailure: @escaping @Sendable (DataError) -> Void) {
            self.onCacheFailure = onCacheFailure
        }

        func report(_ error: any Error) {
            guard
                !reported.withLock({ reported in
                    defer { reported = true }
                    return reported
                })
            else { return }
            onCacheFailure(
                (error as? DataError)
                    ?? DataError(
                        code: .storageFailed,
                        message: "the cache failed: \(DataError.describe(error))",
                        underlying: error
                    )
            )
        }
    }

    /// A cache read's failure that means "not there": nothing to report.
    static func isCacheMiss(_ error: any Error) -> Bool {
        error.isDataError(.notFound) || error.isDataError(.queryNotSupported)
    }
}
