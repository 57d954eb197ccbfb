import Foundation
import Interactors
import InteractorsData

/// A note as a server sends it: the DTO side of the mapping tests.
struct NoteDTO: Codable, Identifiable, Sendable, Hashable {
    var id: String
    var body: String
}
