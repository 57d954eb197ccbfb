/// A query whose answer a ``CacheRepository`` can keep as a list: its ``cacheKey`` names the list.
///
/// ```swift
/// struct ShelfQuery: CacheKeyQuery {
///     let shelf: String
///     var cacheKey: String { "shelf:\(shelf)" }
/// }
/// let books = try repository.getAll(ShelfQuery(shelf: "to-read")).get()  // the server's list, then kept
/// ```
///
/// Two queries with the same key must select the same values. ``AllObjectsQuery``, ``IdsQuery`` and ``IdQuery``
/// adopt it; a query of your own may, and is then answered from the cache once the main source has answered it,
/// even if only the main source understands it.
public protocol CacheKeyQuery: Query {
    /// What names this query's list in a cache.
    var cacheKey: String { get }
}

extension AllObjectsQuery: CacheKeyQuery {
    /// `"AllObjectsQuery()"`.
    public var cacheKey: String { "AllObjectsQuery()" }
}

extension IdsQuery: CacheKeyQuery {
    /// `IdsQuery([...])`, the ids in order.
    public var cacheKey: String { "IdsQuery(\(ids.map { "\($0)" }))" }
}

extension IdQuery: CacheKeyQuery {
    /// `IdQuery(<id>)`.
    public var cacheKey: String { "IdQuery(\(id))" }
}
