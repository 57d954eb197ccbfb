public import Interactors

/// The use case "delete a value": a repository `delete`, run on a queue of your choice.
///
/// ```swift
/// let deleteNote = DeleteInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// try deleteNote.execute(id: "n1").get()
/// ```
public struct DeleteInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case deleting from `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// Deletes the value `query` selects, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public func execute(_ query: any Query, operation: RepositoryOperation = .mainSync) -> Response<Void> {
        execute(DeleteRequest(query, operation: operation))
    }

    /// Deletes the value with `id`; with `ifPresent`, fails with ``DataError/Code/notFound`` if there was none.
    public func execute(
        id: Value.ID,
        ifPresent: Bool = false,
        operation: RepositoryOperation = .mainSync
    ) -> Response<Void> {
        execute(DeleteRequest(IdQuery(id), ifPresent: ifPresent, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: DeleteRequest<Value>) -> Response<Void> {
        useCase.execute(request)
    }
}

extension DeleteInteractor: Interactor {}
