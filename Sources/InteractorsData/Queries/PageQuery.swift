/// One page of a collection: the first ``limit`` values whose id is greater than ``after``, in ascending id order.
///
/// ```swift
/// let first = try books.getAll(PageQuery<String>(limit: 50)).get()
/// let next = try books.getAll(PageQuery(limit: 50, after: first.last?.id)).get()  // empty after the last page
/// ```
///
/// Ids are ordered as SQLite's `BINARY` collation orders them: integers numerically, strings by their UTF-8 bytes
/// (`"B" < "a" < "é"`, unlike Swift's `<` on strings), other ids by their own `<`. Paging by id rather than by
/// offset keeps a page stable while values are added and deleted before it: a value is never shown twice, and
/// none is skipped unless it was deleted.
///
/// ``InMemoryDataSource``, ``FileDataSource``, ``UserDefaultsDataSource`` and InteractorsSQLite's
/// `SQLiteDataSource` answer it (SQLite through the `id` column's index, reading only the page);
/// ``RESTDataSource`` sends `GET path?limit=N&after=ID`. A ``CacheRepository`` asks the main source first and
/// keeps the values it answered, with no list: the cache's page stands in only when the main source is
/// unavailable. A limit below 0 fails with ``DataError/Code/invalidQuery``; 0 answers an empty page.
public struct PageQuery<ID: Comparable & Hashable & Sendable>: Query, CustomStringConvertible {
    /// How many values at most.
    public let limit: Int
    /// The id the page starts after; nil for the first page.
    public let after: ID?

    /// The first `limit` values whose id is greater than `after` (from the first value, when nil).
    public init(limit: Int, after: ID? = nil) {
        self.limit = limit
        self.after = after
    }

    /// `PageQuery(limit: 50, after: b7)`, for error messages and logs.
    public var description: String {
        "PageQuery(limit: \(limit)\(after.map { ", after: \($0)" } ?? ""))"
    }
}

/// A ``PageQuery`` of any id type, for the stores, whose values' id type need not be `Comparable`.
package protocol AnyPageQuery: Query {
    /// How many values at most.
    var limit: Int { get }
    /// The id type the query pages by.
    var idType: Any.Type { get }
    /// The id the page starts after, if any.
    var anyAfter: (any Sendable)? { get }
    /// The page of `values`: nil if their id type is not the query's.
    func page<Value: Identifiable>(of values: some Sequence<Value>) -> [Value]?
}

extension PageQuery: AnyPageQuery {
    package var idType: Any.Type { ID.self }
    package var anyAfter: (any Sendable)? { after }

    package func page<Value: Identifiable>(of values: some Sequence<Value>) -> [Value]? {
        guard Value.ID.self == ID.self else { return nil }
        guard limit > 0 else { return [] }
        var page: [(id: ID, value: Value)] = []
        for value in values {
            let id = value.id as! ID
            if let after, !Self.precedes(after, id) { continue }
            page.append((id, value))
        }
        page.sort { Self.precedes($0.id, $1.id) }
        return page.prefix(limit).map(\.value)
    }

    /// Whether `first` comes before `second`: strings by their UTF-8 bytes (SQLite's `BINARY`), others by `<`.
    static func precedes(_ first: ID, _ second: ID) -> Bool {
        if let first = first as? String, let second = second as? String {
            return first.utf8.lexicographicallyPrecedes(second.utf8)
        }
        return first < second
    }
}

extension DataError {
    /// The failure of a page with a negative limit, which no store answers (SQLite would read every row).
    package static func invalidPage(_ query: any AnyPageQuery, for source: String) -> DataError? {
        guard query.limit < 0 else { return nil }
        return DataError(code: .invalidQuery, message: "\(query) asks \(source) for a negative number of values")
    }
}
