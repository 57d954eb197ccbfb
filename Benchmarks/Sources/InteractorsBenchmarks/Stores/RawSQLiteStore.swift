import Foundation

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The floor for the SQLite store: the same table, journal and sync settings (WAL, `synchronous = FULL`, one
/// `BEGIN IMMEDIATE` … `COMMIT` per put) and the same upsert, through the raw C API with prepared statements
/// and a value already encoded: what any SQLite store pays at the least.
final class RawSQLiteStore: @unchecked Sendable {
    // @unchecked Sendable: used by the harness thread only.
    private var handle: OpaquePointer?
    private var upsert: OpaquePointer?
    private var selectOne: OpaquePointer?
    private var selectAll: OpaquePointer?
    private var selectPage: OpaquePointer?
    private let json: Data

    init(url: URL, count: Int) {
        json = try! JSONEncoder().encode(StoreNote.number(0))
        precondition(sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
        sqlite3_busy_timeout(handle, 10_000)
        execute("PRAGMA journal_mode = WAL")
        execute("PRAGMA synchronous = FULL")
        execute(
            """
            CREATE TABLE IF NOT EXISTS notes (position INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE, \
            value TEXT NOT NULL, stored_at REAL NOT NULL)
            """
        )
        upsert = prepare(
            """
            INSERT INTO notes (id, value, stored_at) VALUES (?1, ?2, ?3) \
            ON CONFLICT (id) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at
            """
        )
        selectOne = prepare("SELECT id, value FROM notes WHERE id = ?1")
        selectAll = prepare("SELECT id, value FROM notes ORDER BY position")
        selectPage = prepare("SELECT id, value FROM notes WHERE id > ?1 ORDER BY id LIMIT ?2")
        execute("BEGIN IMMEDIATE")
        for index in 0..<count { insert(index) }
        execute("COMMIT")
    }

    deinit {
        for statement in [upsert, selectOne, selectAll, selectPage] { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// One put in a transaction of its own.
    func put(_ index: Int) {
        execute("BEGIN IMMEDIATE")
        insert(index)
        execute("COMMIT")
    }

    /// The value's bytes, copied out (not decoded).
    func get(_ index: Int) -> Data {
        defer { sqlite3_reset(selectOne) }
        sqlite3_bind_text(selectOne, 1, "note-\(index)", -1, transient)
        guard sqlite3_step(selectOne) == SQLITE_ROW else { return Data() }
        return Data(bytes: sqlite3_column_text(selectOne, 1), count: Int(sqlite3_column_bytes(selectOne, 1)))
    }

    /// Every value's bytes, in storage order.
    func getAll() -> [Data] {
        defer { sqlite3_reset(selectAll) }
        var values: [Data] = []
        while sqlite3_step(selectAll) == SQLITE_ROW {
            values.append(
                Data(bytes: sqlite3_column_text(selectAll, 1), count: Int(sqlite3_column_bytes(selectAll, 1)))
            )
        }
        return values
    }

    /// The values' bytes of the first `limit` rows whose id is greater than `after`, in id order, through the
    /// `id` column's index.
    func page(after: String, limit: Int) -> [Data] {
        defer { sqlite3_reset(selectPage) }
        sqlite3_bind_text(selectPage, 1, after, -1, transient)
        sqlite3_bind_int64(selectPage, 2, Int64(limit))
        var values: [Data] = []
        while sqlite3_step(selectPage) == SQLITE_ROW {
            values.append(
                Data(bytes: sqlite3_column_text(selectPage, 1), count: Int(sqlite3_column_bytes(selectPage, 1)))
            )
        }
        return values
    }

    private func insert(_ index: Int) {
        defer { sqlite3_reset(upsert) }
        sqlite3_bind_text(upsert, 1, "note-\(index)", -1, transient)
        _ = json.withUnsafeBytes { bytes in
            sqlite3_bind_text(
                upsert,
                2,
                bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                Int32(bytes.count),
                transient
            )
        }
        sqlite3_bind_double(upsert, 3, Date().timeIntervalSince1970)
        precondition(sqlite3_step(upsert) == SQLITE_DONE)
    }

    private func execute(_ sql: String) {
        precondition(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, sql)
    }

    private func prepare(_ sql: String) -> OpaquePointer? {
        var statement: OpaquePointer?
        precondition(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, sql)
        return statement
    }
}

/// SQLite copies bound text at once (`SQLITE_TRANSIENT`, a C macro Swift does not import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
