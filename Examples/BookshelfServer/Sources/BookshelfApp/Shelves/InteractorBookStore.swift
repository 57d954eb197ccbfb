public import Interactors
public import InteractorsData

/// The library variant: each call executes a typed request on an `InteractorExecutor`, whose CRUD interactors (over
/// a `SingleSourceRepository` of the `SQLiteDataSource`) the ``DatabaseService`` registered at launch.
public struct InteractorBookStore: BookStore {
    /// The executor the requests run on.
    public let executor: InteractorExecutor

    /// A store executing on `executor`.
    public init(executor: InteractorExecutor) {
        self.executor = executor
    }

    /// `GetRequest<Book>(IdQuery(id))`.
    public func book(_ id: String, client: ClientConnection) async throws -> Book {
        try await client.value(of: executor.execute(GetRequest<Book>(IdQuery(id))))
    }

    /// `GetAllRequest<Book>(AllObjectsQuery())`.
    public func books(client: ClientConnection) async throws -> [Book] {
        try await client.value(of: executor.execute(GetAllRequest<Book>(AllObjectsQuery())))
    }

    /// `GetAllRequest<Book>(query)`.
    public func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book] {
        try await client.value(of: executor.execute(GetAllRequest<Book>(query)))
    }

    /// `PutRequest(book, ifAbsent: ifAbsent)`.
    public func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book {
        try await client.value(of: executor.execute(PutRequest(book, ifAbsent: ifAbsent)))
    }

    /// `DeleteRequest<Book>(IdQuery(id), ifPresent: true)`.
    public func delete(_ id: String, client: ClientConnection) async throws {
        try await client.value(of: executor.execute(DeleteRequest<Book>(IdQuery(id), ifPresent: true)))
    }
}
