package import Interactors
package import InteractorsData

/// The value the data-layer tests and their child processes store: small, Codable, keyed by a string id.
package struct Note: Codable, Identifiable, Sendable, Hashable {
    package var id: String
    package var text: String
    package var revision = 0

    package init(id: String, text: String, revision: Int = 0) {
        self.id = id
        self.text = text
        self.revision = revision
    }
}

package let ada = Note(id: "ada", text: "Analytical engine")
package let grace = Note(id: "grace", text: "Compilers")
package let alan = Note(id: "alan", text: "Computability")

/// A user-defined query no built-in source knows.
package struct TextSearchQuery: Query {
    package let term: String

    package init(term: String) {
        self.term = term
    }
}

extension Response {
    /// The failure as a `DataError`, waiting for the response; nil if it succeeded or failed otherwise.
    package var dataError: DataError? { error as? DataError }
}
