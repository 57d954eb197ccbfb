import Foundation
import InteractorsData

/// A source's table and the statements that read and write it.
///
/// The schema, one row per value:
///
/// ```sql
/// CREATE TABLE "notes" (
///     position INTEGER PRIMARY KEY,   -- the rowid: values keep the order they were first stored in
///     id BLOB NOT NULL UNIQUE,        -- the id's key (see SQLiteKey); BLOB affinity keeps text as text, integers as integers
///     value TEXT NOT NULL,            -- the value's JSON
///     stored_at REAL NOT NULL         -- when it was last stored, in seconds since 1970
/// )
/// ```
///
/// Names starting `sqlite_` are SQLite's and names starting `interactors_` are kept for the library's own tables
/// (the cache's lists and times), so neither can be a source's table.
struct TableSQL: Sendable {
    /// The table's name as the app gave it.
    let name: String
    /// The name as SQLite compares table names, ASCII letters without case ("Notes" and "notes" are one table):
    /// what the observers of a table are kept by.
    let identity: String
    let create: String
    let upsert: String
    /// Inserts a row unless one has its id: a create-only put, in one statement (`changes` tells which).
    let insertIfAbsent: String
    let selectAll: String
    let selectOne: String
    /// The first rows by id, through the `id` column's index: `?1` the limit.
    let selectFirstPage: String
    /// The first rows whose id is greater than `?1`, through the index: `?2` the limit.
    let selectPageAfter: String
    let deleteOne: String
    let deleteEverything: String
    /// The statements of the cache index that name this table.
    let cacheIndex: CacheIndexSQL

    /// The columns every source's table has (it may have more).
    static let columns = ["position", "id", "value", "stored_at"]

