public import Interactors

/// The use case "store a value": a repository `put`, run on a queue of your choice.
///
/// ```swift
/// let saveNote = PutInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let saved = try saveNote.execute(note).get()
/// ```
public struct PutInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case writing to `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Stores `value`, with ``RepositoryOperation/mainSync`` unless told otherwise; answers with what was
    /// stored.
    public func execute(_ value: Value, operation: RepositoryOperation = .mainSync) -> Response<Value> {
        run(on: queue) { [repository] in repository.put(value, operation: operation) }
    }

    /// Stores `value`, with ``RepositoryOperation/mainSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ value: Value) -> Response<Value> {
        execute(value, operation: .mainSync)
    }
}
