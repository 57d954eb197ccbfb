import InteractorsData

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

extension DataError {
    /// The error for SQLite result `code` while doing `step` on the database at `location`.
    ///
    /// A file that is not a database (`SQLITE_NOTADB`), or one SQLite finds damaged (`SQLITE_CORRUPT`), is
    /// `corruptStore` and is left as it is; anything else (I/O, locking, permissions, a full disk)
    /// is `storageFailed`. Either way the message carries SQLite's code and its own message.
    static func sqlite(_ code: Int32, _ connection: OpaquePointer?, _ step: String, _ location: String) -> DataError {
        let explanation =
            connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let sqlite = "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(explanation)"
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return DataError(
                code: .corruptStore,
                message: "\(location) is not a database SQLite can read (\(sqlite)); it was left as it is"
            )
        default:
            return DataError(code: .storageFailed, message: "cannot \(step) \(location): \(sqlite)")
        }
    }

    /// Misuse of the database or of a transaction, said plainly.
    static func misuse(_ message: String) -> DataError {
        DataError(code: .storageFailed, message: message)
    }
}
