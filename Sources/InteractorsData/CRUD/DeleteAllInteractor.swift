public import Interactors

/// The use case "delete many values": a repository `deleteAll`, run on a queue of your choice.
public struct DeleteAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case deleting from `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Deletes every value `query` selects (everything by default), with ``RepositoryOperation/mainSync`` unless
    /// told otherwise.
    public func execute(
        _ query: any Query = AllObjectsQuery(),
        operation: RepositoryOperation = .mainSync
    ) -> Response<Void> {
        run(on: queue) { [repository] in repository.deleteAll(query, operation: operation) }
    }

    /// Deletes every value `query` selects, with ``RepositoryOperation/mainSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ query: any Query) -> Response<Void> {
        execute(query, operation: .mainSync)
    }
}
