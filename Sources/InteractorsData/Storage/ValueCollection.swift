/// An ordered collection of values keyed by id, with the cache index a ``CacheRepository`` keeps about them, the
/// order of its writes, and how the local sources answer queries over it.
///
/// Values keep the order they were first stored in; replacing a value keeps its place. A value removed leaves the
/// index too (its time, its places in lists), so no list ever names a value the store no longer holds. Ids are
/// compared exactly (``ExactID``). `source` names the data source in error messages.
///
/// Removing a value costs O(1) amortised: its slot is emptied, and the slots are compacted once half of them are
/// empty, so deleting one value of 40,000 does not move the other 39,999.
struct ValueCollection<Value: Identifiable> {
    private var slots: [Value?] = []
    private var positions: [ExactID<Value.ID>: Int] = [:]
    private var emptySlots = 0
    var index = CacheIndex<Value.ID>()
    /// The order of writes: every put and delete takes a position in it.
    var log = WriteLog<Value.ID>()
    /// A cache repository's pending writes (``PendingWriteStore``), with the positions their writes took in `log`.
    var pending = PendingWriteLog<Value>()

    /// A collection of `values` (in order; a later value replaces an earlier one with its id), with no writes in
    /// its order yet.
    init(_ values: [Value] = []) {
        slots.reserveCapacity(values.count)
        for value in values { store(value) }
    }

    var count: Int { positions.count }

    /// The values, in order. A loop rather than `compactMap`: a closure over the values, in this generic code,
    /// costs an allocation per value (measured), and a file write reads them all.
    var values: [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for slot in slots {
            if let value = slot { values.append(value) }
        }
        return values
    }

    /// Where the value with `id` is in ``values``, once ``compact()`` has run (a file refers to values by place).
    func position(of id: Value.ID) -> Int? { positions[ExactID(id)] }

    subscript(id id: Value.ID) -> Value? {
        positions[ExactID(id)].map { slots[$0]! }
    }

    func contains(_ id: Value.ID) -> Bool { positions[ExactID(id)] != nil }

    // MARK: Writing, in the order of writes

    /// Stores `value`, replacing the one with its id; its stored-at time is forgotten (a repository sets it).
    mutating func put(_ value: Value) {
        store(value)
        log.record(value.id, isDeletion: false)
    }

    /// Removes the values with `ids`; each id, held or not, takes a position in the order of writes.
    mutating func remove(_ ids: some Sequence<Value.ID>) {
        for id in ids {
            evict(id)
            log.record(id, isDeletion: true)
        }
        compactIfSparse()
    }

    /// Removes every value and every list: one write that may have touched any id.
    mutating func removeEverything() {
        slots = []
        positions = [:]
        emptySlots = 0
        index = CacheIndex()
        pending.removeAll()
        log.recordEverything()
    }

    // MARK: Changing values without a write (a read's answer, kept)

    /// Stores `value` without taking a position: what a cache keeps of a read.
    mutating func store(_ value: Value) {
        if let position = positions[ExactID(value.id)] {
            slots[position] = value
        } else {
            positions[ExactID(value.id)] = slots.count
            slots.append(value)
        }
        index.forgetTime(of: value.id)
    }

    /// Removes the value with `id`, if held, without taking a position; with `leavingLists: false` (a pending
    /// delete) the lists go on naming it.
    mutating func evict(_ id: Value.ID, leavingLists: Bool = true) {
        guard let position = positions.removeValue(forKey: ExactID(id)) else { return }
        slots[position] = nil
        emptySlots += 1
        if leavingLists { index.forget(id) } else { index.forgetTime(of: id) }
    }

    /// Closes the gaps removals left, so that ``position(of:)`` is the place in ``values``. O(n), and called once
    /// half the slots are empty: O(1) amortised per removal.
    mutating func compact() {
        guard emptySlots > 0 else { return }
        slots.removeAll { $0 == nil }
        for (position, value) in slots.enumerated() { positions[ExactID(value!.id)] = position }
        emptySlots = 0
    }

    mutating func compactIfSparse() {
        if emptySlots > 32, emptySlots * 2 > slots.count { compact() }
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
            found = slots.lazy.compactMap { $0 }.first(where: query.isIncluded)
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
        if let query = query as? FilterQuery<Value> { return slots.compactMap { $0 }.filter(query.isIncluded) }
        if let query = query as? any AnyPageQuery {
            if let invalid = DataError.invalidPage(query, for: source) { throw invalid }
            if let page = query.page(of: slots.lazy.compactMap { $0 }) { return page }
        }
        throw .queryNotSupported(query, by: source)
    }

    /// The ids `delete` removes: one ``IdQuery``, present or not.
    func idsToDelete(_ query: any Query, source: String) throws(DataError) -> [Value.ID] {
        guard let query = query as? IdQuery<Value.ID> else { throw .queryNotSupported(query, by: source) }
        return [query.id]
    }

    /// The ids `deleteAll` removes: those of the values `query` selects.
    func idsToDeleteAll(_ query: any Query, source: String) throws(DataError) -> [Value.ID] {
        try getAll(query, source: source).map(\.id)
    }

    /// `delete(_:ifPresent:)`: removes the query's id; `notFound` first if it is absent and `ifPresent`.
    mutating func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, source: String) throws(DataError) {
        if ifPresent, !contains(query.id) { throw .notFound(query, in: source) }
        remove([query.id])
    }

    /// `put(_:ifAbsent:)`: stores `value`; `conflict` first if its id is held and `ifAbsent`.
    mutating func put(_ value: Value, ifAbsent: Bool, source: String) throws(DataError) {
        if ifAbsent, contains(value.id) { throw .conflict(value.id, in: source) }
        put(value)
    }

    /// `deleteAll`: removes what `query` selects; everything, lists included, for ``AllObjectsQuery``. Each id of
    /// an ``IdsQuery`` takes a position in the order of writes, held or not: a read sent before must not bring it
    /// back.
    mutating func deleteAll(_ query: any Query, source: String) throws(DataError) {
        if query is AllObjectsQuery { return removeEverything() }
        if let query = query as? IdsQuery<Value.ID> { return remove(query.ids) }
        if let query = query as? IdQuery<Value.ID> { return remove([query.id]) }
        remove(try idsToDeleteAll(query, source: source))
    }
}
