public import Interactors

/// The use case "delete many values": a repository `deleteAll`, run on a queue of your choice.
public struct DeleteAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case deleting from `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// Deletes every value `query` selects, with ``RepositoryOperation/mainSync`` unless told otherwise. Deleting
    /// everything is spelled out: `execute(AllObjectsQuery())`.
    public func execute(_ query: any Query, operation: RepositoryOperation = .mainSync) -> Response<Void> {
        execute(DeleteAllRequest(query, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: DeleteAllRequest<Value>) -> Response<Void> {
        useCase.execute(request)
    }
}

extension DeleteAllInteractor: Interactor {}
