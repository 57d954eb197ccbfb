/// The plain twin over PostgreSQL: each call awaits the ``PostgresTable``'s `async` call from the handler, with no
/// executor, interactor, repository or `Response`: the code a server author writes without the library.
///
/// Like most handlers, it does not watch its client: a request whose client went away runs to its end (at most
/// the table's deadline), where the library variant cancels the request's `Response`.
public struct PlainPostgresBookStore: BookStore {
    /// The service that holds the table.
    public let database: PostgresDatabaseService

    /// A store over `database`'s `books` table.
    public init(database: PostgresDatabaseService) {
        self.database = database
    }

    /// The table's `value(_:)`.
    public func book(_ id: String, client: ClientConnection) async throws -> Book {
        try await database.books().value(id)
    }

    /// The table's `values(.all)`.
    public func books(client: ClientConnection) async throws -> [Book] {
        try await database.books().values(.all)
    }

    /// The table's `put(_:)`.
    public func put(_ book: Book, client: ClientConnection) async throws -> Book {
        try await database.books().put(book)
    }

    /// The table's `delete(_:)`.
    public func delete(_ id: String, client: ClientConnection) async throws {
        try await database.books().delete(id)
    }
}
