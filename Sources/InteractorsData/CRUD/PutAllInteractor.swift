public import Interactors

/// The use case "store many values": a repository `putAll`, run on a queue of your choice.
public struct PutAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case writing to `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// Stores `values`, with ``RepositoryOperation/mainSync`` unless told otherwise; answers with what was
    /// stored.
    public func execute(_ values: [Value], operation: RepositoryOperation = .mainSync) -> Response<[Value]> {
        execute(PutAllRequest(values, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: PutAllRequest<Value>) -> Response<[Value]> {
        useCase.execute(request)
    }
}

extension PutAllInteractor: Interactor {}
