import Foundation
public import Interactors

// MARK: Writes the main source cannot take, kept
//
// With `pendingWrites: .keep`, a write reads the cache's position in its order of writes before it goes to the main
// source: a pending write of the same id made after that moment (by a call that overtook this one) wins over this
// one's outcome. What the main source took is stored as today and settles the older pending writes of its ids; what
// it could not take (an error `fallback` accepts) is applied to the cache and kept pending, in one change, and the
// call succeeds once that change is durable. If the cache cannot keep it, the call fails with the main source's
// error (the write happened nowhere) and the cache's failure goes to `onCacheFailure`.

extension CacheRepository {
    /// The pending writes, in the order they were made (the order ``sync()`` sends them in); always empty with
    /// ``PendingWrites/fail``. Fails with the store's ``DataError`` if the cache cannot be read.
    public func pendingWrites() -> Response<[PendingWrite<Value>]> {
        guard let pendingStore else { return Response(value: []) }
        let key = pendingStore.pendingWritesSyncKey
        return pendingStore.pendingWrites(after: nil, limit: nil).map { writes in
            writes.map { PendingErrorMemory.shared.underlying(of: $0, in: key) }
        }
    }

    /// The cache as a store of pending writes, for `pendingWrites`; stops the process if it cannot keep them.
    static func pendingStore(
        for pendingWrites: PendingWrites,
        cache: some GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>
    ) -> (any PendingWriteStore<Value>)? {
        guard pendingWrites == .keep else { return nil }
        guard let store = cache as? any PendingWriteStore<Value> else {
            preconditionFailure(
                "CacheRepository<\(Value.self)>: pendingWrites: .keep needs a cache that keeps pending writes with its "
                    + "values (InMemoryDataSource, FileDataSource, SQLiteDataSource, or a CacheIndexStore that adopts "
                    + "PendingWriteStore); \(type(of: cache)) does not"
            )
        }
        return store
    }

    // MARK: Writing

    func keepingPut(_ value: Value, _ store: any PendingWriteStore<Value>) -> Response<Value> {
        stampWrite().flatMap { [self] stamp in
            main.put(value).then { [self] result in
                switch result {
                case .success(let stored):
                    return settle(stored: [stored], upTo: stamp).map { stored }
                case .failure(let error) where canKeep(error):
                    return keepPending(values: [value], deleting: [], stamp, error, store).map { value }
                case .failure(let error):
                    return Response(error: error)
                }
            }
        }
    }

    func keepingPutAll(_ values: [Value], _ store: any PendingWriteStore<Value>) -> Response<[Value]> {
        stampWrite().flatMap { [self] stamp in
            main.putAll(values).then { [self] result in
                switch result {
                case .success(let stored):
                    return settle(stored: stored, upTo: stamp).map { stored }
                case .failure(let error as DataError) where error.code == .partiallyApplied:
                    let outcome = PartialOutcome(error, ids: values.map(\.id), canKeep: canKeep)
                    let applied = error.appliedValues as? [Value] ?? values.filter { outcome.isApplied($0.id) }
                    let kept = values.filter { outcome.isKept($0.id) }
                    return settle(stored: applied, upTo: stamp).flatMap { [self] in
                        keepPending(values: kept, deleting: [], stamp, error, store)
                    }.map {
                        if let refusal = outcome.refusal("putAll", of: error) { throw refusal }
                        // In the call's order: what the main source stored, and the values kept as they were put.
                        var answered: [ExactID<Value.ID>: Value] = [:]
                        for value in kept + applied { answered[ExactID(value.id)] = value }
                        return values.compactMap { answered[ExactID($0.id)] }
                    }
                case .failure(let error) where canKeep(error):
                    return keepPending(values: values, deleting: [], stamp, error, store).map { values }
                case .failure(let error):
                    return Response(error: error)
                }
            }
        }
    }

