import Foundation

extension StoredCollection {
    /// The order of writes as the file keeps it (see ``WriteLog``): its epoch, latest position and floor, and the
    /// writes after the floor, each with its position and whether it was a deletion: those of ids the file holds
    /// by their value's place in `values`, the others by the id itself.
    ///
    /// An id that is not `Codable` cannot be written down: the floor moves up to its write instead, so a read sent
    /// before that write changes nothing (a cache then fills again on the next read).
    struct Order: Codable {
        struct Held: Codable {
            var place: Int
            var position: UInt64
            var deleted: Bool?
        }

        struct Gone: Codable {
            var id: StoredID
            var position: UInt64
            var deleted: Bool?
        }

        var epoch: UInt64
        var position: UInt64
        var floor: UInt64
        var held: [Held]
        var gone: [Gone]
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
        var floor = log.floor
        var held: [StoredCollection<Value>.Order.Held] = []
        var gone: [StoredCollection<Value>.Order.Gone] = []
        let canWriteIDs = StoredCollection<Value>.StoredID.isCodable
        for (id, entry) in log.latest {
            if let place = position(of: id.base) {
                held.append(.init(place: place, position: entry.position, deleted: entry.isDeletion ? true : nil))
            } else if canWriteIDs {
                gone.append(
                    .init(id: .init(id.base), position: entry.position, deleted: entry.isDeletion ? true : nil)
                )
            } else {
                floor = max(floor, entry.position)
            }
        }
        return StoredCollection<Value>.Order(
            epoch: log.epoch,
            position: log.position,
            floor: floor,
            held: held.filter { $0.position > floor }.sorted { $0.position < $1.position },
            gone: gone.filter { $0.position > floor }.sorted { $0.position < $1.position }
        )
    }

    /// The order a file kept, for these values; nil if it does not match them.
    func restore(_ stored: StoredCollection<Value>.Order) -> WriteLog<Value.ID>? {
        guard stored.floor <= stored.position else { return nil }
        let values = values
        var writes: [(id: Value.ID, entry: WriteLog<Value.ID>.Entry)] = []
        for write in stored.held {
            guard values.indices.contains(write.place), write.position <= stored.position else { return nil }
            writes.append((values[write.place].id, .init(position: write.position, isDeletion: write.deleted == true)))
        }
        for write in stored.gone {
            guard write.position <= stored.position else { return nil }
            writes.append((write.id.id, .init(position: write.position, isDeletion: write.deleted == true)))
        }
        return WriteLog(epoch: stored.epoch, position: stored.position, floor: stored.floor, writes: writes)
    }
}
