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
        let values = Array(values)
        // Strings and integers, the common ids, compared in code specialised for them (a generic comparison, with
        // a dynamic cast at each step, cost 100 times as much on 100,000 values).
        if ID.self == String.self {
            let ids = values.map { unsafeBitCast($0.id, to: String.self) }
            let after = after.map { unsafeBitCast($0, to: String.self) }
            return PageSelection.first(limit, of: ids, after: after, by: PageSelection.utf8Precedes).map { values[$0] }
        }
        if ID.self == Int.self {
            let ids = values.map { unsafeBitCast($0.id, to: Int.self) }
            let after = after.map { unsafeBitCast($0, to: Int.self) }
            return PageSelection.first(limit, of: ids, after: after, by: <).map { values[$0] }
        }
        let ids = values.map { unsafeBitCast($0.id, to: ID.self) }
        return PageSelection.first(limit, of: ids, after: after, by: <).map { values[$0] }
    }
}

/// Picks a page out of ids in any order.
enum PageSelection {
    /// The places in `ids` of the `limit` smallest ids greater than `after`, smallest first, by `precedes`: kept in
    /// order as the ids go by, so that most ids are rejected with one comparison (an id joins the page less and
    /// less often), O(n) for ids in any order rather than a sort of them all.
    static func first<ID>(
        _ limit: Int,
        of ids: [ID],
        after: ID?,
        by precedes: (ID, ID) -> Bool
    ) -> [Int] {
        var page: [(id: ID, place: Int)] = []
        page.reserveCapacity(limit + 1)
        for (place, id) in ids.enumerated() {
            if let after, !precedes(after, id) { continue }
            if page.count == limit, !precedes(id, page[page.count - 1].id) { continue }
            var low = 0
            var high = page.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(page[middle].id, id) { low = middle + 1 } else { high = middle }
            }
            page.insert((id, place), at: low)
            if page.count > limit { page.removeLast() }
        }
        return page.map(\.place)
    }

    /// Whether `first` comes before `second` by their UTF-8 bytes, as SQLite's `BINARY` collation orders text.
    static func utf8Precedes(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }
}

extension DataError {
    /// The failure of a page with a negative limit, which no store answers (SQLite would read every row).
    package static func invalidPage(_ query: any AnyPageQuery, for source: String) -> DataError? {
        guard query.limit < 0 else { return nil }
        return DataError(code: .invalidQuery, message: "\(query) asks \(source) for a negative number of values")
    }
}
