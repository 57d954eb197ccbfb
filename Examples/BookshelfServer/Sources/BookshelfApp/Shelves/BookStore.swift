public import InteractorsData

/// What the routes ask of the shelf: one implementation per variant, so the routes, the HTTP server and the SQLite
/// store are the same in both and the library's cost is what differs.
///
/// Each method awaits through `client`, which cancels the work's `Response` if the client goes away.
public protocol BookStore: Sendable {
    /// The book with `id`; `DataError.notFound` when there is none.
    func book(_ id: String, client: ClientConnection) async throws -> Book
    /// Every book, in the order they were first stored.
    func books(client: ClientConnection) async throws -> [Book]
    /// The page `query` names: at most its limit of books whose id is greater than its `after`, in ascending id
    /// order (ids compared by their UTF-8 bytes, as every store of the library orders them).
    func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book]
    /// Stores `book`, replacing the one with its id; with `ifAbsent`, only if there is none, and otherwise fails
    /// with `DataError.conflict` having written nothing (checked and written in one step: of several such puts of
    /// one new id at once, exactly one stores). Answers once committed.
    func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book
    /// Deletes the book with `id`; `DataError.notFound` when there was none, told by the delete itself (no read
    /// first, which another request's write could overtake).
    func delete(_ id: String, client: ClientConnection) async throws
}
