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

    /// Stores `value`; with `ifAbsent`, only if the sources `operation` writes first hold no value with its id, and
    /// otherwise fails with ``DataError/Code/conflict``, having written nothing (the cache included). See
    /// ``PutDataSource/put(_:ifAbsent:)``.
    func put(_ value: Value, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Value>
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

extension PutRepository {
    /// Stores `value`, only if absent when `ifAbsent` says so, with ``RepositoryOperation/mainSync``.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        put(value, ifAbsent: ifAbsent, operation: .mainSync)
    }

    /// ``put(_:operation:)``; with `ifAbsent`, fails with ``DataError/Code/queryNotSupported``: a repository that
    /// cannot read cannot tell whether the value is there. Implement it to store only values that are absent.
    public func put(_ value: Value, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Value> {
        guard ifAbsent else { return put(value, operation: operation) }
        return Response(error: DataError.cannotCheck("put only if absent", by: Self.self))
    }
}

extension PutRepository where Self: GetRepository {
    /// ``put(_:operation:)``; with `ifAbsent`, reads the value's id first (from the same sources) and fails with
    /// ``DataError/Code/conflict`` if it is there, else puts. Not atomic; the library's repositories pass the
    /// condition on to their sources, which check it atomically.
    public func put(_ value: Value, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Value> {
        guard ifAbsent else { return put(value, operation: operation) }
        return get(IdQuery(value.id), operation: operation).then { found in
            switch found {
            case .success: return Response(error: DataError.conflict(value.id, in: "\(Self.self)"))
            case .failure(let error) where error.isDataError(.notFound): return put(value, operation: operation)
            case .failure(let error): return Response(error: error)
            }
        }
    }
}
