/// A book on the shelf: the JSON object `{"id": String, "title": String, "author": String}`.
public struct Book: Codable, Identifiable, Sendable, Hashable {
    /// The book's id, as it appears in `/books/{id}`.
    public var id: String
    /// The title.
    public var title: String
    /// The author.
    public var author: String

    /// A book with these fields.
    public init(id: String, title: String, author: String) {
        self.id = id
        self.title = title
        self.author = author
    }
}
