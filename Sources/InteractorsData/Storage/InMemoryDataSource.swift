import Dispatch
public import Interactors

/// A thread-safe collection in memory: a cache, a test double with real behaviour, a scratch store.
///
/// ```swift
/// let cache = InMemoryDataSource<Note>()
/// _ = try cache.put(note).get()
/// let pinned = try cache.getAll(FilterQuery<Note> { $0.isPinned }).get()
/// ```
///
/// Every operation runs at once on the calling thread and returns a settled `Response`. It answers
/// ``IdQuery``, ``IdsQuery``, ``AllObjectsQuery``, ``FilterQuery`` and ``PageQuery`` (see ``GetDataSource`` for
/// what each method answers), and keeps values in the order they were first stored. As a ``CacheRepository``'s cache, it
/// keeps the repository's lists, times and order of writes with its values (``CacheIndexStore``), in memory.
///
/// A put, a get by id and a delete cost O(1) (a delete amortised: its value's slot is emptied and the slots are
/// compacted once half are empty), whatever the number of values and the length of the lists they are in. Two
/// `String` ids are two values exactly when their Unicode scalars differ (`"café"` in NFC and in NFD are two), as
/// in SQLite and on a server.
public final class InMemoryDataSource<Value: Identifiable & Sendable>: DataSource
where Value.ID: Sendable {
    private let collection = LockedBox(ValueCollection<Value>())
    private let name = "InMemoryDataSource<\(Value.self)>"

    /// An empty collection.
    public init() {}

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        answer { [name] in try $0.get(query, source: name) }
    }

    /// Every value `query` selects, in storage order (``IdsQuery``: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        answer { [name] in try $0.getAll(query, source: name) }
    }

    /// Stores `value`, replacing any value with its id.
    public func put(_ value: Value) -> Response<Value> {
        answer {
            $0.put(value)
            return value
        }
    }

    /// Stores `values`, in order.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        answer {
            for value in values { $0.put(value) }
            return values
        }
    }

    /// Stores `value`; with `ifAbsent`, only if no value has its id, checked under the collection's lock, and
    /// otherwise fails with ``DataError/Code/conflict``.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        answer { [name] in
            try $0.put(value, ifAbsent: ifAbsent, source: name)
            return value
        }
    }

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        answer { [name] in $0.remove(try $0.idsToDelete(query, source: name)) }
    }

    /// Deletes every value `query` selects.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        answer { [name] in try $0.deleteAll(query, source: name) }
    }

    /// Deletes the value with the query's id; with `ifPresent`, fails with ``DataError/Code/notFound`` if there was
    /// none, checked under the collection's lock.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        answer { [name] in try $0.delete(query, ifPresent: ifPresent, source: name) }
    }

    func answer<T: Sendable>(
        _ body: (inout ValueCollection<Value>) throws -> T
    ) -> Response<T> {
        Response(result: Result { try collection.withLock(body) })
    }
}

// MARK: - A cache repository's index, in memory

extension InMemoryDataSource: CacheIndexStore {
    /// The values with `ids` held, with their stored-at times.
    public func cachedEntries(_ ids: [Value.ID]) -> Response<[CacheEntry<Value>]> {
        answer { $0.cachedEntries(ids) }
    }

    /// The list stored under `key`, if any.
    public func cachedList(forKey key: String) -> Response<CachedList<Value>?> {
        answer { $0.cachedList(forKey: key) }
    }

    /// Applies `change` under the collection's lock: one transaction.
    public func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void> {
        answer { $0.apply(change) }
    }

    /// Where the collection is in its order of writes: every put and delete of this instance takes a position.
    public func writePosition() -> Response<CacheWritePosition?> {
        answer { $0.log.current }
    }
}
