public import Interactors
public import InteractorsData

// MARK: Serving a cache repository

/// A `SQLiteDataSource` keeps a `CacheRepository`'s lists and stored-at times in its database, next to its
/// values (see the InteractorsSQLite documentation for the tables), so a repository over a source on the same
/// file, after a restart and offline, answers its last lists with their ages.
extension SQLiteDataSource: CacheIndexStore {
    /// The values with `ids` that the table holds, in the order of `ids`, each with when a repository stored it;
    /// read in one transaction.
    public func cachedEntries(_ ids: [Value.ID]) -> Response<[CacheEntry<Value>]> {
        database.read { [storage] connection throws(DataError) in
            try storage.entryRows(ids, on: connection)
        } decode: { [storage] rows throws(DataError) in
            try storage.entries(rows)
        }
    }

    /// The list stored under `key`, with the values it names that the table holds; read in one transaction.
    public func cachedList(forKey key: String) -> Response<CachedList<Value>?> {
        database.read { [storage] connection throws(DataError) in
            try storage.listRows(forKey: key, on: connection)
        } decode: { [storage] list throws(DataError) in
            try list.map { list throws(DataError) in try storage.list(list) }
        }
    }

    /// Where the table is in its order of writes, which the database keeps: every put and delete of the table,
    /// through any source on it in this process or another, takes a position.
    public func writePosition() -> Response<CacheWritePosition?> {
        database.read { [storage] connection throws(DataError) in
            try storage.writePosition(on: connection)
        } decode: { position throws(DataError) in
            position
        }
    }

    /// Applies `change` as one write transaction: a reader sees all of it or none of it. Observers of the table
    /// are told after it commits.
    public func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void> {
        write("applyCacheChange") { transaction, source in try transaction.applyCacheChange(change, in: source) }
    }
}
