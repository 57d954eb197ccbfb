public import InteractorsData
import PostgresNIO

/// The statements of a ``PostgresTable``, in one place: the table, its reads and its writes.
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS books (
///     id text PRIMARY KEY,           -- the value's id
///     body jsonb NOT NULL,           -- the value, as JSON
///     position bigint GENERATED ALWAYS AS IDENTITY  -- the order values were first stored
/// )
/// ```
///
/// A put is an upsert that leaves `position` alone, so a replaced value keeps its place in `GET /books`. The
/// name is a plain SQL identifier (lower-case letters, digits and `_`, not starting with a digit or `pg_`), so
/// it can be written into the statements as it is.
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
        CREATE TABLE IF NOT EXISTS \(unescaped: name) (id text PRIMARY KEY, body jsonb NOT NULL, \
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

    func deleteSome(_ ids: [String]) -> PostgresQuery { "DELETE FROM \(unescaped: name) WHERE id = ANY(\(ids))" }

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

    /// The selection of `query`: `AllObjectsQuery`, `IdQuery`, `IdsQuery` or `FilterQuery`, as the SQLite source
    /// answers them; `queryNotSupported` (naming `source`) for any other.
    public init(_ query: any Query, source: String) throws(DataError) {
        switch query {
        case is AllObjectsQuery: self = .all
        case let query as IdQuery<String>: self = .ids([query.id])
        case let query as IdsQuery<String>: self = .ids(query.ids)
        case let query as FilterQuery<Value>: self = .matching(query.isIncluded)
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
