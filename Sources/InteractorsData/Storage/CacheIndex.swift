import Foundation

/// What a ``CacheRepository`` knows about the values of a local store: when it stored each, and its lists by key.
/// Kept inside ``ValueCollection``, so the in-memory and file stores keep it consistent with their values.
///
/// Every update costs O(1) per list (amortised): a list knows where each of its ids is, so a value removed leaves
/// it, and a value put joins it, without walking it.
struct CacheIndex<ID: Hashable> {
    /// A list: ids in the main source's order (repeats kept, as the main source answered them).
    struct List {
        var storedAt: Date
        private var slots: [ID?] = []
        /// The place of each id's first occurrence.
        private var places: [ExactID<ID>: Int] = [:]
        private var emptySlots = 0
        /// Whether an id occurs twice (an ``IdsQuery`` that names it twice): removing it then looks further.
        private var hasRepeats = false

        init(storedAt: Date, ids: some Sequence<ID>) {
            self.storedAt = storedAt
            for id in ids { add(id) }
        }

        /// A loop, not `compactMap`: see ``ValueCollection/values``.
        var ids: [ID] {
            var ids: [ID] = []
            ids.reserveCapacity(slots.count - emptySlots)
            for slot in slots {
                if let id = slot { ids.append(id) }
            }
            return ids
        }

        func contains(_ id: ID) -> Bool { places[ExactID(id)] != nil }

        /// Appends `id` unless the list holds it.
        mutating func append(_ id: ID) {
            if !contains(id) { add(id) }
        }

        mutating func remove(_ id: ID) {
            let key = ExactID(id)
            guard let place = places.removeValue(forKey: key) else { return }
            slots[place] = nil
            emptySlots += 1
            if hasRepeats {
                for later in (place + 1)..<slots.count where slots[later].map({ ExactID($0) == key }) == true {
                    slots[later] = nil
                    emptySlots += 1
                }
            }
            if emptySlots > 32, emptySlots * 2 > slots.count { compact() }
        }

        private mutating func add(_ id: ID) {
            let key = ExactID(id)
            if places[key] == nil { places[key] = slots.count } else { hasRepeats = true }
            slots.append(id)
        }

        private mutating func compact() {
            slots.removeAll { $0 == nil }
            places = [:]
            for (place, id) in slots.enumerated() where places[ExactID(id!)] == nil { places[ExactID(id!)] = place }
            emptySlots = 0
        }
    }

    private(set) var storedAt: [ExactID<ID>: Date] = [:]
    var lists: [ListKey: List] = [:]

    var isEmpty: Bool { storedAt.isEmpty && lists.isEmpty }

    func time(of id: ID) -> Date? { storedAt[ExactID(id)] }

    mutating func setTime(_ date: Date?, of id: ID) {
        storedAt[ExactID(id)] = date
    }

    /// Forgets when `id` was stored (a plain put: not stored by a repository).
    mutating func forgetTime(of id: ID) {
        if !storedAt.isEmpty { storedAt[ExactID(id)] = nil }
    }

    /// Forgets `id`: its time, and its places in every list.
    mutating func forget(_ id: ID) {
        forgetTime(of: id)
        // The keys first: iterating the dictionary while changing it would keep its lists shared, and copy them.
        let holding = lists.keys.filter { lists[$0]?.contains(id) == true }
        for key in holding { changeList(key) { $0.remove(id) } }
    }

    func list(forKey key: String) -> List? { lists[ListKey(key)] }

    /// Appends `id` to the list under `key`, if there is one and it lacks it.
    mutating func append(_ id: ID, toListWithKey key: String) {
        changeList(ListKey(key)) { $0.append(id) }
    }

    /// Changes the list under `key` in place. Taken out of the dictionary first: a list changed through the
    /// dictionary's subscript is not known to be uniquely referenced, and would be copied whole, every time.
    private mutating func changeList(_ key: ListKey, _ change: (inout List) -> Void) {
        guard var list = lists.removeValue(forKey: key) else { return }
        change(&list)
        lists[key] = list
    }
}

// MARK: - Serving a cache repository

