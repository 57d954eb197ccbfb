public import Interactors

// MARK: Writing and deleting
//
// `.mainSync` and `.cacheSync` write to the main source first and to the cache only once the main source has
// succeeded, with what the main source answered (a server may add a revision or a timestamp).

extension CacheRepository {
    /// Stores `value` in the sources `operation` names; answers with what was stored.
    public func put(_ value: Value, operation: RepositoryOperation) -> Response<Value> {
        switch operation {
        case .main: main.put(value)
        case .cache: cache.put(value)
        case .mainSync, .cacheSync: main.put(value).flatMap { [cache] stored in cache.put(stored) }
        }
    }

    /// Stores `values` in the sources `operation` names; answers with what was stored.
    public func putAll(_ values: [Value], operation: RepositoryOperation) -> Response<[Value]> {
        switch operation {
        case .main: main.putAll(values)
        case .cache: cache.putAll(values)
        case .mainSync, .cacheSync: main.putAll(values).flatMap { [cache] stored in cache.putAll(stored) }
        }
    }

    /// Deletes the value `query` selects from the sources `operation` names.
    public func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        switch operation {
        case .main: main.delete(query)
        case .cache: cache.delete(query)
        case .mainSync, .cacheSync: main.delete(query).flatMap { [cache] in cache.delete(query) }
        }
    }

    /// Deletes every value `query` selects from the sources `operation` names.
    public func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        switch operation {
        case .main: main.deleteAll(query)
        case .cache: cache.deleteAll(query)
        case .mainSync, .cacheSync: main.deleteAll(query).flatMap { [cache] in cache.deleteAll(query) }
        }
    }
}
