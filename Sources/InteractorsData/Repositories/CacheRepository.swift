public import Interactors

/// A repository over a main source (a server, a database) and a cache (memory, a file), driven by a
/// ``RepositoryOperation``.
///
/// ```swift
/// let notes = CacheRepository(
///     main: RESTDataSource<Note>(client: client, path: "notes"),
///     cache: FileDataSource<Note>(fileURL: cacheURL),
///     isValid: { note in note.fetchedAt.timeIntervalSinceNow > -3600 }
/// )
/// let note = try notes.get(IdQuery("n1")).get()                        // cache first (.cacheSync)
/// let fresh = try notes.get(IdQuery("n1"), operation: .mainSync).get()  // server first; cache when offline
/// ```
///
/// Reads with ``RepositoryOperation/cacheSync`` take the cache's value when it has one the validator accepts,
/// and otherwise read the main source and store what it answers. Reads with ``RepositoryOperation/mainSync``
/// read the main source and store what it answers; if the main source fails for any reason but
/// ``DataError/Code/notFound``, the cache's value stands in, valid or not: stale beats nothing when offline.
/// Writes and deletes with either go to the main source, then to the cache; a failed main write leaves the
/// cache alone.
///
/// A cache that cannot answer a query (``DataError/Code/queryNotSupported``) counts as a miss, so queries only
/// the main source understands still work with the default operation. Any other cache failure (a corrupt file)
/// is reported, not papered over.
public struct CacheRepository<Value: Identifiable & Sendable>: GetRepository, PutRepository, DeleteRepository
where Value.ID: Sendable {
    let main: any DataSource<Value>
    let cache: any DataSource<Value>
    let isValid: @Sendable (Value) -> Bool

    /// A repository over `main` and `cache`; `isValid` says whether a cached value is still good enough for
    /// ``RepositoryOperation/cacheSync`` reads.
    public init(
        main: some DataSource<Value>,
        cache: some DataSource<Value>,
        isValid: @escaping @Sendable (Value) -> Bool = { _ in true }
    ) {
        self.main = main
        self.cache = cache
        self.isValid = isValid
    }

    /// The one value `query` selects, from the sources `operation` names.
    public func get(_ query: any Query, operation: RepositoryOperation) -> Response<Value> {
        switch operation {
        case .main: main.get(query)
        case .cache: cache.get(query)
        case .mainSync: getFromMain(query)
        case .cacheSync:
            cache.get(query).then { [self] cached in
                switch cached {
                case .success(let value) where isValid(value): Response(value: value)
                case .success: getFromMain(query)
                case .failure(let error) where Self.isCacheMiss(error): getFromMain(query)
                case .failure(let error): Response(error: error)
                }
            }
        }
    }

    /// Every value `query` selects, from the sources `operation` names.
    public func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Value]> {
        switch operation {
        case .main: main.getAll(query)
        case .cache: cache.getAll(query)
        case .mainSync: getAllFromMain(query)
        case .cacheSync:
            cache.getAll(query).then { [self] cached in
                switch cached {
                case .success(let values) where !values.isEmpty && values.allSatisfy(isValid): Response(value: values)
                case .success: getAllFromMain(query)
                case .failure(let error) where Self.isCacheMiss(error): getAllFromMain(query)
                case .failure(let error): Response(error: error)
                }
            }
        }
    }

    /// `.mainSync` reads: the main source, stored in the cache; the cache when the main source is unavailable.
    private func getFromMain(_ query: any Query) -> Response<Value> {
        main.get(query).then { [cache] fetched in
            switch fetched {
            case .success(let value):
                return cache.put(value)
            case .failure(let error) where !Self.allowsFallback(after: error):
                return Response(error: error)
            case .failure(let error):
                return cache.get(query).recover { _ in throw error }
            }
        }
    }

    private func getAllFromMain(_ query: any Query) -> Response<[Value]> {
        main.getAll(query).then { [cache] fetched in
            switch fetched {
            case .success(let values):
                return cache.putAll(values)
            case .failure(let error) where !Self.allowsFallback(after: error):
                return Response(error: error)
            case .failure(let error):
                return cache.getAll(query).map { cached in
                    if cached.isEmpty { throw error }
                    return cached
                }.recover { _ in throw error }
            }
        }
    }

    /// The main source said the value does not exist, or the caller gave up: the cache must not answer instead.
    private static func allowsFallback(after error: any Error) -> Bool {
        !error.isDataError(.notFound) && !(error is CancellationError)
    }

    private static func isCacheMiss(_ error: any Error) -> Bool {
        error.isDataError(.notFound) || error.isDataError(.queryNotSupported)
    }
}
