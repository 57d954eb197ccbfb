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
}
