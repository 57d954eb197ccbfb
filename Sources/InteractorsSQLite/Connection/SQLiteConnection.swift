import Foundation
import InteractorsData

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// One open SQLite connection and its prepared statements.
///
/// Opened with `SQLITE_OPEN_NOMUTEX`: SQLite takes no lock of its own, so a connection must be used by one thread
/// at a time. The database keeps to that: the writer's connection is used on the writer's thread only, and a
/// reader's connection by the one read that has checked it out of the pool.
final class SQLiteConnection: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time (see above); handed between threads through the pool's
    // lock or the writer's jobs, both of which order the accesses.

    /// How a connection opens its file.
    enum Access {
        /// Read and write, creating the file when missing: the writer's when the database opens, and an
        /// in-memory database's.
        case create
        /// Read and write a file that exists, never creating it: the writer's when it opens its file again.
        case write
        /// Read only, never creating the file (`SQLITE_OPEN_READONLY`): the readers', and every connection of a
        /// database opened `readOnly`.
        case read
    }

    let handle: OpaquePointer
    /// The database file's name, or "an in-memory database", for error messages.
    let location: String
    /// The database file, for ``DataError/fileURL``; nil in memory.
    let fileURL: URL?
    private var statements: [String: SQLiteStatement] = [:]

    /// How long a statement waits for another connection's or process's lock before it fails with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens the database at `path` (":memory:" for a new in-memory one) and configures it: extended result
    /// codes, the busy timeout, and, for a connection that may write, `synchronous = FULL` (with full syncs on
    /// Darwin).
    init(path: String, location: String, fileURL: URL? = nil, access: Access) throws(DataError) {
        var opened: OpaquePointer?
        let flags =
            switch access {
            case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            case .write: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
            case .read: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            }
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = DataError.sqlite(code, opened, "open", location, fileURL: fileURL)
            sqlite3_close_v2(opened)
            throw error
        }
        self.handle = opened
        self.location = location
        self.fileURL = fileURL
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Every connection syncs as the writer does: whichever connection closes last checkpoints the WAL into the
        // database file, and that checkpoint must reach the disk too.
        try execute("PRAGMA synchronous = FULL")
        #if canImport(Darwin)
        // Darwin's fsync leaves data in the drive's cache, where a power cut loses it; these make SQLite use
        // F_FULLFSYNC for commits and checkpoints.
        try execute("PRAGMA fullfsync = ON")
        try execute("PRAGMA checkpoint_fullfsync = ON")
        #endif
    }

    private var isClosed = false

    deinit {
        close()
    }

    /// Finalizes the statements and closes the connection (the last connection to a file closes its write-ahead
    /// log into it). Nothing may use the connection afterwards.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements.values { statement.finalize() }
        statements = [:]
        sqlite3_close_v2(handle)
    }

    /// Closes the connection leaving the write-ahead log and shared-memory files where they are
    /// (`SQLITE_FCNTL_PERSIST_WAL`): for a connection whose file was moved aside or away, whose close must not
    /// delete, by name, the files now at its path, which belong to another database.
    ///
    /// Nor is the log checkpointed into the file: SQLite skips the checkpoint a last connection makes on closing
    /// when its file is no longer the one at its path (its close checks `SQLITE_FCNTL_HAS_MOVED`), which is
    /// always so here, since the database renames a damaged file before closing its connections. (Swift cannot
    /// call `sqlite3_db_config`, a C variadic function, to set `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`.)
    func closeKeepingLogFiles() {
        guard !isClosed else { return }
        var persist: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        close()
    }

    // MARK: Running statements

    /// Runs `sql`, one statement or several, ignoring any rows.
    func execute(_ sql: String) throws(DataError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, "run \(sql) on") }
    }

    /// Runs the one statement `sql`, prepared once per connection: for the statements a transaction repeats
    /// (`BEGIN IMMEDIATE`, `SAVEPOINT`, `COMMIT`…), which `execute` would parse every time.
    func run(_ sql: String) throws(DataError) {
        try withStatement(sql) { statement throws(DataError) in try statement.run() }
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` run on this connection changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The first column of the first row `sql` answers, as text (for pragmas such as `journal_mode`).
    func text(_ sql: String) throws(DataError) -> String? {
        try withStatement(sql) { statement throws(DataError) in
            try statement.step() ? statement.text(at: 0) : nil
        }
    }

    /// Runs `body` with the prepared statement for `sql` (prepared once per connection), and resets it after.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws(DataError) -> T) throws(DataError) -> T {
        let statement = try prepared(sql)
        defer { statement.reset() }
        return try body(statement)
    }

    private func prepared(_ sql: String) throws(DataError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw failure(code, "prepare \(sql) for") }
        let statement = SQLiteStatement(prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    // MARK: The file

    /// Whether the file this connection opened is no longer the one at its path: renamed, moved or deleted since
    /// (`SQLITE_FCNTL_HAS_MOVED`: SQLite compares the inode it opened with the one at the path).
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        return code == SQLITE_OK && moved != 0
    }

    // MARK: Transactions

    /// Whether a transaction is open on this connection (SQLite ends one by itself after some failures: a full
    /// disk, an I/O error).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a read transaction, so that all its statements see one snapshot; inside a transaction
    /// already open (a read on the writer, during a write), in that one.
    func reading<T>(_ body: () throws(DataError) -> T) throws(DataError) -> T {
        guard !isInTransaction else { return try body() }
        try run("BEGIN DEFERRED")
        do throws(DataError) {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { try? run("ROLLBACK") }
            throw error
        }
    }

    // MARK: Errors

    /// The `DataError` for SQLite result `code`, with this connection's message, while doing `step`.
    func failure(_ code: Int32, _ step: String) -> DataError {
        DataError.sqlite(code, handle, step, location, fileURL: fileURL)
    }
}