    /// A `delete` of one id or a `deleteAll` of an ``IdsQuery``, `query`.
    func keepingDelete(_ ids: [Value.ID], of query: any Query, _ store: any PendingWriteStore<Value>) -> Response<Void>
    {
        stampWrite().flatMap { [self] stamp in
            let deletion = query is IdQuery<Value.ID> ? main.delete(query) : main.deleteAll(query)
            return deletion.then { [self] result in
                switch result {
                case .success:
                    return settle(deleted: ids, upTo: stamp)
                case .failure(let error) where error.isDataError(.notFound):
                    return settle(deleted: ids, upTo: stamp)  // gone either way
                case .failure(let error as DataError) where error.code == .partiallyApplied:
                    let outcome = PartialOutcome(error, ids: ids, canKeep: canKeep)
                    return settle(deleted: ids.filter(outcome.isApplied), upTo: stamp).flatMap { [self] in
                        keepPending(values: [], deleting: ids.filter(outcome.isKept), stamp, error, store)
                    }.map {
                        if let refusal = outcome.refusal("deleteAll", of: error) { throw refusal }
                    }
                case .failure(let error) where canKeep(error):
                    return keepPending(values: [], deleting: ids, stamp, error, store)
                case .failure(let error):
                    return Response(error: error)
                }
            }
        }
    }

    // MARK: Steps

    /// Whether a write that failed with `error` is kept: what `fallback` accepts, a cancellation never.
    private func canKeep(_ error: any Error) -> Bool {
        !HTTPClient.isCancellation(error) && fallback(error)
    }

    /// Where the cache is in its order of writes, read before a write goes to the main source; nil if it cannot
    /// say (reported): the write's outcome then wins over every pending write of its ids.
    private func stampWrite() -> Response<CacheWritePosition?> {
        cache.writePosition().then { [onCacheFailure] result in
            switch result {
            case .success(let position): return Response(value: position)
            case .failure(let error):
                if HTTPClient.isCancellation(error) { return Response(error: error) }
                CacheFailureReport(onCacheFailure).report(error)
                return Response(value: nil)
            }
        }
    }

    /// Stores what the main source stored, settling the pending writes of its ids made before `stamp`.
    private func settle(stored: [Value], upTo stamp: CacheWritePosition?) -> Response<Void> {
        guard !stored.isEmpty else { return Response(value: ()) }
        return store(
            CacheChange(
                date: Date(),
                values: stored,
                extendedListKeys: [AllObjectsQuery().cacheKey],
                pendingWrites: .settle(upTo: stamp)
            ),
            CacheFailureReport(onCacheFailure)
        )
    }

    /// Evicts what the main source deleted, settling the pending writes of its ids made before `stamp`.
    private func settle(deleted ids: [Value.ID], upTo stamp: CacheWritePosition?) -> Response<Void> {
        guard !ids.isEmpty else { return Response(value: ()) }
        return store(
            CacheChange(date: Date(), removal: .ids(ids), pendingWrites: .settle(upTo: stamp)),
            CacheFailureReport(onCacheFailure)
        )
    }

    /// Applies `values` and the deletion of `deleting` to the cache as pending writes that failed with `error`; the
    /// response succeeds once they are durable, and fails with `error` if the cache could not keep them.
    private func keepPending(
        values: [Value],
        deleting: [Value.ID],
        _ stamp: CacheWritePosition?,
        _ error: any Error,
        _ store: any PendingWriteStore<Value>
    ) -> Response<Void> {
        guard !values.isEmpty || !deleting.isEmpty else { return Response(value: ()) }
        let lastError = Self.pendingError(error)
        let change = CacheChange(
            date: Date(),
            removal: deleting.isEmpty ? .nothing : .ids(deleting),
            values: values,
            extendedListKeys: values.isEmpty ? [] : [AllObjectsQuery().cacheKey],
            pendingWrites: .keep(lastError: lastError, unlessWrittenAfter: stamp)
        )
        let key = store.pendingWritesSyncKey
        return store.applyCacheChange(change).then { [onCacheFailure] kept in
            switch kept {
            case .success:
                for id in values.map(\.id) + deleting { PendingErrorMemory.shared.remember(lastError, of: id, in: key) }
                return Response(value: ())
            case .failure(let cacheError):
                if !HTTPClient.isCancellation(cacheError) { CacheFailureReport(onCacheFailure).report(cacheError) }
                return Response(error: error)  // kept nowhere: the write failed, as without `.keep`
            }
        }
    }

