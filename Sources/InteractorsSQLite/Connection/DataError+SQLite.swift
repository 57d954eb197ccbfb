import Foundation
import InteractorsData

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// What SQLite answered: its result code and its message, kept as a `DataError`'s underlying error.
struct SQLiteResult: Error, CustomStringConvertible {
    let code: Int32
    /// "SQLite error 11 (database disk image is malformed): …".
    let description: String

    /// Whether SQLite found the file damaged, or not a database at all.
    var isCorruption: Bool {
        code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB
    }
}

extension DataError {
    /// The error for SQLite result `code` while doing `step` on the database at `location` (its file name), the file
    /// `fileURL` (nil in memory).
    ///
    /// A file that is not a database (`SQLITE_NOTADB`), or one SQLite finds damaged (`SQLITE_CORRUPT`), is
    /// `corruptStore`; anything else (I/O, locking, permissions, a full disk) is `storageFailed`. Either way the
    /// message carries SQLite's code and its own message, and the underlying error is the ``SQLiteResult``.
    static func sqlite(
        _ code: Int32,
        _ connection: OpaquePointer?,
        _ step: String,
        _ location: String,
        fileURL: URL?
    ) -> DataError {
        let explanation =
            connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let result = SQLiteResult(
            code: code,
            description: "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(explanation)"
        )
        guard !result.isCorruption else {
            // What happens to the file is the database's call (see `CorruptDatabase`); until it makes it, the file
            // is still in use.
            return .corrupt(location, result, fate: "the database is still open on it", fileURL: fileURL)
        }
        return DataError(
            code: .storageFailed,
            message: "cannot \(step) \(location): \(result)",
            underlying: result,
            fileURL: fileURL
        )
    }

    /// `corruptStore` for the damaged file `location` (its name; `fileURL` the whole of it), saying what became of
    /// it (`fate`).
    static func corrupt(_ location: String, _ result: SQLiteResult, fate: String, fileURL: URL?) -> DataError {
        DataError(
            code: .corruptStore,
            message: "\(location) is damaged or is not a SQLite database (\(result)); \(fate)",
            underlying: result,
            fileURL: fileURL
        )
    }

    /// The ``SQLiteResult`` of a corruption SQLite reported; nil for any other error.
    var corruption: SQLiteResult? {
        guard code == .corruptStore, let result = underlying as? SQLiteResult, result.isCorruption else { return nil }
        return result
    }

    /// Whether SQLite answered that the database is locked by another connection (`SQLITE_BUSY` and its
    /// extended codes, `SQLITE_BUSY_SNAPSHOT` among them).
    var isBusy: Bool {
        guard let result = underlying as? SQLiteResult else { return false }
        return result.code & 0xFF == SQLITE_BUSY
    }

    /// Misuse of the database or of a transaction, said plainly.
    static func misuse(_ message: String) -> DataError {
        DataError(code: .storageFailed, message: message)
    }
}
