public import Interactors

/// A repository that stores values: the ``PutDataSource`` methods, with a ``RepositoryOperation`` that says
/// which sources to use.
public protocol PutRepository<Value>: Sendable {
    /// The values the repository stores.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// Stores `value`; answers with what was stored.
    func put(_ value: Value, operation: RepositoryOperation) -> Response<Value>

    /// Stores `values`, in order; answers with what was stored.
    func putAll(_ values: [Value], operation: RepositoryOperation) -> Response<[Value]>
}

extension PutRepository {
    /// Stores `value`, with ``RepositoryOperation/mainSync``.
    public func put(_ value: Value) -> Response<Value> {
        put(value, operation: .mainSync)
    }

    /// Stores `values`, with ``RepositoryOperation/mainSync``.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        putAll(values, operation: .mainSync)
    }
}
