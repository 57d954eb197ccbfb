import Foundation
import Interactors

/// A plain data source used as a ``CacheRepository``'s cache: the repository's lists and times are kept here, in
/// memory, and the values in the source. A change is several calls to the source, not one transaction; a cache
/// that needs more adopts ``CacheIndexStore``.
final class UnindexedCache<Value: Identifiable & Sendable>: CacheIndexStore where Value.ID: Sendable {
    private let base: any DataSourceParts<Value>
    private let index = LockedBox(CacheIndex<Value.ID>())

    init(_ base: some DataSourceParts<Value>) {
        self.base = base
    }

    // MARK: The source as it is

    func get(_ query: any Query) -> Response<Value> { base.get(query) }
    func getAll(_ query: any Query) -> Response<[Value]> { base.getAll(query) }

    func put(_ value: Value) -> Response<Value> {
        base.put(value).map { [index] stored in
            index.withLock { $0.storedAt[stored.id] = nil }
            return stored
        }
    }

    func putAll(_ values: [Value]) -> Response<[Value]> {
        base.putAll(values).map { [index] stored in
            index.withLock { index in for value in stored { index.storedAt[value.id] = nil } }
            return stored
        }
    }

    func delete(_ query: any Query) -> Response<Void> {
        base.delete(query).map { [index] in
            if let id = (query as? IdQuery<Value.ID>)?.id { index.withLock { $0.forget([id]) } }
        }
    }

    func deleteAll(_ query: any Query) -> Response<Void> {
        base.deleteAll(query).map { [index] in
            if query is AllObjectsQuery { index.withLock { $0 = CacheIndex() } }
            if let ids = (query as? IdsQuery<Value.ID>)?.ids { index.withLock { $0.forget(Set(ids)) } }
        }
    }

    // MARK: The index

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
        return found.map { [index] values in
            let times = index.withLock { $0.storedAt }
            return values.map { CacheEntry(value: $0, storedAt: times[$0.id]) }
        }
    }

    func cachedList(forKey key: String) -> Response<CachedList<Value>?> {
        guard let (storedAt, ids) = index.withLock({ $0.lists[key].map { ($0.storedAt, $0.ids) } }) else {
            return Response(value: nil)
        }
        return cachedEntries(ids).map { CachedList(storedAt: storedAt, ids: ids, entries: $0) }
    }

    func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void> {
        removal(for: change).flatMap { [base, index] removed -> Response<Void> in
            // One call where one value or id is concerned, so the source sees what a repository call means.
            let deletion: Response<Void>
            switch (change.removal, removed.count) {
            case (.all, _): deletion = base.deleteAll(AllObjectsQuery())
            case (_, 0): deletion = Response(value: ())
            case (_, 1): deletion = base.delete(IdQuery(removed[0]))
            default: deletion = base.deleteAll(IdsQuery(removed))
            }
            return deletion.flatMap {
                switch change.values.count {
                case 0: Response(value: ())
                case 1: base.put(change.values[0]).map { _ in }
                default: base.putAll(change.values).map { _ in }
                }
            }.map {
                index.withLock { index in
                    if case .all = change.removal { index = CacheIndex() }
                    index.forget(Set(removed))
                    index.record(change)
                }
            }
        }
    }

    /// The ids `change` removes, read from the source for ``CacheChange/Removal-swift.enum/allOthers``.
    private func removal(for change: CacheChange<Value>) -> Response<[Value.ID]> {
        switch change.removal {
        case .nothing, .all: return Response(value: [])
        case .ids(let ids): return Response(value: ids)
        case .allOthers:
            let kept = Set(change.values.map(\.id))
            return base.getAll(AllObjectsQuery()).map { $0.map(\.id).filter { !kept.contains($0) } }
        }
    }
}
