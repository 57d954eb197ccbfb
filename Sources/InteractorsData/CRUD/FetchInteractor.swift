public import Interactors

/// The use case "read one value, and say where it came from": a ``CacheRepository`` `fetch`, run on a queue of
/// your choice, answering a ``Fetched`` value with its origin and `storedAt`.
///
/// ```swift
/// let openBook = FetchInteractor(repository: books, queue: DispatchQueue(label: "books"))
/// let book = try await openBook.execute(id: "b1").value
/// if case .cacheAfterFailure = book.origin { showOfflineBanner(lastUpdated: book.storedAt) }
/// ```
public struct FetchInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<CacheRepository<Value>>

    /// A use case reading from `repository`, its work started on `queue`.
    public init(repository: CacheRepository<Value>, queue: some CallbackQueue) {
        self.useCase = RepositoryUseCase(repository, queue)
    }

    /// The one value `query` selects, with where it came from; reads with ``RepositoryOperation/cacheSync`` unless
    /// told otherwise.
    public func execute(_ query: any Query, operation: RepositoryOperation = .cacheSync) -> Response<Fetched<Value>> {
        execute(FetchRequest(query, operation: operation))
    }

    /// The value with `id`, with where it came from.
    public func execute(id: Value.ID, operation: RepositoryOperation = .cacheSync) -> Response<Fetched<Value>> {
        execute(IdQuery(id), operation: operation)
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: FetchRequest<Value>) -> Response<Fetched<Value>> {
        useCase.execute(request)
    }
}

extension FetchInteractor: Interactor {}
