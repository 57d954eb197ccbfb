import Foundation

extension StoredCollection {
    /// A pending write as the file keeps it: a put holds its value, a delete its id (as its own JSON: a delete of
    /// an id that is not `Codable` cannot be kept, see ``FileDataSource``), and the error it keeps as its code's
    /// name and message (the underlying error lives in the process that met it).
    struct Pending: Codable {
        var position: UInt64
        var value: Value?
        var id: StoredID?
        var queuedAt: Double
        var attempts: Int
        var errorCode: String?
        var errorMessage: String?
    }

    /// The id a list item names: the value at that place, or, for `-1 - k`, the pending delete `pending[k]`.
    static func listedID(_ item: Int, values: [Value], pending: [Pending]) -> Value.ID? {
        if item >= 0 { return values.indices.contains(item) ? values[item].id : nil }
        let place = -1 - item
        guard pending.indices.contains(place), pending[place].value == nil else { return nil }
        return pending[place].id?.id
    }

}

extension StoredCollection where Value: Sendable, Value.ID: Sendable {
    /// The failure of a change that would keep a pending delete of an id that cannot be written down; nil if it
    /// can be kept.
    static func unkeepable(_ change: CacheChange<Value>, in name: String) -> DataError? {
        guard change.pendingWrites.kind == .keep, case .ids(let ids) = change.removal, let id = ids.first,
            !StoredID.isCodable
        else { return nil }
        return DataError(
            code: .mappingFailed,
            message: "\(name) cannot keep a pending delete of \(id): ids of type \(Value.ID.self) are not Codable"
        )
    }
}

extension ValueCollection where Value: Codable {
    /// The pending writes as the file keeps them, in order; nil when there are none.
    var storedPending: [StoredCollection<Value>.Pending]? {
        guard !pending.isEmpty else { return nil }
        return pending.ordered().map { record in
            StoredCollection<Value>.Pending(
                position: record.position,
                value: record.value,
                id: record.isDeletion ? .init(record.id) : nil,
                queuedAt: record.queuedAt.timeIntervalSince1970,
                attempts: record.attempts,
                errorCode: record.lastError.map { "\($0.code)" },
                errorMessage: record.lastError?.message
            )
        }
    }

    /// The list item of each id with a pending delete, `-1 - k` for its place `k` in ``storedPending``.
    var storedPendingDeletionItems: [ExactID<Value.ID>: Int] {
        guard !pending.isEmpty else { return [:] }
        var items: [ExactID<Value.ID>: Int] = [:]
        for (place, record) in pending.ordered().enumerated() where record.isDeletion {
            items[ExactID(record.id)] = -1 - place
        }
        return items
    }

    /// The pending writes a file kept, in the order `order` of its writes; nil if they do not match it.
    func restore(
        _ stored: [StoredCollection<Value>.Pending],
        order: StoredCollection<Value>.Order?
    ) -> PendingWriteLog<Value>? {
        guard !stored.isEmpty else { return PendingWriteLog() }
        guard let order else { return nil }  // a pending write took a position in the order
        var log = PendingWriteLog<Value>()
        for entry in stored {
            guard entry.position > 0, entry.position <= order.position, entry.attempts >= 0,
                let id = entry.value?.id ?? entry.id?.id
            else { return nil }
            let error = entry.errorCode.map { code in
                DataError(code: .named(code), message: entry.errorMessage ?? "")
            }
            log.keep(
                .init(
                    id: id,
                    value: entry.value,
                    position: entry.position,
                    queuedAt: Date(timeIntervalSince1970: entry.queuedAt),
                    attempts: entry.attempts,
                    lastError: error
                )
            )
        }
        return log.count == stored.count ? log : nil  // two pending writes of one id: not a file this wrote
    }
}
