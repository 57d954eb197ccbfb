/// Every object a source holds; with `deleteAll`, the whole collection.
public struct AllObjectsQuery: Query, CustomStringConvertible {
    /// The query for everything.
    public init() {}

    /// `AllObjectsQuery()`, for error messages and logs.
    public var description: String { "AllObjectsQuery()" }
}
