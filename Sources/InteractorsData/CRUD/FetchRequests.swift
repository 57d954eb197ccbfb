public import Interactors

// The requests of the two interactors that read with where the answer came from and how old it is, so the
// offline banner ("offline, last updated 10 minutes ago") reaches the screen through the executor as the other
// CRUD requests do: `executor.execute(FetchAllRequest<Book>(AllObjectsQuery()))`.

/// A request to read the one value a query selects, with its origin and age: ``FetchInteractor``'s request.
public struct FetchRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// The value, where it came from and when it was stored.
    public typealias Output = Fetched<Value>
    /// What to read.
    public var query: any Query
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request for the value `query` selects, with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .cacheSync) {
        self.query = query
        self.operation = operation
    }
}

/// A request to read every value a query selects, with their origin and age: ``FetchAllInteractor``'s request.
public struct FetchAllRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// The values, where they came from and when they were stored.
    public typealias Output = Fetched<[Value]>
    /// What to read (``AllObjectsQuery`` for everything).
    public var query: any Query
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request for the values `query` selects, with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .cacheSync) {
        self.query = query
        self.operation = operation
    }
}

// MARK: - What each request asks of a cache repository

extension FetchRequest: RepositoryRequest {
    typealias Target = CacheRepository<Value>

    func send(to repository: CacheRepository<Value>) -> Response<Fetched<Value>> {
        repository.fetch(query, operation: operation)
    }
}

extension FetchAllRequest: RepositoryRequest {
    typealias Target = CacheRepository<Value>

    func send(to repository: CacheRepository<Value>) -> Response<Fetched<[Value]>> {
        repository.fetchAll(query, operation: operation)
    }
}
