public import Interactors

// The typed requests of the six CRUD interactors, so each registers on an `InteractorExecutor` in one line and
// runs with `executor.execute(GetRequest<Book>(IdQuery("b1")))`. Each carries its query, value or values and the
// repository operation, defaulted as its interactor's.

/// A request to read the one value a query selects: ``GetInteractor``'s request.
public struct GetRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// The value.
    public typealias Output = Value
    /// What to read.
    public var query: any Query
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request for the value `query` selects, with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .cacheSync) {
        self.query = query
        self.operation = operation
    }
}

/// A request to read every value a query selects: ``GetAllInteractor``'s request.
public struct GetAllRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// The values.
    public typealias Output = [Value]
    /// What to read (``AllObjectsQuery`` for everything).
    public var query: any Query
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request for the values `query` selects, with ``RepositoryOperation/cacheSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .cacheSync) {
        self.query = query
        self.operation = operation
    }
}

/// A request to store a value: ``PutInteractor``'s request; it answers with what was stored.
public struct PutRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// What was stored.
    public typealias Output = Value
    /// The value to store.
    public var value: Value
    /// Whether to store it only if no value has its id (a create-only put, failing with
    /// ``DataError/Code/conflict`` otherwise): see ``PutRepository/put(_:ifAbsent:operation:)``.
    public var ifAbsent: Bool
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request to store `value` (only if absent, if `ifAbsent` says so), with ``RepositoryOperation/mainSync``
    /// unless told otherwise.
    public init(_ value: Value, ifAbsent: Bool = false, operation: RepositoryOperation = .mainSync) {
        self.value = value
        self.ifAbsent = ifAbsent
        self.operation = operation
    }
}

/// A request to store values: ``PutAllInteractor``'s request; it answers with what was stored.
public struct PutAllRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// What was stored.
    public typealias Output = [Value]
    /// The values to store, in order.
    public var values: [Value]
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request to store `values`, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public init(_ values: [Value], operation: RepositoryOperation = .mainSync) {
        self.values = values
        self.operation = operation
    }
}

/// A request to delete the value a query selects: ``DeleteInteractor``'s request.
public struct DeleteRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// Nothing.
    public typealias Output = Void
    /// What to delete.
    public var query: any Query
    /// Whether a missing value fails the request with ``DataError/Code/notFound`` (see
    /// ``DeleteRepository/delete(_:ifPresent:operation:)``); only for an ``IdQuery`` of the values' id type:
    /// another query then fails with ``DataError/Code/queryNotSupported``.
    public var ifPresent: Bool
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request to delete what `query` selects, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .mainSync) {
        self.query = query
        self.ifPresent = false
        self.operation = operation
    }

    /// A request to delete the value with the query's id, failing with ``DataError/Code/notFound`` when there was
    /// none if `ifPresent` says so, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public init(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation = .mainSync) {
        self.query = query
        self.ifPresent = ifPresent
        self.operation = operation
    }
}

/// A request to delete every value a query selects: ``DeleteAllInteractor``'s request. Deleting everything is
/// spelled out: `DeleteAllRequest<Book>(AllObjectsQuery())`.
public struct DeleteAllRequest<Value: Identifiable & Sendable>: InteractorRequest where Value.ID: Sendable {
    /// Nothing.
    public typealias Output = Void
    /// What to delete.
    public var query: any Query
    /// Which sources to use.
    public var operation: RepositoryOperation

    /// A request to delete what `query` selects, with ``RepositoryOperation/mainSync`` unless told otherwise.
    public init(_ query: any Query, operation: RepositoryOperation = .mainSync) {
        self.query = query
        self.operation = operation
    }
}

// MARK: - What each request asks of a repository

/// Any ``Repository``, as the six read and write requests are sent to it. A struct around the existential rather
/// than the existential itself as a generic argument: the runtime's metadata for a composition of parameterized
/// protocols, used as a generic argument, crashes on Linux (Swift 6.3).
struct RepositoryBox<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    let repository: any RepositoryParts<Value>
}

/// A CRUD request: one repository call, on a `Target` (a ``RepositoryBox``, or a ``CacheRepository``).
protocol RepositoryRequest: InteractorRequest {
    associatedtype Target: Sendable
    func send(to repository: Target) -> Response<Output>
}

extension GetRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<Value> { target.repository.get(query, operation: operation) }
}

extension GetAllRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<[Value]> {
        target.repository.getAll(query, operation: operation)
    }
}

extension PutRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<Value> {
        target.repository.put(value, ifAbsent: ifAbsent, operation: operation)
    }
}

extension PutAllRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<[Value]> {
        target.repository.putAll(values, operation: operation)
    }
}

extension DeleteRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<Void> {
        guard ifPresent else { return target.repository.delete(query, operation: operation) }
        guard let query = query as? IdQuery<Value.ID> else {
            return Response(
                error: DataError.queryNotSupported(query, by: "DeleteRequest<\(Value.self)>(ifPresent: true)")
            )
        }
        return target.repository.delete(query, ifPresent: true, operation: operation)
    }
}

extension DeleteAllRequest: RepositoryRequest {
    typealias Target = RepositoryBox<Value>

    func send(to target: RepositoryBox<Value>) -> Response<Void> {
        target.repository.deleteAll(query, operation: operation)
    }
}
