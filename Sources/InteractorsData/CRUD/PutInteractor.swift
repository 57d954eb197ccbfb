public import Interactors

/// The use case "store a value": a repository `put`, run on a queue of your choice.
///
/// ```swift
/// let saveNote = PutInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let saved = try saveNote.execute(note).get()
/// ```
public struct PutInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let useCase: RepositoryUseCase<RepositoryBox<Value>>

    /// A use case writing to `repository`, its work started on `queue`.
    public init(
        repository: some GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>,
        queue: some CallbackQueue
    ) {
        self.useCase = RepositoryUseCase(RepositoryBox(repository: repository), queue)
    }

    /// Stores `value` (only if no value has its id, if `ifAbsent` says so: ``DataError/Code/conflict``
    /// otherwise), with ``RepositoryOperation/mainSync`` unless told otherwise; answers with what was stored.
    public func execute(
        _ value: Value,
        ifAbsent: Bool = false,
        operation: RepositoryOperation = .mainSync
    ) -> Response<Value> {
        execute(PutRequest(value, ifAbsent: ifAbsent, operation: operation))
    }

    /// Runs `request` on the queue: the `Interactor` form, for an `InteractorExecutor`.
    public func execute(_ request: PutRequest<Value>) -> Response<Value> {
        useCase.execute(request)
    }
}

extension PutInteractor: Interactor {}
