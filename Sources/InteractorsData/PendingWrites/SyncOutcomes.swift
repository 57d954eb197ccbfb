import Foundation
import Interactors

/// Records the outcomes of a sync's writes in the store, without holding up the next send: the outcomes that come
/// while one change is being applied are applied together by the next, one change each (the store's own
/// transaction, file write or lock once for all of them).
///
/// A change records consecutive outcomes of distinct ids: the values the main source stored (joining the list of
/// everything), the ids it deleted or that are evicted, and `settle` up to the position of the last of them. That
/// settles each id's pending write at or before its own: the writes are sent in the order of their positions, so a
/// pending write made since one of them was sent (the user wrote the id again) has a position after every write of
/// the group, or was sent by the sync too, in a later group.
final class SyncOutcomes<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private enum Entry {
        /// The write at `position` was taken or refused: the cache holds `stored`, or not the id (`deleted`).
        case outcome(id: Value.ID, position: CacheWritePosition, stored: Value?, deleted: Bool)
        /// A change of its own (a write that failed again).
        case change(CacheChange<Value>)
    }

    private struct State {
        var queue: [Entry] = []
        var isApplying = false
        var failure: DataError?
        /// Waits for every entry to be applied.
        var waiters: [Resolver<DataError?>] = []
    }

    private let store: any PendingWriteStore<Value>
    private let state = LockedBox(State())

    init(_ store: any PendingWriteStore<Value>) {
        self.store = store
    }

    /// Records that `write` leaves the pending writes, the cache holding `stored` (or, `deleted`, not the id).
    func record(_ write: PendingWrite<Value>, stored: Value?, deleted: Bool) {
        enqueue(.outcome(id: write.id, position: write.position, stored: stored, deleted: deleted))
    }

    /// Records `change`, in order with the outcomes.
    func record(_ change: CacheChange<Value>) {
        enqueue(.change(change))
    }

    /// Answers once everything recorded so far is applied: the first failure of the store, or nil.
    func recorded() -> Response<DataError?> {
        let (response, resolver) = Response<DataError?>.makePending()
        let failure = state.withLock { state -> DataError?? in
            guard state.isApplying || !state.queue.isEmpty else { return .some(state.failure) }
            state.waiters.append(resolver)
            return .none
        }
        if let failure { resolver.succeed(failure) }
        return response
    }

    private func enqueue(_ entry: Entry) {
        state.withLock { $0.queue.append(entry) }
        applyNext()
    }

    /// Applies the next change, unless one is being applied (its end applies the next).
    private func applyNext() {
        let change = state.withLock { state -> CacheChange<Value>? in
            guard !state.isApplying, !state.queue.isEmpty else { return nil }
            state.isApplying = true
            return Self.takeChange(&state.queue)
        }
        guard let change else { return }
        store.applyCacheChange(change).onResult(on: .immediate) { [self] result in
            let waiters = state.withLock { state -> [Resolver<DataError?>] in
                if case .failure(let error) = result, state.failure == nil { state.failure = Self.storeError(error) }
                state.isApplying = false
                guard state.queue.isEmpty else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            applyNext()
            let failure = state.withLock { $0.failure }
            for waiter in waiters { waiter.succeed(failure) }
        }
    }

    /// The change for the first entries of `queue`, taken out of it.
    private static func takeChange(_ queue: inout [Entry]) -> CacheChange<Value> {
        if case .change(let change) = queue[0] {
            queue.removeFirst()
            return change
        }
        var ids = Set<ExactID<Value.ID>>()
        var values: [Value] = []
        var removed: [Value.ID] = []
        var last: CacheWritePosition?
        var taken = 0
        for entry in queue {
            guard case .outcome(let id, let position, let stored, let deleted) = entry,
                ids.insert(ExactID(id)).inserted
            else { break }
            if let stored { values.append(stored) }
            if deleted { removed.append(id) }
            if last.map({ $0.sequence < position.sequence }) ?? true { last = position }
            taken += 1
        }
        queue.removeFirst(taken)
        return CacheChange(
            date: Date(),
            removal: removed.isEmpty ? .nothing : .ids(removed),
            values: values,
            extendedListKeys: values.isEmpty ? [] : [AllObjectsQuery().cacheKey],
            pendingWrites: .settle(upTo: last)
        )
    }

    /// A store's failure as the sync reports it: its ``DataError``, or `storageFailed`.
    static func storeError(_ error: any Error) -> DataError {
        (error as? DataError)
            ?? DataError(code: .storageFailed, message: "the cache failed during a sync: \(error)", underlying: error)
    }
}
