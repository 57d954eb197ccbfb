import Foundation
import Interactors
import InteractorsData

/// A value that fails to encode when told to: a write that must store none of its batch.
struct Fragile: Codable, Identifiable, Sendable, Hashable {
    struct Refused: Error {}

    var id: String
    var refusesToEncode = false

    func encode(to encoder: any Encoder) throws {
        if refusesToEncode { throw Refused() }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(refusesToEncode, forKey: .refusesToEncode)
    }
}

/// An error a write body throws of its own.
struct BodyError: Error, Equatable {
    let reason: String
}
