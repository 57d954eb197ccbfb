public import Interactors

/// The use case "read many values": a repository `getAll`, run on a queue of your choice.
///
/// ```swift
/// let allNotes = GetAllInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let everything = try allNotes.execute().get()
/// ```
public struct GetAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case reading from `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// Every value `query` selects (everything by default); reads with ``RepositoryOperation/cacheSync`` unless
    /// told otherwise.
    public func execute(
        _ query: any Query = AllObjectsQuery(),
        operation: RepositoryOperation = .cacheSync
    ) -> Response<[Value]> {
        execute(GetAllRequest(query, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: GetAllRequest<Value>) -> Response<[Value]> {
        useCase.execute(request)
    }
}

extension GetAllInteractor: Interactor {}
