public import Interactors

/// A repository that deletes values: the ``DeleteDataSource`` methods, with a ``RepositoryOperation`` that says
/// which sources to use.
public protocol DeleteRepository<Value>: Sendable {
    /// The values the repository deletes.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// Deletes the value `query` selects.
    func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void>

    /// Deletes every value `query` selects.
    func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void>
}

extension DeleteRepository {
    /// Deletes the value `query` selects, with ``RepositoryOperation/mainSync``.
    public func delete(_ query: any Query) -> Response<Void> {
        delete(query, operation: .mainSync)
    }

    /// Deletes every value `query` selects, with ``RepositoryOperation/mainSync``.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        deleteAll(query, operation: .mainSync)
    }
}
