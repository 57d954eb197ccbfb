public import Interactors

/// The use case "store many values": a repository `putAll`, run on a queue of your choice.
public struct PutAllInteractor<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    private let repository: any Repository<Value>
    private let queue: any CallbackQueue

    /// A use case writing to `repository`, its work started on `queue`.
    public init(repository: some Repository<Value>, queue: some CallbackQueue) {
        self.repository = repository
        self.queue = queue
    }

    /// Stores `values`, with ``RepositoryOperation/mainSync`` unless told otherwise; answers with what was
    /// stored.
    public func execute(_ values: [Value], operation: RepositoryOperation = .mainSync) -> Response<[Value]> {
        run(on: queue) { [repository] in repository.putAll(values, operation: operation) }
    }

    /// Stores `values`, with ``RepositoryOperation/mainSync``; the one-request form of
    /// `execute(_:)` that the `Interactor` protocol asks for.
    public func execute(_ values: [Value]) -> Response<[Value]> {
        execute(values, operation: .mainSync)
    }
}
