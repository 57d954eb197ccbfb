public import Interactors

/// A source that reads values. Every method starts its work at once and returns a `Response`.
///
/// - `get` answers with one value, or fails with ``DataError/Code/notFound`` when nothing matches.
/// - `getAll` answers with every match, `[]` when there is none; for an ``IdsQuery``, those found, in the
///   query's order.
///
/// A query the source does not understand fails with ``DataError/Code/queryNotSupported``.
public protocol GetDataSource<Value>: Sendable {
    /// The values the source holds.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// The one value `query` selects.
    func get(_ query: any Query) -> Response<Value>

    /// Every value `query` selects.
    func getAll(_ query: any Query) -> Response<[Value]>
}