    /// `error` as a pending write keeps it, or as a sync reports a refusal: a ``DataError`` as it is, any other error
    /// as ``DataError/Code/unavailable`` (`fallback` accepts it) or ``DataError/Code/rejected``, with its
    /// description as the message.
    static func pendingError(_ error: any Error, unavailable: Bool = true) -> DataError {
        if let error = error as? DataError { return error }
        return DataError(
            code: unavailable ? .unavailable : .rejected,
            message: unavailable
                ? "the main source could not take the write for now: \(describing(error))"
                : "the main source refused the write: \(describing(error))",
            underlying: error
        )
    }

    /// A readable text for `error`, kept across restarts: a `URLError` as its code's number and its URL (Linux
    /// prints `(null)` for its own description).
    static func describing(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        let url = error.failingURL.map { " (\(RedactedURL($0)))" } ?? ""
        return "URLError \(error.errorCode)\(url)"
    }
}

// MARK: - A batch the main source applied in part

/// What a `putAll` or `deleteAll` that failed with ``DataError/Code/partiallyApplied`` did to each id: applied, or
/// failed for now (kept pending), or refused.
private struct PartialOutcome<ID: Hashable & Sendable>: @unchecked Sendable {
    // @unchecked Sendable: it holds the failed ids as `AnyHashable` (Sendable ids, as every `Value.ID` is) and
    // their errors, and is never changed once made.
    private var kept = Set<AnyHashable>()
    private var refused: [(id: AnyHashable, error: any Error)] = []
    private let failed: Set<AnyHashable>

    init(_ error: DataError, ids: [ID], canKeep: (any Error) -> Bool) {
        failed = Set(error.failedIDs)
        let errors = error.failureErrors
        for (place, id) in error.failedIDs.enumerated() {
            // A source that did not say why each failed: its first failure stands for all.
            let cause = errors.indices.contains(place) ? errors[place] : (error.underlying ?? error)
            if canKeep(cause) { kept.insert(id) } else { refused.append((id, cause)) }
        }
    }

    func isApplied(_ id: ID) -> Bool { !failed.contains(AnyHashable(id)) }
    func isKept(_ id: ID) -> Bool { kept.contains(AnyHashable(id)) }

    /// The call's failure when the main source refused some: ``DataError/Code/partiallyApplied`` naming them only;
    /// nil when every failure was kept.
    func refusal(_ operation: String, of error: DataError) -> DataError? {
        guard let first = refused.first else { return nil }
        return DataError(
            code: .partiallyApplied,
            message: "\(operation): the main source refused \(refused.map { "\($0.id.base)" }.joined(separator: ", "))"
                + (kept.isEmpty ? "" : "; \(kept.count) kept pending") + " (\(error.message))",
            underlying: first.error,
            failedIDs: refused.map(\.id)
        )
    }
}

// MARK: - The errors under the pending writes' errors

/// The source's errors under the pending writes' ``PendingWrite/lastError``s, while this process lives: a store
/// keeps an error's code and message, and the repository gives it back its underlying error when it answers it.
/// Bounded: the oldest go first once it holds 4,096.
final class PendingErrorMemory: Sendable {
    static let shared = PendingErrorMemory()

    private struct Key: Hashable, @unchecked Sendable {  // the ids are Sendable; AnyHashable is not marked so
        let store: PendingWritesSyncKey
        let id: AnyHashable
    }

    private struct State {
        var errors: [Key: DataError] = [:]
        var order = FIFO<Key>()
    }

    private let state = LockedBox(State())
    private static let capacity = 4_096

    func remember(_ error: DataError, of id: some Hashable & Sendable, in store: PendingWritesSyncKey) {
        guard error.underlying != nil else { return }
        let key = Key(store: store, id: AnyHashable(ExactID(id)))
        state.withLock { state in
            if state.errors.updateValue(error, forKey: key) == nil { state.order.append(key) }
            while state.errors.count > Self.capacity, let oldest = state.order.popFirst() {
                state.errors[oldest] = nil
            }
        }
    }

    /// `write`, its error with the underlying error this process met, if it is the one remembered.
    func underlying<Value>(of write: PendingWrite<Value>, in store: PendingWritesSyncKey) -> PendingWrite<Value> {
        guard let kept = write.lastError, kept.underlying == nil else { return write }
        let key = Key(store: store, id: AnyHashable(ExactID(write.id)))
        guard let remembered = state.withLock({ $0.errors[key] }), remembered.code == kept.code,
            remembered.message == kept.message
        else { return write }
        return write.with(lastError: remembered)
    }
}
