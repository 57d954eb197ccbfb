public import Interactors

/// The use case "read many values, and say where they came from": a ``CacheRepository`` `fetchAll`, run on a
/// queue of your choice, answering a ``Fetched`` list with its origin and `storedAt`.
///
/// ```swift
/// let shelf = FetchAllInteractor(repository: books, queue: DispatchQueue(label: "books"))
/// let books = try await shelf.execute().value
/// if case .cacheAfterFailure = books.origin { showOfflineBanner(lastUpdated: books.storedAt) }
/// ```
public struct FetchAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<CacheRepository<Value>>

    /// A use case reading from `repository`, its work started on `queue`.
    public init(repository: CacheRepository<Value>, queue: some CallbackQueue) {
        self.useCase = RepositoryUseCase(repository, queue)
    }

    /// Every value `query` selects (everything by default), with where they came from; reads with
    /// ``RepositoryOperation/cacheSync`` unless told otherwise.
    public func execute(
        _ query: any Query = AllObjectsQuery(),
        operation: RepositoryOperation = .cacheSync
    ) -> Response<Fetched<[Value]>> {
        execute(FetchAllRequest(query, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: FetchAllRequest<Value>) -> Response<Fetched<[Value]>> {
        useCase.execute(request)
    }
}

extension FetchAllInteractor: Interactor {}
