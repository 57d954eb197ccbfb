import Foundation

/// What a ``CacheRepository`` knows about the values of a local store: when it stored each, and its lists by key.
/// Kept inside ``ValueCollection``, so the in-memory and file stores keep it consistent with their values.
struct CacheIndex<ID: Hashable> {
    struct List {
        var storedAt: Date
        var ids: [ID]
    }

    var storedAt: [ID: Date] = [:]
    var lists: [String: List] = [:]

    var isEmpty: Bool { storedAt.isEmpty && lists.isEmpty }

    /// Forgets `removed`: their times, and their places in every list.
    mutating func forget(_ removed: Set<ID>) {
        guard !removed.isEmpty else { return }
        for id in removed { storedAt[id] = nil }
        for key in Array(lists.keys) {
            lists[key]?.ids.removeAll { removed.contains($0) }
        }
    }

    /// Steps 2 to 4 of `change` (see ``CacheChange``), for the index: its values' times, the list it sets, the
    /// lists it extends. The removal is the store's, and the values are stored already.
    mutating func record<Value: Identifiable>(_ change: CacheChange<Value>) where Value.ID == ID {
        for value in change.values { storedAt[value.id] = change.date }
        if let key = change.listKey {
            lists[key] = List(storedAt: change.date, ids: change.values.map(\.id))
        }
        for key in change.extendedListKeys {
            guard var list = lists[key] else { continue }
            var present = Set(list.ids)
            for value in change.values where present.insert(value.id).inserted { list.ids.append(value.id) }
            lists[key] = list
        }
    }
}

// MARK: - Serving a cache repository

extension ValueCollection where Value: Sendable, Value.ID: Sendable {
    func cachedEntries(_ ids: [Value.ID]) -> [CacheEntry<Value>] {
        ids.compactMap { id in self[id: id].map { CacheEntry(value: $0, storedAt: index.storedAt[id]) } }
    }

    func cachedList(forKey key: String) -> CachedList<Value>? {
        index.lists[key].map { list in
            CachedList(storedAt: list.storedAt, ids: list.ids, entries: cachedEntries(list.ids))
        }
    }

    /// Applies `change` in the steps ``CacheChange`` lists. Throws nothing: a batch may apply it in place.
    mutating func apply(_ change: CacheChange<Value>) {
        switch change.removal {
        case .nothing:
            break
        case .ids(let ids):
            remove(ids)
        case .allOthers:
            let kept = Set(change.values.map(\.id))
            remove(values.map(\.id).filter { !kept.contains($0) })
        case .all:
            remove(values.map(\.id))
            index = CacheIndex()
        }
        for value in change.values { put(value) }
        index.record(change)
    }
}
