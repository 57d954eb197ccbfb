public import Interactors

/// The use case "read one value": a repository `get`, run on a queue of your choice.
///
/// ```swift
/// let getNote = GetInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let note = try await getNote.execute(id: "n1").value
/// ```
public struct GetInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case reading from `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// The one value `query` selects; reads with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public func execute(_ query: any Query, operation: RepositoryOperation = .cacheSync) -> Response<Value> {
        run(on: queue) { [repository] in repository.get(query, operation: operation) }
    }

    /// The value with `id`.
    public func execute(id: Value.ID, operation: RepositoryOperation = .cacheSync) -> Response<Value> {
        execute(IdQuery(id), operation: operation)
    }

    /// The one value `query` selects, with ``RepositoryOperation/cacheSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ query: any Query) -> Response<Value> {
        execute(query, operation: .cacheSync)
    }
}
