import Foundation
import Interactors

/// A plain data source used as a ``CacheRepository``'s cache: the repository's lists and times are kept here, in
/// memory, and the values in the source.
///
/// One per cache instance (``shared(over:)``): every repository over the same source object shares its lists,
/// times and order of writes, so a refresh through one never undoes a write through another. Its writes (puts,
/// deletes, and a change, which is several calls to the source) go through one ``WriteLane``, one at a time: a
/// refresh's answer and the writes made meanwhile are applied atomically with respect to each other. Writes made to
/// the source directly are not in its order.
final class UnindexedCache<Value: Identifiable & Sendable>: CacheIndexStore where Value.ID: Sendable {
    struct State {
        var index = CacheIndex<Value.ID>()
        var log = WriteLog<Value.ID>()
    }

    private let base: any DataSourceParts<Value>
    private let state = LockedBox(State())
    private let lane = WriteLane()

    private init(_ base: some DataSourceParts<Value>) {
        self.base = base
    }

    /// The one cache over `base` while a repository uses it, if `base` is an object (a class instance); a new one
    /// for a value (a struct has no identity to share by).
    static func shared(over base: some DataSourceParts<Value>) -> UnindexedCache<Value> {
        guard type(of: base) is AnyObject.Type else { return UnindexedCache(base) }
        let key = ObjectIdentifier(base as AnyObject)
        return unindexedCaches.withLock { caches in
            if let cache = caches[key]?.cache as? UnindexedCache<Value> { return cache }
            caches = caches.filter { $0.value.cache != nil }  // those whose repositories are gone
            let cache = UnindexedCache(base)
            caches[key] = WeakCache(cache: cache)
            return cache
        }
    }

    // MARK: The source as it is

    func get(_ query: any Query) -> Response<Value> { base.get(query) }
    func getAll(_ query: any Query) -> Response<[Value]> { base.getAll(query) }

    func put(_ value: Value) -> Response<Value> {
        put(value, ifAbsent: false)
    }

    func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        lane.enqueue { [base, state] in
            base.put(value, ifAbsent: ifAbsent).map { stored in
                state.withLock { state in state.written([stored.id], deleted: false) }
                return stored
            }
        }
    }

    func putAll(_ values: [Value]) -> Response<[Value]> {
        lane.enqueue { [base, state] in
            base.putAll(values).map { stored in
                state.withLock { state in state.written(stored.map(\.id), deleted: false) }
                return stored
            }
        }
    }

    func delete(_ query: any Query) -> Response<Void> {
        lane.enqueue { [base, state] in
            base.delete(query).map {
                if let id = (query as? IdQuery<Value.ID>)?.id { state.withLock { $0.written([id], deleted: true) } }
            }
        }
    }

    func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        lane.enqueue { [base, state] in
            base.delete(query, ifPresent: ifPresent).map { state.withLock { $0.written([query.id], deleted: true) } }
        }
    }

    func deleteAll(_ query: any Query) -> Response<Void> {
        lane.enqueue { [base, state] in
            base.deleteAll(query).map {
                if query is AllObjectsQuery { state.withLock { $0.forgetEverything() } }
                if let ids = (query as? IdsQuery<Value.ID>)?.ids { state.withLock { $0.written(ids, deleted: true) } }
            }
        }
    }

    // MARK: The index

    func writePosition() -> Response<CacheWritePosition?> {
        Response(value: state.withLock { $0.log.current })
    }

    func cachedEntries(_ ids: [Value.ID]) -> Response<[CacheEntry<Value>]> {
        let found: Response<[Value]>
        if ids.count == 1, let id = ids.first {
            found = base.get(IdQuery(id)).map { [$0] }.recover { error in
                guard error.isDataError(.notFound) else { throw error }
                return []
            }
        } else {
            found = base.getAll(IdsQuery(ids))
        }
        return found.map { [state] values in
            let index = state.withLock { $0.index }
            return values.map { CacheEntry(value: $0, storedAt: index.time(of: $0.id)) }
        }
    }

    func cachedList(forKey key: String) -> Response<CachedList<Value>?> {
        guard let (storedAt, ids) = state.withLock({ $0.index.list(forKey: key).map { ($0.storedAt, $0.ids) } }) else {
            return Response(value: nil)
        }
        return cachedEntries(ids).map { CachedList(storedAt: storedAt, ids: ids, entries: $0) }
    }

    /// Applies `change` in several calls to the source, in the lane: no other write through this cache comes
    /// between them.
    func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void> {
        lane.enqueue { [self] in apply(change) }
    }

    private func apply(_ change: CacheChange<Value>) -> Response<Void> {
        removal(for: change).flatMap { [base, state] removed -> Response<Void> in
            let plan = state.withLock { $0.plan(change, removing: removed) }
            guard let plan else { return Response(value: ()) }  // a read older than the writes kept in mind
            // One call where one value or id is concerned, so the source sees what a repository call means.
            let deletion: Response<Void>
            switch (change.removal, plan.removed.count) {
            case (.all, _) where change.readPosition == nil: deletion = base.deleteAll(AllObjectsQuery())
            case (_, 0): deletion = Response(value: ())
            case (_, 1): deletion = base.delete(IdQuery(plan.removed[0]))
            default: deletion = base.deleteAll(IdsQuery(plan.removed))
            }
            return deletion.flatMap {
                switch plan.stored.count {
                case 0: Response(value: ())
                case 1: base.put(plan.stored[0]).map { _ in }
                default: base.putAll(plan.stored).map { _ in }
                }
            }.map {
                state.withLock { $0.record(change, plan) }
            }
        }
    }

    /// The ids `change` removes, read from the source for ``CacheChange/Removal-swift.enum/allOthers``.
    private func removal(for change: CacheChange<Value>) -> Response<[Value.ID]> {
        switch change.removal {
        case .nothing: return Response(value: [])
        case .ids(let ids): return Response(value: ids)
        case .all, .allOthers:
            if case .all = change.removal, change.readPosition == nil { return Response(value: []) }
            var keeping = Set<ExactID<Value.ID>>()
            if case .allOthers = change.removal { for value in change.values { keeping.insert(ExactID(value.id)) } }
            let kept = keeping
            return base.getAll(AllObjectsQuery()).map { $0.map(\.id).filter { !kept.contains(ExactID($0)) } }
        }
    }
}

