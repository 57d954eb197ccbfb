public import InteractorsData
import PostgresNIO

/// The statements of a ``PostgresTable``, in one place: the table, its reads and its writes.
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS books (
///     id text COLLATE "C" PRIMARY KEY,  -- the value's id, ordered by its bytes
///     body jsonb NOT NULL,              -- the value, as JSON
///     position bigint GENERATED ALWAYS AS IDENTITY  -- the order values were first stored
/// )
/// ```
///
/// A put is an upsert that leaves `position` alone, so a replaced value keeps its place in `GET /books`. A page
/// (`PageQuery`) is in the library's id order, strings by their UTF-8 bytes, which is the `"C"` collation's order
/// (the database's own collation, `en_US.UTF-8` say, would put `a` before `B`): its statements say `COLLATE "C"`,
/// and the primary key of a table this source creates is in that collation, so its index serves them. (A table
/// created before the key had it is still paged right, by a sort of its ids.) The name is a plain SQL identifier
/// (lower-case letters, digits and `_`, not starting with a digit or `pg_`), so it can be written into the
/// statements as it is.
public struct PostgresTableSQL: Sendable {
    /// The table's name.
    public let name: String

    /// The statements for `table`; `storageFailed` for a name that is not a plain identifier.
    public init(table: String) throws(DataError) {
        let first = table.utf8.first ?? 0
        let isPlain =
            !table.isEmpty && table.utf8.count <= 63 && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            && !table.hasPrefix("pg_")
            && table.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            }
        guard isPlain else {
            throw DataError(
                code: .storageFailed,
                message: "'\(table)' is not a table name the PostgreSQL source takes (a-z, 0-9, _; not pg_…)"
            )
        }
        name = table
    }

    // MARK: The table

    var create: PostgresQuery {
        """
        CREATE TABLE IF NOT EXISTS \(unescaped: name) (id text COLLATE "C" PRIMARY KEY, body jsonb NOT NULL, \
        position bigint GENERATED ALWAYS AS IDENTITY)
        """
    }

    /// Held until the creating transaction ends: instances that start together create the table one at a time.
    var lockCreation: PostgresQuery { "SELECT pg_advisory_xact_lock(hashtext(\("BookshelfServer.create." + name)))" }

    /// Fails (SQLSTATE class 42) when the table lacks a column this source reads.
    var checkColumns: PostgresQuery { "SELECT id, body, position FROM \(unescaped: name) LIMIT 0" }

    // MARK: Reading

    func selectOne(_ id: String) -> PostgresQuery { "SELECT body FROM \(unescaped: name) WHERE id = \(id)" }

    func selectSome(_ ids: [String]) -> PostgresQuery {
        "SELECT id, body FROM \(unescaped: name) WHERE id = ANY(\(ids))"
    }

    var selectAll: PostgresQuery { "SELECT body FROM \(unescaped: name) ORDER BY position" }

    var selectAllForUpdate: PostgresQuery { "SELECT body FROM \(unescaped: name) ORDER BY position FOR UPDATE" }

    /// The first `limit` rows whose id is after `after`, by the ids' bytes: a range of the primary key's index.
    func selectPage(limit: Int, after: String?) -> PostgresQuery {
        guard let after else {
            return "SELECT id, body FROM \(unescaped: name) ORDER BY id COLLATE \"C\" LIMIT \(limit)"
        }
        return """
            SELECT id, body FROM \(unescaped: name) WHERE id COLLATE "C" > \(after) \
            ORDER BY id COLLATE "C" LIMIT \(limit)
            """
    }

    var count: PostgresQuery { "SELECT count(*)::bigint FROM \(unescaped: name)" }

    // MARK: Writing

    /// Inserts the row, or replaces the body of the row with its id.
    func upsert<Value: Codable & Identifiable & Sendable>(_ value: Value) throws -> PostgresQuery
    where Value.ID == String {
        try """
        INSERT INTO \(unescaped: name) (id, body) VALUES (\(value.id), \(JSONB(value))) \
        ON CONFLICT (id) DO UPDATE SET body = excluded.body
        """
    }

    /// Inserts the row unless one has its id; returns a row when it inserted (a conflict, even one with an insert
    /// not yet committed, waits for it and then inserts nothing).
    func insertIfAbsent<Value: Codable & Identifiable & Sendable>(_ value: Value) throws -> PostgresQuery
    where Value.ID == String {
        try """
        INSERT INTO \(unescaped: name) (id, body) VALUES (\(value.id), \(JSONB(value))) \
        ON CONFLICT (id) DO NOTHING RETURNING 1
        """
    }

    func deleteSome(_ ids: [String]) -> PostgresQuery { "DELETE FROM \(unescaped: name) WHERE id = ANY(\(ids))" }

    /// Deletes the row of `id`; returns a row when there was one.
    func deleteOne(_ id: String) -> PostgresQuery { "DELETE FROM \(unescaped: name) WHERE id = \(id) RETURNING 1" }

    var deleteAll: PostgresQuery { "DELETE FROM \(unescaped: name)" }

    /// Answered only after the previous statement's ReadyForQuery: see ``PostgresTable/write(_:on:)``.
    var afterCommit: PostgresQuery { "SELECT 1" }
}

/// What a read or a delete of a ``PostgresTable`` names: planned from the library's queries by
/// ``init(_:source:)``.
public enum PostgresSelection<Value: Identifiable & Sendable>: Sendable where Value.ID == String {
    /// Every row, in the order first stored.
    case all
    /// The rows of these ids; a read answers those found, in this order.
    case ids([String])
    /// The rows whose value this condition keeps, evaluated in Swift over every row.
    case matching(@Sendable (Value) -> Bool)
    /// The first `limit` rows whose id is greater than `after` (from the first, when nil), by the ids' UTF-8 bytes:
    /// a `PageQuery`.
    case page(limit: Int, after: String?)

    /// The selection of `query`: `AllObjectsQuery`, `IdQuery`, `IdsQuery`, `FilterQuery` or `PageQuery`, as the
    /// SQLite source answers them (a page's negative limit is `invalidQuery`); `queryNotSupported` (naming
    /// `source`) for any other.
    public init(_ query: any Query, source: String) throws(DataError) {
        switch query {
        case is AllObjectsQuery: self = .all
        case let query as IdQuery<String>: self = .ids([query.id])
        case let query as IdsQuery<String>: self = .ids(query.ids)
        case let query as FilterQuery<Value>: self = .matching(query.isIncluded)
        case let query as PageQuery<String>:
            guard query.limit >= 0 else {
                throw DataError(code: .invalidQuery, message: "\(query) asks \(source) for a negative number of values")
            }
            self = .page(limit: query.limit, after: query.after)
        default: throw DataError(code: .queryNotSupported, message: "\(source) cannot answer \(query)")
        }
    }

    /// Whether a row read for this selection stays in the answer.
    func keeps(_ value: Value) -> Bool {
        guard case .matching(let isIncluded) = self else { return true }
        return isIncluded(value)
    }
}

/// A value kept as `jsonb`: PostgresNIO encodes an `Encodable` type as JSONB and decodes a `Decodable` one from it,
/// straight from and into its buffers.
struct JSONB<Wrapped: Codable & Sendable>: Codable, Sendable, PostgresCodable {
    var wrapped: Wrapped

    init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    init(from decoder: any Decoder) throws { wrapped = try Wrapped(from: decoder) }

    func encode(to encoder: any Encoder) throws { try wrapped.encode(to: encoder) }
}
