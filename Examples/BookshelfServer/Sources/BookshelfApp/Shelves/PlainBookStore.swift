public import InteractorsData
import InteractorsSQLite

/// The plain twin: each call goes straight to the `SQLiteDataSource` and awaits its answer, with no executor,
/// interactor, repository or response of its own. (The data source's own API answers with a `Response`; this is
/// the one thing of the library's core the twin still touches, since the store is the same in both.)
public struct PlainBookStore: BookStore {
    /// The service that holds the open database.
    public let database: DatabaseService

    /// A store over `database`'s `books` table.
    public init(database: DatabaseService) {
        self.database = database
    }

    /// The source's `get`.
    public func book(_ id: String, client: ClientConnection) async throws -> Book {
        try await client.value(of: database.books().get(IdQuery(id)))
    }

    /// The source's `getAll`.
    public func books(client: ClientConnection) async throws -> [Book] {
        try await client.value(of: database.books().getAll(AllObjectsQuery()))
    }

    /// The source's `getAll` of the page.
    public func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book] {
        try await client.value(of: database.books().getAll(query))
    }

    /// The source's `put(_:ifAbsent:)` (one `INSERT`).
    public func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book {
        try await client.value(of: database.books().put(book, ifAbsent: ifAbsent))
    }

    /// The source's `delete(_:ifPresent: true)` (told by the `DELETE`).
    public func delete(_ id: String, client: ClientConnection) async throws {
        try await client.value(of: database.books().delete(IdQuery(id), ifPresent: true))
    }
}