// MARK: - What a change does

extension UnindexedCache.State {
    /// What a change does to the source: the ids it removes and the values it stores, those written after a read's
    /// position left out; and the ids of the list it sets.
    struct Plan {
        var removed: [Value.ID]
        var stored: [Value]
        var listIDs: [Value.ID]
    }

    /// The plan of `change`, whose removal (read from the source) is `removed`; nil if it is a read this cache
    /// can no longer tell about.
    func plan(_ change: CacheChange<Value>, removing removed: [Value.ID]) -> Plan? {
        guard let readPosition = change.readPosition else {
            return Plan(removed: removed, stored: change.values, listIDs: change.values.map(\.id))
        }
        guard log.remembers(readPosition) else { return nil }
        let sequence = readPosition.sequence
        let isUntouched = { (id: Value.ID) in !log.wasWritten(id, after: sequence) }
        // The ids put since the read was sent are held: they stay in the lists that name them.
        let putSince = log.idsPut(after: sequence)
        let held = Set(putSince.map(ExactID.init))
        var listIDs = change.values.map(\.id).filter { isUntouched($0) || held.contains(ExactID($0)) }
        if case .allOthers = change.removal {
            var listed = Set(listIDs.map(ExactID.init))
            for id in putSince where listed.insert(ExactID(id)).inserted { listIDs.append(id) }
        }
        return Plan(
            removed: removed.filter(isUntouched),
            stored: change.values.filter { isUntouched($0.id) },
            listIDs: listIDs
        )
    }

    /// Records what `change` did once the source did it: its writes in the order, its times and lists.
    mutating func record(_ change: CacheChange<Value>, _ plan: Plan) {
        if change.readPosition == nil {
            if case .all = change.removal { forgetEverything() }
            written(plan.removed, deleted: true)
            written(plan.stored.map(\.id), deleted: false)
        } else {
            for id in plan.removed { index.forget(id) }
            if case .all = change.removal { index.lists = [:] }
        }
        for value in plan.stored { index.setTime(change.date, of: value.id) }
        if let key = change.listKey {
            index.lists[ListKey(key)] = CacheIndex.List(storedAt: change.date, ids: plan.listIDs)
        }
        for key in change.extendedListKeys {
            for value in plan.stored { index.append(value.id, toListWithKey: key) }
        }
    }

    /// `ids` were put (their times forgotten: not stored by a repository) or deleted (gone from every list).
    mutating func written(_ ids: [Value.ID], deleted: Bool) {
        for id in ids {
            if deleted { index.forget(id) } else { index.forgetTime(of: id) }
            log.record(id, isDeletion: deleted)
        }
    }

    mutating func forgetEverything() {
        index = CacheIndex()
        log.recordEverything()
    }
}

// MARK: - One per cache instance

/// An ``UnindexedCache`` held weakly: the repositories over a cache hold it, and it holds the cache.
private struct WeakCache {
    weak var cache: AnyObject?
}

/// The ``UnindexedCache`` of each cache object in use, by the object's identity. The identity stays the cache's
/// while its entry is alive (the ``UnindexedCache`` holds the cache); an entry whose cache is gone is dropped.
private let unindexedCaches = LockedBox<[ObjectIdentifier: WeakCache]>([:])
