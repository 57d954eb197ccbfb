import Foundation
import Interactors
import InteractorsData

/// The value the data-layer tests store: small, Codable, keyed by a string id.
struct Note: Codable, Identifiable, Sendable, Hashable {
    var id: String
    var text: String
    var revision = 0
}

/// A note as a server sends it: the DTO side of the mapping tests.
struct NoteDTO: Codable, Identifiable, Sendable, Hashable {
    var id: String
    var body: String
}

/// A user-defined query no built-in source knows.
struct TextSearchQuery: Query {
    let term: String
}

extension Response {
    /// The failure as a `DataError`, waiting for the response; nil if it succeeded or failed otherwise.
    var dataError: DataError? { error as? DataError }
}
