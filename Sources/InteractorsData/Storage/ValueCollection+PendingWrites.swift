import Foundation

// MARK: Pending writes, in the in-memory and file stores
//
// A change's pending-writes step (`PendingWritesStep`) is applied first, in the same transaction as the rest of the
// change: the in-memory store's lock, the file store's batch and its one file write.

extension ValueCollection where Value: Sendable, Value.ID: Sendable {
    /// Applies `change`'s pending-writes step; answers what is left of the change for its other steps (the ids a
    /// later pending write owns taken out), or nil when the step did all there was to do.
    mutating func applyPendingStep(_ change: CacheChange<Value>) -> CacheChange<Value>? {
        let step = change.pendingWrites
        switch step.kind {
        case .failedAgain:
            if let position = step.position, position.epoch == log.epoch {
                pending.recordAttempt(at: position.sequence, error: step.lastError)
            }
            return nil
        case .settle:
            let change = leavingOut(change, pendingAfter: step.position)
            for id in change.writtenIDs { pending.drop(id) }
            return change
        case .keep:
            keep(leavingOut(change, pendingAfter: step.position), lastError: step.lastError)
            return nil
        default:
            return change
        }
    }

    /// The pending writes after `position`, at most `limit`, as a store answers them.
    func pendingWrites(after position: CacheWritePosition?, limit: Int?) -> [PendingWrite<Value>] {
        // A position of another order tells nothing: every pending write is after it.
        let sequence = position.flatMap { $0.epoch == log.epoch ? $0.sequence : nil }
        return pending.ordered(after: sequence, limit: limit).map { record in
            PendingWrite(
                id: record.id,
                value: record.value,
                queuedAt: record.queuedAt,
                attempts: record.attempts,
                lastError: record.lastError,
                position: CacheWritePosition(epoch: log.epoch, sequence: record.position)
            )
        }
    }

    /// `change` without the ids whose pending write was made after `position`: those keep what that write left.
    private func leavingOut(
        _ change: CacheChange<Value>,
        pendingAfter position: CacheWritePosition?
    ) -> CacheChange<
        Value
    > {
        guard let position, !pending.isEmpty else { return change }
        let isLater = { (id: Value.ID) -> Bool in
            guard let record = pending.record(of: id) else { return false }
            // Before the first write (epoch 0), or of another order: every pending write is later.
            guard position.epoch != 0, position.epoch == log.epoch else { return true }
            return record.position > position.sequence
        }
        var change = change
        change.values.removeAll { isLater($0.id) }
        if case .ids(let ids) = change.removal { change.removal = .ids(ids.filter { !isLater($0) }) }
        return change
    }

    /// Applies `change` as a write the main source could not take: its values stored and its ids removed (left in
    /// the lists), each becoming the id's pending write with the position it takes.
    private mutating func keep(_ change: CacheChange<Value>, lastError: DataError?) {
        if case .ids(let ids) = change.removal {
            for id in ids {
                evict(id, leavingLists: false)
                log.record(id, isDeletion: true)
                pending.keep(
                    .init(
                        id: id,
                        value: nil,
                        position: log.position,
                        queuedAt: change.date,
                        attempts: 1,
                        lastError: lastError
                    )
                )
            }
            compactIfSparse()
        }
        for value in change.values {
            put(value)
            index.setTime(change.date, of: value.id)
            pending.keep(
                .init(
                    id: value.id,
                    value: value,
                    position: log.position,
                    queuedAt: change.date,
                    attempts: 1,
                    lastError: lastError
                )
            )
        }
        if let key = change.listKey {
            index.lists[ListKey(key)] = CacheIndex.List(storedAt: change.date, ids: change.values.map(\.id))
        }
        extend(change.extendedListKeys, with: change.values.map(\.id))
    }
}

extension CacheChange {
    /// The ids the change writes: those of its values and of its removal by ids.
    var writtenIDs: [Value.ID] {
        var ids = values.map(\.id)
        if case .ids(let removed) = removal { ids += removed }
        return ids
    }
}
