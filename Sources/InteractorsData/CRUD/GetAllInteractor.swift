public import Interactors

/// The use case "read many values": a repository `getAll`, run on a queue of your choice.
///
/// ```swift
/// let allNotes = GetAllInteractor(repository: notes, queue: DispatchQueue(label: "notes"))
/// let everything = try allNotes.execute().get()
/// ```
public struct GetAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case reading from `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Every value `query` selects (everything by default); reads with ``RepositoryOperation/cacheSync`` unless
    /// told otherwise.
    public func execute(
        _ query: any Query = AllObjectsQuery(),
        operation: RepositoryOperation = .cacheSync
    ) -> Response<[Value]> {
        run(on: queue) { [repository] in repository.getAll(query, operation: operation) }
    }

    /// Every value `query` selects, with ``RepositoryOperation/cacheSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ query: any Query) -> Response<[Value]> {
        execute(query, operation: .cacheSync)
    }
}
