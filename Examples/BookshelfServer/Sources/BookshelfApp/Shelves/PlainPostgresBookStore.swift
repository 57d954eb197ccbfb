public import InteractorsData

/// The plain twin over PostgreSQL: each call awaits the ``PostgresTable``'s call from the handler
/// (``PostgresTable/run(_:)``), with no executor, interactor, repository or `Response`: the code a server author
/// writes without the library.
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

    /// The table's `get(_:)`.
    public func book(_ id: String, client: ClientConnection) async throws -> Book {
        let table = try database.books()
        return try await table.run(table.get(id))
    }

    /// The table's `list(.all)`.
    public func books(client: ClientConnection) async throws -> [Book] {
        let table = try database.books()
        return try await table.run(table.list(.all))
    }

    /// The table's `list(.page(…))`.
    public func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book] {
        let table = try database.books()
        return try await table.run(table.list(PostgresSelection(query, source: table.sourceName)))
    }

    /// The table's `put(_:ifAbsent:)`.
    public func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book {
        let table = try database.books()
        return try await table.run(table.put(book, ifAbsent: ifAbsent))
    }

    /// The table's `delete(_:ifPresent: true)`.
    public func delete(_ id: String, client: ClientConnection) async throws {
        let table = try database.books()
        try await table.run(table.delete(id, ifPresent: true))
    }
}
