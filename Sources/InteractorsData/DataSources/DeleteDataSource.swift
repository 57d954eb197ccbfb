public import Interactors

/// A source that deletes values. Every method starts its work at once and returns a `Response`.
///
/// Deleting an id a local store does not hold succeeds: a cache may never have held it. A remote source answers
/// as its server does.
public protocol DeleteDataSource<Value>: Sendable {
    /// The values the source holds.
    associatedtype Value: Identifiable & Sendable where Value.ID: Sendable

    /// Deletes the value `query` selects (an ``IdQuery``).
    func delete(_ query: any Query) -> Response<Void>

    /// Deletes every value `query` selects; ``AllObjectsQuery`` empties the collection.
    func deleteAll(_ query: any Query) -> Response<Void>
}
