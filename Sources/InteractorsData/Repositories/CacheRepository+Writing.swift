import Foundation
public import Interactors

// MARK: Writing and deleting
//
// `.mainSync` and `.cacheSync` write to the main source first and to the cache only once the main source has
// succeeded, with what the main source answered (a server may add a revision or a timestamp). The cache's
// failure never fails a write the main source took: it is reported, and the write is never sent again. A batch
// the main source applied in part (`partiallyApplied`) reaches the cache for what it applied: the values it
// stored are kept, the ids it deleted evicted; the call then fails with the main source's error.
//
// With `pendingWrites: .keep`, the writes that can be kept go through CacheRepository+PendingWrites.swift instead.

extension CacheRepository {
    /// Stores `value` in the sources `operation` names; answers with what was stored.
    public func put(_ value: Value, operation: RepositoryOperation) -> Response<Value> {
        switch operation {
        case .main: return main.put(value)
        case .cache: return cache.put(value)
        case .mainSync, .cacheSync:
            if let pendingStore { return keepingPut(value, pendingStore) }
            return main.put(value).flatMap { [self] stored in keep([stored]).map { stored } }
        }
    }

    /// Stores `value` in the sources `operation` names; with `ifAbsent`, only if the first source written (the main
    /// source, or the cache for ``RepositoryOperation/cache``) holds no value with its id, as that source checks it
    /// (atomically, for the library's stores and ``RESTDataSource``): on a ``DataError/Code/conflict`` nothing is
    /// written, the cache included.
    public func put(_ value: Value, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Value> {
        switch operation {
        case .main: main.put(value, ifAbsent: ifAbsent)
        case .cache: cache.put(value, ifAbsent: ifAbsent)
        case .mainSync, .cacheSync:
            main.put(value, ifAbsent: ifAbsent).flatMap { [self] stored in keep([stored]).map { stored } }
        }
    }

    /// Stores `values` in the sources `operation` names; answers with what was stored. With `.mainSync` and
    /// `.cacheSync`, when the main source stored only some of them (``DataError/Code/partiallyApplied``), the
    /// cache keeps those it stored (all but ``DataError/failedIDs``) and the call fails with the main source's
    /// error.
    public func putAll(_ values: [Value], operation: RepositoryOperation) -> Response<[Value]> {
        switch operation {
        case .main: return main.putAll(values)
        case .cache: return cache.putAll(values)
        case .mainSync, .cacheSync:
            if let pendingStore { return keepingPutAll(values, pendingStore) }
            return main.putAll(values).then { [self] stored in
                switch stored {
                case .success(let stored):
                    return keep(stored).map { stored }
                case .failure(let error as DataError) where error.code == .partiallyApplied:
                    let failed = Set(error.failedIDs)
                    let applied =
                        error.appliedValues as? [Value] ?? values.filter { !failed.contains(AnyHashable($0.id)) }
                    return keep(applied).map { throw error }
                case .failure(let error):
                    return Response(error: error)
                }
            }
        }
    }

    /// Deletes the value `query` selects from the sources `operation` names. With `.mainSync` and `.cacheSync`, a
    /// main source that answers ``DataError/Code/notFound`` counts as a success: the value is gone either way.
    public func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        switch operation {
        case .main: return main.delete(query)
        case .cache: return cache.delete(query)
        case .mainSync, .cacheSync:
            if let pendingStore, let id = (query as? IdQuery<Value.ID>)?.id {
                return keepingDelete([id], of: query, pendingStore)
            }
            return deleteFromMain(main.delete(query), query)
        }
    }

    /// Deletes every value `query` selects from the sources `operation` names; as ``delete(_:operation:)``, a
    /// ``DataError/Code/notFound`` from the main source counts as a success.
    public func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        switch operation {
        case .main: return main.deleteAll(query)
        case .cache: return cache.deleteAll(query)
        case .mainSync, .cacheSync:
            if let pendingStore, let ids = (query as? IdsQuery<Value.ID>)?.ids {
                return keepingDelete(ids, of: query, pendingStore)
            }
            return deleteFromMain(main.deleteAll(query), query)
        }
    }

    /// Deletes the value with the query's id from the sources `operation` names; with `ifPresent`, fails with
    /// ``DataError/Code/notFound`` when the first source (the main source, or the cache for
    /// ``RepositoryOperation/cache``) had none. The cache is brought in line either way: a `notFound` from the main
    /// source evicts the id from it.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void> {
        switch operation {
        case .main: return main.delete(query, ifPresent: ifPresent)
        case .cache: return cache.delete(query, ifPresent: ifPresent)
        case .mainSync, .cacheSync:
            guard ifPresent else { return deleteFromMain(main.delete(query), query) }
            return main.delete(query, ifPresent: true).then { [self] result in
                switch result {
                case .failure(let error) where error.isDataError(.notFound): return evict(query).map { throw error }
                default: return deleteFromMain(Response(result: result), query)
                }
            }
        }
    }

    /// Stores what the main source stored; a value the main source now holds joins the cached list of all its
    /// values, if there is one.
    private func keep(_ stored: [Value]) -> Response<Void> {
        store(
            CacheChange(date: Date(), values: stored, extendedListKeys: [AllObjectsQuery().cacheKey]),
            CacheFailureReport(onCacheFailure)
        )
    }

    /// Once the main source deleted (or never had) what `query` selects, evicts it from the cache; when it
    /// deleted only some of an ``IdsQuery``'s ids (``DataError/Code/partiallyApplied``), evicts those and fails
    /// with its error.
    private func deleteFromMain(_ deletion: Response<Void>, _ query: any Query) -> Response<Void> {
        deletion.then { [self] result -> Response<Void> in
            switch result {
            case .success:
                return evict(query)
            case .failure(let error) where error.isDataError(.notFound):
                return evict(query)
            case .failure(let error as DataError) where error.code == .partiallyApplied:
                guard let ids = (query as? IdsQuery<Value.ID>)?.ids else { return Response(error: error) }
                let failed = Set(error.failedIDs)
                return evict(IdsQuery(ids.filter { !failed.contains(AnyHashable($0)) })).map { throw error }
            case .failure(let error):
                return Response(error: error)
            }
        }
    }

    /// Evicts what `query` selects from the cache: the main source deleted it, or never had it.
    private func evict(_ query: any Query) -> Response<Void> {
        let report = CacheFailureReport(onCacheFailure)
        if query is AllObjectsQuery { return store(CacheChange(date: Date(), removal: .all), report) }
        if let ids = (query as? IdsQuery<Value.ID>)?.ids ?? (query as? IdQuery<Value.ID>).map({ [$0.id] }) {
            return store(CacheChange(date: Date(), removal: .ids(ids)), report)
        }
        // Another query: the cache evicts what it selects. One the cache cannot answer empties it, the only way
        // not to show what the main source deleted.
        return cache.getAll(query).then { [self] selected in
            switch selected {
            case .success(let values):
                return store(CacheChange(date: Date(), removal: .ids(values.map(\.id))), report)
            case .failure(let error) where error.isDataError(.queryNotSupported):
                return store(CacheChange(date: Date(), removal: .all), report)
            case .failure(let error):
                report.report(error)
                return Response(value: ())
            }
        }
    }
}