    init(table name: String) throws(DataError) {
        let lowercased = name.lowercased()
        guard !name.isEmpty, !lowercased.hasPrefix("sqlite_"), !lowercased.hasPrefix("interactors_"),
            !name.contains("\0")
        else {
            throw .misuse(
                "\"\(name)\" cannot be a table name: names starting sqlite_ or interactors_ are reserved, and a name "
                    + "must not be empty nor hold a NUL character"
            )
        }
        let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        self.name = name
        self.identity = String(
            decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 },
            as: UTF8.self
        )
        self.create = """
            CREATE TABLE IF NOT EXISTS \(quoted) (position INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, \
            value TEXT NOT NULL, stored_at REAL NOT NULL)
            """
        self.upsert = """
            INSERT INTO \(quoted) (id, value, stored_at) VALUES (?1, ?2, ?3) \
            ON CONFLICT (id) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at
            """
        self.insertIfAbsent = """
            INSERT INTO \(quoted) (id, value, stored_at) VALUES (?1, ?2, ?3) ON CONFLICT (id) DO NOTHING
            """
        self.selectAll = "SELECT id, value FROM \(quoted) ORDER BY position"
        self.selectOne = "SELECT id, value FROM \(quoted) WHERE id = ?1"
        self.selectFirstPage = "SELECT id, value FROM \(quoted) ORDER BY id LIMIT ?1"
        self.selectPageAfter = "SELECT id, value FROM \(quoted) WHERE id > ?1 ORDER BY id LIMIT ?2"
        self.deleteOne = "DELETE FROM \(quoted) WHERE id = ?1"
        self.deleteEverything = "DELETE FROM \(quoted)"
        self.cacheIndex = CacheIndexSQL(table: quoted)
    }

    // MARK: Reading rows

    /// The rows `selection` names, as stored: every row in storage order, or the rows of some keys in their
    /// order (a key asked twice answers twice; a missing key answers nothing), all from one commit.
    func rows(_ selection: RowSelection, on connection: SQLiteConnection) throws(DataError) -> [StoredRow] {
        switch selection {
        case .all:
            return try connection.withStatement(selectAll) { statement throws(DataError) in
                var rows: [StoredRow] = []
                while try statement.step() {
                    rows.append(StoredRow(key: statement.key(at: 0), json: statement.utf8Data(at: 1)))
                }
                return rows
            }
        case .page(let after, let limit):
            return try connection.withStatement(after == nil ? selectFirstPage : selectPageAfter) {
                statement throws(DataError) in
                if let after {
                    statement.bind(after, at: 1)
                    statement.bind(limit, at: 2)
                } else {
                    statement.bind(limit, at: 1)
                }
                var rows: [StoredRow] = []
                rows.reserveCapacity(limit)
                while try statement.step() {
                    rows.append(StoredRow(key: statement.key(at: 0), json: statement.utf8Data(at: 1)))
                }
                return rows
            }
        case .keys(let keys) where keys.count == 1:
            return try row(keys[0], on: connection).map { [$0] } ?? []
        case .keys(let keys):
            // Several statements: one read transaction, so that they all see the same commit.
            return try connection.reading { () throws(DataError) in
                var rows: [StoredRow] = []
                rows.reserveCapacity(keys.count)
                for key in keys {
                    if let row = try row(key, on: connection) { rows.append(row) }
                }
                return rows
            }
        }
    }

    private func row(_ key: SQLiteKey, on connection: SQLiteConnection) throws(DataError) -> StoredRow? {
        try connection.withStatement(selectOne) { statement throws(DataError) in
            statement.bind(key, at: 1)
            return try statement.step() ? StoredRow(key: key, json: statement.utf8Data(at: 1)) : nil
        }
    }

    // MARK: Creating

    /// Creates the table and the cache index's tables if they are missing, and checks that existing ones are
    /// tables this library keeps.
    func create(on connection: SQLiteConnection) throws(DataError) {
        try connection.execute(create)
        try connection.execute(CacheIndexSQL.create)
        try connection.execute(PendingWritesSQL.create)
        try Self.check(name, has: Self.columns, on: connection)
        for (table, columns) in CacheIndexSQL.tables.sorted(by: { $0.key < $1.key }) {
            try Self.check(table, has: columns, on: connection)
        }
        try Self.check(PendingWritesSQL.table.name, has: PendingWritesSQL.table.columns, on: connection)
    }

    /// Checks, creating nothing, that the table exists and is one this library keeps: for a source that must not
    /// write. Fails with `storageFailed` if it is missing.
    func checkExists(on connection: SQLiteConnection) throws(DataError) {
        guard try Self.check(name, has: Self.columns, on: connection) else {
            throw .misuse(
                "there is no table \(name) in \(connection.location), and a read-only source or database creates none"
            )
        }
    }

    /// Fails with `corruptStore` unless `table` has `columns` (columns a later version adds, with `ALTER TABLE …
    /// ADD COLUMN`, do not make it another program's table); answers whether the table exists.
    @discardableResult
    private static func check(
        _ table: String,
        has columns: [String],
        on connection: SQLiteConnection
    )
        throws(DataError) -> Bool
    {
        let found = try connection.withStatement("SELECT name FROM pragma_table_info(?1)") {
            statement throws(DataError) in
            statement.bind(table, at: 1)
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0)) }
            return names
        }
        guard !found.isEmpty else { return false }
        guard Set(found).isSuperset(of: columns) else {
            throw DataError(
                code: .corruptStore,
                message: "table \(table) in \(connection.location) is not a table SQLiteDataSource keeps (its columns "
                    + "are \(found.joined(separator: ", "))); the source was not opened, and the table was not changed"
            )
        }
        return true
    }
}

/// Which rows of a table a read needs: all of them, those of some keys, in order, or a page by id.
enum RowSelection: Hashable, Sendable {
    case all
    case keys([SQLiteKey])
    /// The first `limit` rows whose id is greater than `after` (from the first, when nil), in id order.
    case page(after: SQLiteKey?, limit: Int)
}

/// A row as stored: its key and its value's JSON, not yet decoded.
struct StoredRow: Sendable {
    let key: SQLiteKey
    let json: Data
}
