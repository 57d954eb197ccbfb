import Foundation
import Interactors
import InteractorsData

/// The value most tests store: small, Codable, keyed by a string id.
struct Note: Codable, Identifiable, Sendable, Hashable {
    var id: String
    var text: String
    var revision = 0
}

let ada = Note(id: "ada", text: "Analytical engine")
let grace = Note(id: "grace", text: "Compilers")
let alan = Note(id: "alan", text: "Computability")

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

/// A user-defined query no built-in source knows.
struct TextSearchQuery: Query {
    let term: String
}

/// An error a write body throws of its own.
struct BodyError: Error, Equatable {
    let reason: String
}

extension Response {
    /// The failure as a `DataError`, waiting for the response; nil if it succeeded or failed otherwise.
    var dataError: DataError? { error as? DataError }
}
