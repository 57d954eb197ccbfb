public import Interactors

/// The use case "read one value": a repository `get`, run on a queue of your choice.
///
/// ```swift
/// let getNote = GetInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let note = try await getNote.execute(id: "n1").value
/// ```
public struct GetInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case reading from `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// The one value `query` selects; reads with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public func execute(_ query: any Query, operation: RepositoryOperation = .cacheSync) -> Response<Value> {
        execute(GetRequest(query, operation: operation))
    }

    /// The value with `id`.
    public func execute(id: Value.ID, operation: RepositoryOperation = .cacheSync) -> Response<Value> {
        execute(IdQuery(id), operation: operation)
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: GetRequest<Value>) -> Response<Value> {
        useCase.execute(request)
    }
}

extension GetInteractor: Interactor {}
