import Foundation
import InteractorsData

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// SQLite copies bound text at once (`SQLITE_TRANSIENT`, a C macro Swift does not import).
private let copyBoundBytes = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement of one ``SQLiteConnection``, used by that connection's thread only.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    func finalize() {
        sqlite3_finalize(handle)
    }

    /// Clears the bindings and rewinds, ready for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Binding (1-based, as in SQL's ?1)

    func bind(_ key: SQLiteKey, at index: Int32) {
        switch key {
        case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
        case .text(let text): bind(text, at: index)
        }
    }

    /// Binds UTF-8 bytes (a value's JSON) as text.
    func bind(utf8 data: Data, at index: Int32) {
        _ = data.withUnsafeBytes { bytes in
            if let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) {
                sqlite3_bind_text(handle, index, start, Int32(bytes.count), copyBoundBytes)
            } else {
                sqlite3_bind_text(handle, index, "", 0, copyBoundBytes)
            }
        }
    }

    func bind(_ double: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, double)
    }

    func bind(_ integer: Int, at index: Int32) {
        sqlite3_bind_int64(handle, index, Int64(integer))
    }

    /// Binds text (a key, a table's name, a list's key) with its length in bytes, not up to its first NUL: "a\0x"
    /// and "a\0y" are two texts, not both "a".
    func bind(_ text: String, at index: Int32) {
        var text = text
        _ = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                if let start = bytes.baseAddress {
                    sqlite3_bind_text(handle, index, start, Int32(bytes.count), copyBoundBytes)
                } else {
                    // Not a NULL pointer, which would bind SQL NULL rather than empty text.
                    sqlite3_bind_text(handle, index, "", 0, copyBoundBytes)
                }
            }
        }
    }

    // MARK: Stepping

    /// Steps once: `true` with a row to read, `false` when done.
    func step() throws(DataError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw connection.failure(code, "run \(String(cString: sqlite3_sql(handle))) on")
        }
    }

    /// Steps to the end, ignoring rows: for writes.
    func run() throws(DataError) {
        while try step() {}
    }

    // MARK: Columns (0-based)

    /// A column's text, read with its length in bytes: a NUL inside it is kept.
    func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A column's bytes as text (a value's JSON).
    func utf8Data(at column: Int32) -> Data {
        guard let bytes = sqlite3_column_text(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    func integer(at column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    /// A column's number; nil if it is NULL (a time that is not known).
    func double(at column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    /// A column's bytes as text; nil if it is NULL (a value a list names that the table no longer holds).
    func optionalUTF8Data(at column: Int32) -> Data? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : utf8Data(at: column)
    }

    func key(at column: Int32) -> SQLiteKey {
        sqlite3_column_type(handle, column) == SQLITE_INTEGER
            ? .integer(sqlite3_column_int64(handle, column)) : .text(text(at: column))
    }
}
