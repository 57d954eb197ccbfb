import Foundation

extension StoredCollection {
    /// The order of writes as the file keeps it (see ``WriteLog``): its epoch, latest position and floor, and the
    /// writes after the floor, each with its position: those of ids the file holds by their value's place in
    /// `values` (`heldPlaces`), the others by the id itself (`goneIDs`). A held write is a put unless its index is
    /// in `heldDeletions`, a gone one a deletion unless its index is in `gonePuts`. Parallel arrays of numbers
    /// rather than an object per write: they cost a JSON encoder far less.
    ///
    /// An id that is not `Codable` cannot be written down: the floor moves up to its write instead, so a read sent
    /// before that write changes nothing (a cache then fills again on the next read).
    struct Order: Codable {
        var epoch: UInt64
        var position: UInt64
        var floor: UInt64
        var heldPlaces: [Int]
        var heldPositions: [UInt64]
        var heldDeletions: [Int]?
        var goneIDs: [StoredID]
        var gonePositions: [UInt64]
        var gonePuts: [Int]?
    }

    /// An id written as its own JSON, for an id type that is `Codable` (found at run time: a value's id need not be).
    struct StoredID: Codable {
        let id: Value.ID

        init(_ id: Value.ID) {
            self.id = id
        }

        init(from decoder: any Decoder) throws {
            guard let type = Value.ID.self as? any Decodable.Type else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not Codable")
                )
            }
            let container = try decoder.singleValueContainer()
            guard let id = try Self.decode(type, from: container) as? Value.ID else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an id"))
            }
            self.id = id
        }

        func encode(to encoder: any Encoder) throws {
            guard let id = id as? any Encodable else {
                throw EncodingError.invalidValue(
                    id,
                    .init(codingPath: encoder.codingPath, debugDescription: "not Codable")
                )
            }
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }

        /// Whether ids of this type can be written down.
        static var isCodable: Bool {
            Value.ID.self is any Encodable.Type && Value.ID.self is any Decodable.Type
        }

        private static func decode<T: Decodable>(
            _ type: T.Type,
            from container: any SingleValueDecodingContainer
        ) throws -> T {
            try container.decode(type)
        }
    }
}

extension ValueCollection where Value: Codable {
    /// The order of writes as the file keeps it; nil before the first write. The collection must be compacted.
    var storedOrder: StoredCollection<Value>.Order? {
        guard log.position > 0 else { return nil }
        let canWriteIDs = StoredCollection<Value>.StoredID.isCodable
        var floor = log.floor
        if !canWriteIDs {
            for (id, entry) in log.latest where position(of: id.base) == nil { floor = max(floor, entry.position) }
        }
        // Sorted by position through tuples of plain numbers: a closure over the generic entries would cost
        // allocations at every comparison.
        var held: [(position: UInt64, place: Int, isDeletion: Bool)] = []
        var goneIDs: [Value.ID] = []
        var gone: [(position: UInt64, index: Int, isDeletion: Bool)] = []
        for (id, entry) in log.latest where entry.position > floor {
            if let place = position(of: id.base) {
                held.append((entry.position, place, entry.isDeletion))
            } else {
                gone.append((entry.position, goneIDs.count, entry.isDeletion))
                goneIDs.append(id.base)
            }
        }
        held.sort { $0.position < $1.position }
        gone.sort { $0.position < $1.position }
        var order = StoredCollection<Value>.Order(
            epoch: log.epoch,
            position: log.position,
            floor: floor,
            heldPlaces: [],
            heldPositions: [],
            heldDeletions: nil,
            goneIDs: [],
            gonePositions: [],
            gonePuts: nil
        )
        var heldDeletions: [Int] = []
        for (index, write) in held.enumerated() {
            order.heldPlaces.append(write.place)
            order.heldPositions.append(write.position)
            if write.isDeletion { heldDeletions.append(index) }
        }
        var gonePuts: [Int] = []
        for (index, write) in gone.enumerated() {
            order.goneIDs.append(.init(goneIDs[write.index]))
            order.gonePositions.append(write.position)
            if !write.isDeletion { gonePuts.append(index) }
        }
        order.heldDeletions = heldDeletions.isEmpty ? nil : heldDeletions
        order.gonePuts = gonePuts.isEmpty ? nil : gonePuts
        return order
    }

    /// The order a file kept, for these values; nil if it does not match them.
    func restore(_ stored: StoredCollection<Value>.Order) -> WriteLog<Value.ID>? {
        guard stored.floor <= stored.position, stored.heldPlaces.count == stored.heldPositions.count,
            stored.goneIDs.count == stored.gonePositions.count
        else { return nil }
        let values = values
        let heldDeletions = Set(stored.heldDeletions ?? [])
        let gonePuts = Set(stored.gonePuts ?? [])
        var writes: [(id: Value.ID, entry: WriteLog<Value.ID>.Entry)] = []
        for (index, (place, position)) in zip(stored.heldPlaces, stored.heldPositions).enumerated() {
            guard values.indices.contains(place), position <= stored.position else { return nil }
            writes.append((values[place].id, .init(position: position, isDeletion: heldDeletions.contains(index))))
        }
        for (index, (id, position)) in zip(stored.goneIDs, stored.gonePositions).enumerated() {
            guard position <= stored.position else { return nil }
            writes.append((id.id, .init(position: position, isDeletion: !gonePuts.contains(index))))
        }
        return WriteLog(epoch: stored.epoch, position: stored.position, floor: stored.floor, writes: writes)
    }
}
