public import Interactors

/// A source that stores values, inserting or replacing by id. Every method starts its work at once and returns
/// a `Response` with what was stored (a server may answer with a value of its own: a revision, a timestamp).
public protocol PutDataSource<Value>: Sendable {
    /// The values the source holds.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// Stores `value`, replacing any value with its id.
    func put(_ value: Value) -> Response<Value>

    /// Stores `values`, in order.
    func putAll(_ values: [Value]) -> Response<[Value]>

    /// Stores `value`; with `ifAbsent`, only if the source holds no value with its id, and otherwise fails with
    /// ``DataError/Code/conflict`` having written nothing (a create-only put: a generated id that collides never
    /// replaces what is there). `ifAbsent: false` is ``put(_:)``.
    ///
    /// The library's stores check and write atomically: ``InMemoryDataSource`` under its lock, ``FileDataSource``
    /// in its batch, under the file's lock, InteractorsSQLite's `SQLiteDataSource` in one statement, and
    /// ``RESTDataSource`` with a `PUT` carrying `If-None-Match: *`, whose `412` is the conflict. A source of your
    /// own that also reads gets a default that reads, then writes: not atomic, so another writer may come between.
    func put(_ value: Value, ifAbsent: Bool) -> Response<Value>
}

extension PutDataSource {
    /// ``put(_:)``; with `ifAbsent`, fails with ``DataError/Code/queryNotSupported``: a source that cannot read
    /// cannot tell whether the value is there. Implement it to store only values that are absent.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        guard ifAbsent else { return put(value) }
        return Response(error: DataError.cannotCheck("put only if absent", by: Self.self))
    }
}

extension PutDataSource where Self: GetDataSource {
    /// ``put(_:)``; with `ifAbsent`, reads the value's id first and fails with ``DataError/Code/conflict`` if it
    /// is there, else puts. Not atomic: a value stored by someone else between the read and the write is
    /// replaced. The library's stores implement it atomically.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        guard ifAbsent else { return put(value) }
        return get(IdQuery(value.id)).then { found in
            switch found {
            case .success: return Response(error: DataError.conflict(value.id, in: "\(Self.self)"))
            case .failure(let error) where error.isDataError(.notFound): return put(value)
            case .failure(let error): return Response(error: error)
            }
        }
    }
}
