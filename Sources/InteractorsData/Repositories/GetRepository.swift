public import Interactors

/// A repository that reads values: the ``GetDataSource`` methods, with a ``RepositoryOperation`` that says which
/// sources to use.
public protocol GetRepository<Value>: Sendable {
    /// The values the repository reads.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    func get(_ query: any Query, operation: RepositoryOperation) -> Response<Value>

    /// Every value `query` selects; `[]` when there is none.
    func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Value]>
}

extension GetRepository {
    /// The one value `query` selects, with ``RepositoryOperation/cacheSync``.
    public func get(_ query: any Query) -> Response<Value> {
        get(query, operation: .cacheSync)
    }

    /// Every value `query` selects, with ``RepositoryOperation/cacheSync``.
    public func getAll(_ query: any Query) -> Response<[Value]> {
        getAll(query, operation: .cacheSync)
    }
}
