import Foundation

/// The pending writes of a local store (``PendingWriteStore``), kept with its values in ``ValueCollection``: at most
/// one per id, each with the position its write took in the store's order of writes, which orders them.
///
/// Reading them in order sorts them: a store holds a handful of pending writes, or a few thousand after a long
/// time offline, and sorting those costs less than keeping a second order up to date on every write.
struct PendingWriteLog<Value: Identifiable> {
    struct Record {
        var id: Value.ID
        /// The value put; nil for a delete.
        var value: Value?
        /// The position its write took in the store's order of writes.
        var position: UInt64
        var queuedAt: Date
        var attempts: Int
        var lastError: DataError?

        var isDeletion: Bool { value == nil }
    }

    private(set) var records: [ExactID<Value.ID>: Record] = [:]
    /// The id of the record at each position.
    private var ids: [UInt64: ExactID<Value.ID>] = [:]

    var isEmpty: Bool { records.isEmpty }
    var count: Int { records.count }

    func record(of id: Value.ID) -> Record? { records[ExactID(id)] }

    /// Whether `id` has a pending write.
    func holds(_ id: Value.ID) -> Bool { records[ExactID(id)] != nil }

    /// Whether `id`'s pending write is a delete.
    func isDeletion(_ id: Value.ID) -> Bool { records[ExactID(id)]?.isDeletion == true }

    /// Keeps `record`, replacing the id's pending write.
    mutating func keep(_ record: Record) {
        drop(record.id)
        records[ExactID(record.id)] = record
        ids[record.position] = ExactID(record.id)
    }

    /// Drops `id`'s pending write, if any.
    mutating func drop(_ id: Value.ID) {
        guard let record = records.removeValue(forKey: ExactID(id)) else { return }
        ids[record.position] = nil
    }

    /// The write at `position`, if still pending, was tried once more and failed with `error`.
    mutating func recordAttempt(at position: UInt64, error: DataError?) {
        guard let id = ids[position] else { return }
        records[id]?.attempts += 1
        records[id]?.lastError = error
    }

    mutating func removeAll() {
        records = [:]
        ids = [:]
    }

    /// The records after `position` (all for nil), in order of position, at most `limit`.
    func ordered(after position: UInt64? = nil, limit: Int? = nil) -> [Record] {
        var positions = ids.keys.filter { $0 > (position ?? 0) }
        positions.sort()
        if let limit, positions.count > limit { positions.removeLast(positions.count - limit) }
        return positions.compactMap { ids[$0].flatMap { records[$0] } }
    }

    /// The ids with a pending put, in order.
    func idsPut() -> [Value.ID] {
        ordered().filter { !$0.isDeletion }.map(\.id)
    }
}
