/// An ordered collection of values keyed by id, with the cache index a ``CacheRepository`` keeps about them, and
/// how the local sources answer queries over it.
///
/// Values keep the order they were first stored in; replacing a value keeps its place. A value removed leaves the
/// index too (its time, its places in lists), so no list ever names a value the store no longer holds. `source`
/// names the data source in error messages.
struct ValueCollection<Value: Identifiable> {
    private(set) var values: [Value] = []
    private var positions: [Value.ID: Int] = [:]
    var index = CacheIndex<Value.ID>()

    init(_ values: [Value] = []) {
        for value in values { put(value) }
    }

    var count: Int { values.count }

    /// Where the value with `id` is in ``values``.
    func position(of id: Value.ID) -> Int? { positions[id] }

    /// Stores `value`, replacing the one with its id; its stored-at time is forgotten (a repository sets it).
    mutating func put(_ value: Value) {
        if let position = positions[value.id] {
            values[position] = value
        } else {
            positions[value.id] = values.count
            values.append(value)
        }
        if !index.storedAt.isEmpty { index.storedAt[value.id] = nil }
    }

    mutating func remove(_ ids: some Sequence<Value.ID>) {
        let removed = Set(ids.filter { positions[$0] != nil })
        guard !removed.isEmpty else { return }
        values.removeAll { removed.contains($0.id) }
        positions = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0.element.id, $0.offset) })
        index.forget(removed)
    }

    subscript(id id: Value.ID) -> Value? {
        positions[id].map { values[$0] }
    }
}

// MARK: - Answering queries

extension ValueCollection where Value.ID: Sendable {
    /// `get`: an ``IdQuery`` or the first match of a ``FilterQuery``.
    func get(_ query: any Query, source: String) throws(DataError) -> Value {
        let found: Value?
        if let query = query as? IdQuery<Value.ID> {
            found = self[id: query.id]
        } else if let query = query as? FilterQuery<Value> {
            found = values.first(where: query.isIncluded)
        } else {
            throw .queryNotSupported(query, by: source)
        }
        guard let found else { throw .notFound(query, in: source) }
        return found
    }

    /// `getAll`: everything, some ids (in query order), one id, or the matches of a filter.
    func getAll(_ query: any Query, source: String) throws(DataError) -> [Value] {
        if query is AllObjectsQuery { return values }
        if let query = query as? IdsQuery<Value.ID> { return query.ids.compactMap { self[id: $0] } }
        if let query = query as? IdQuery<Value.ID> { return self[id: query.id].map { [$0] } ?? [] }
        if let query = query as? FilterQuery<Value> { return values.filter(query.isIncluded) }
        throw .queryNotSupported(query, by: source)
    }

    /// The ids `delete` removes: one ``IdQuery``, present or not.
    func idsToDelete(_ query: any Query, source: String) throws(DataError) -> [Value.ID] {
        guard let query = query as? IdQuery<Value.ID> else { throw .queryNotSupported(query, by: source) }
        return [query.id]
    }

    /// The ids `deleteAll` removes: everything, some ids, one id, or the matches of a filter.
    func idsToDeleteAll(_ query: any Query, source: String) throws(DataError) -> [Value.ID] {
        try getAll(query, source: source).map(\.id)
    }

    /// `deleteAll`: removes what `query` selects; everything, lists included, for ``AllObjectsQuery``.
    mutating func deleteAll(_ query: any Query, source: String) throws(DataError) {
        let ids = try idsToDeleteAll(query, source: source)
        remove(ids)
        if query is AllObjectsQuery { index = CacheIndex() }
    }
}
