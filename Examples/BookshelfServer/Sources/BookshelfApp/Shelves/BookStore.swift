/// What the routes ask of the shelf: one implementation per variant, so the routes, the HTTP server and the SQLite
/// store are the same in both and the library's cost is what differs.
///
/// Each method awaits through `client`, which cancels the work's `Response` if the client goes away.
public protocol BookStore: Sendable {
    /// The book with `id`; `DataError.notFound` when there is none.
    func book(_ id: String, client: ClientConnection) async throws -> Book
    /// Every book, in the order they were first stored.
    func books(client: ClientConnection) async throws -> [Book]
    /// Stores `book`, replacing the one with its id; answers once committed.
    func put(_ book: Book, client: ClientConnection) async throws -> Book
    /// Deletes the book with `id`; succeeds when there is none.
    func delete(_ id: String, client: ClientConnection) async throws
}
