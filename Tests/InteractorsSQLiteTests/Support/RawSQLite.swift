import DataTestSupport
import Foundation

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The SQLite C API straight, for what the tests check behind the store's back: how rows are stored, tables the
/// store did not make, damaged files.
final class RawSQLite {
    private var handle: OpaquePointer?

    init(_ url: URL) {
        let code = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        precondition(code == SQLITE_OK, "cannot open \(url.path): \(code)")
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`; SQLite's result code.
    @discardableResult
    func execute(_ sql: String) -> Int32 {
        sqlite3_exec(handle, sql, nil, nil, nil)
    }

    /// Every row `sql` answers, each column as SQLite's type name and text: `["integer 5", "text ada"]`.
    func rows(_ sql: String) -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    let type =
                        switch sqlite3_column_type(statement, column) {
                        case SQLITE_INTEGER: "integer"
                        case SQLITE_FLOAT: "real"
                        case SQLITE_TEXT: "text"
                        case SQLITE_BLOB: "blob"
                        default: "null"
                        }
                    let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    return "\(type) \(text)"
                }
            )
        }
        return rows
    }
}