extension ValueCollection where Value: Sendable, Value.ID: Sendable {
    func cachedEntries(_ ids: [Value.ID]) -> [CacheEntry<Value>] {
        ids.compactMap { id in self[id: id].map { CacheEntry(value: $0, storedAt: index.time(of: id)) } }
    }

    func cachedList(forKey key: String) -> CachedList<Value>? {
        index.list(forKey: key).map { list in
            let ids = list.ids
            return CachedList(storedAt: list.storedAt, ids: ids, entries: cachedEntries(ids))
        }
    }

    /// Applies `change` in the steps ``CacheChange`` lists. Throws nothing: a batch may apply it in place.
    ///
    /// A change without a ``CacheChange/readPosition`` is a write: each value stored and each id removed takes a
    /// position in the order of writes. A change with one is a read's answer: it takes no position, and leaves
    /// every id written after that position as the writes left it (see ``CacheIndexStore``); if the log no longer
    /// remembers that position, it changes nothing.
    mutating func apply(_ change: CacheChange<Value>) {
        guard let change = applyPendingStep(change) else { return }  // ValueCollection+PendingWrites.swift
        guard let readPosition = change.readPosition else { return applyWrite(change) }
        guard log.remembers(readPosition) else { return }
        let sequence = readPosition.sequence
        let (log, pending) = (log, pending)
        // An id with a pending write is left as that write left it, as one written since the read was sent is.
        let isUntouched = { (id: Value.ID) in !log.wasWritten(id, after: sequence) && !pending.holds(id) }
        switch change.removal {
        case .nothing:
            break
        case .ids(let ids):
            for id in ids where isUntouched(id) { evict(id) }
        case .allOthers:
            var kept = Set<ExactID<Value.ID>>()
            for value in change.values { kept.insert(ExactID(value.id)) }
            for value in values where !kept.contains(ExactID(value.id)) && isUntouched(value.id) { evict(value.id) }
        case .all:
            for value in values where isUntouched(value.id) { evict(value.id) }
            index.lists = [:]
        }
        compactIfSparse()
        var stored: [Value.ID] = []
        for value in change.values where isUntouched(value.id) {
            store(value)
            index.setTime(change.date, of: value.id)
            stored.append(value.id)
        }
        if let key = change.listKey {
            // The answer's ids the store holds now: those deleted since the read was sent stay out, those put since
            // stay in, with the value they were put with.
            // An id with a pending delete stays named (the repository leaves it out of its answers).
            var ids = change.values.map(\.id).filter { contains($0) || pending.isDeletion($0) }
            if case .allOthers = change.removal {
                // The list of everything: the values put since the read was sent belong in it, and those with a
                // pending put.
                var listed = Set(ids.map(ExactID.init))
                for id in log.idsPut(after: sequence) + pending.idsPut()
                where contains(id) && listed.insert(ExactID(id)).inserted {
                    ids.append(id)
                }
            }
            index.lists[ListKey(key)] = CacheIndex.List(storedAt: change.date, ids: ids)
        }
        extend(change.extendedListKeys, with: stored)
    }

    /// A change that is a write: as before, each value and removed id taking a position.
    private mutating func applyWrite(_ change: CacheChange<Value>) {
        switch change.removal {
        case .nothing:
            break
        case .ids(let ids):
            remove(ids)
        case .allOthers:
            var kept = Set<ExactID<Value.ID>>()
            for value in change.values { kept.insert(ExactID(value.id)) }
            remove(values.map(\.id).filter { !kept.contains(ExactID($0)) })
        case .all:
            removeEverything()
        }
        for value in change.values {
            put(value)
            index.setTime(change.date, of: value.id)
        }
        if let key = change.listKey {
            index.lists[ListKey(key)] = CacheIndex.List(storedAt: change.date, ids: change.values.map(\.id))
        }
        extend(change.extendedListKeys, with: change.values.map(\.id))
    }

    /// Appends `ids` to each list of `keys` that exists and lacks them.
    mutating func extend(_ keys: [String], with ids: [Value.ID]) {
        for key in keys {
            for id in ids { index.append(id, toListWithKey: key) }
        }
    }
}
