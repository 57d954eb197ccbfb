/// The value the stores hold: a note of about 150 bytes of JSON, keyed by a string id.
struct StoreNote: Codable, Identifiable, Sendable {
    var id: String
    var title: String
    var body: String
    var revision: Int

    /// The note with number `index` (ids "note-0", "note-1", …) at `revision`.
    static func number(_ index: Int, revision: Int = 0) -> StoreNote {
        StoreNote(
            id: "note-\(index)",
            title: "Note \(index)",
            body: "Remember to water the plants, call the bank about the card, and buy bread on the way home.",
            revision: revision
        )
    }
}
