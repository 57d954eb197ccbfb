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

    /// Deletes the value with the query's id; with `ifPresent`, fails with ``DataError/Code/notFound`` when there
    /// was none, so a caller learns whether it was there without asking first (a `DELETE` answering 404).
    /// `ifPresent: false` is ``delete(_:)``.
    ///
    /// The library's stores tell atomically: ``InMemoryDataSource`` under its lock, ``FileDataSource`` in its
    /// batch, InteractorsSQLite's `SQLiteDataSource` from the `DELETE` statement itself, and ``RESTDataSource``
    /// from the server's 404. A source of your own that also reads gets a default that reads, then deletes: not
    /// atomic.
    func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void>
}

extension DeleteDataSource {
    /// ``delete(_:)``; with `ifPresent`, fails with ``DataError/Code/queryNotSupported``: a source that cannot
    /// read cannot tell whether the value was there. Implement it to tell.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        guard ifPresent else { return delete(query) }
        return Response(error: DataError.cannotCheck("delete only if present", by: Self.self))
    }
}

extension DeleteDataSource where Self: GetDataSource {
    /// ``delete(_:)``; with `ifPresent`, reads the value first and fails with ``DataError/Code/notFound`` if it
    /// is not there, else deletes it. Not atomic: another writer may delete it in between. The library's stores
    /// implement it atomically.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        guard ifPresent else { return delete(query) }
        return get(query).flatMap { _ in delete(query) }
    }
}
