public import Interactors

/// The use case "delete a value": a repository `delete`, run on a queue of your choice.
///
/// ```swift
/// let deleteNote = DeleteInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// try deleteNote.execute(id: "n1").get()
/// ```
public struct DeleteInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case deleting from `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Deletes the value `query` selects, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public func execute(_ query: any Query, operation: RepositoryOperation = .mainSync) -> Response<Void> {
        run(on: queue) { [repository] in repository.delete(query, operation: operation) }
    }

    /// Deletes the value with `id`.
    public func execute(id: Value.ID, operation: RepositoryOperation = .mainSync) -> Response<Void> {
        execute(IdQuery(id), operation: operation)
    }

    /// Deletes the value `query` selects, with ``RepositoryOperation/mainSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ query: any Query) -> Response<Void> {
        execute(query, operation: .mainSync)
    }
}
