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

    /// Deletes the value with the query's id; with `ifPresent`, fails with ``DataError/Code/notFound`` when the
    /// sources `operation` deletes from first had none. See ``DeleteDataSource/delete(_:ifPresent:)``.
    func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void>
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

extension DeleteRepository {
    /// Deletes the value with the query's id, failing with ``DataError/Code/notFound`` when it was not there if
    /// `ifPresent` says so, with ``RepositoryOperation/mainSync``.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        delete(query, ifPresent: ifPresent, operation: .mainSync)
    }

    /// ``delete(_:operation:)``; with `ifPresent`, fails with ``DataError/Code/queryNotSupported``: a repository
    /// that cannot read cannot tell whether the value was there. Implement it to tell.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void> {
        guard ifPresent else { return delete(query, operation: operation) }
        return Response(error: DataError.cannotCheck("delete only if present", by: Self.self))
    }
}

extension DeleteRepository where Self: GetRepository {
    /// ``delete(_:operation:)``; with `ifPresent`, reads the value first (from the same sources) and fails with
    /// ``DataError/Code/notFound`` if it is not there, else deletes it. Not atomic; the library's repositories pass
    /// the condition on to their sources.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void> {
        guard ifPresent else { return delete(query, operation: operation) }
        return get(query, operation: operation).flatMap { _ in delete(query, operation: operation) }
    }
}
