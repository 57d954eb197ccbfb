import Interactors
import InteractorsData

/// The read connections of a database file: a read checks one out (opening a new one when none is idle), so
/// reads run side by side and never wait for one another, and, under WAL, never for the writer either.
final class SQLiteReaderPool: Sendable {
    private let path: String
    private let location: String
    /// The connections waiting for the next read; nil once the pool is closed.
    private let idle = LockedBox<[SQLiteConnection]?>([])

    /// Idle connections kept open for the next reads; more may be open while many reads run at once.
    private static let idleLimit = 4

    init(path: String, location: String) {
        self.path = path
        self.location = location
    }

    /// Runs `body` on a read connection (which sees the last commit; statements that must see the same one run
    /// in a read transaction: `SQLiteConnection.reading(_:)`).
    func read<T>(_ body: (SQLiteConnection) throws(DataError) -> T) throws(DataError) -> T {
        let reader: SQLiteConnection
        if let idleReader = idle.withLock({ $0?.popLast() }) { reader = idleReader } else { reader = try open() }
        defer { checkIn(reader) }
        return try body(reader)
    }

    private func open() throws(DataError) -> SQLiteConnection {
        let reader = try SQLiteConnection(path: path, location: location)
        try reader.execute("PRAGMA query_only = ON")
        return reader
    }

    private func checkIn(_ reader: SQLiteConnection) {
        let surplus: SQLiteConnection? = idle.withLock { idle in
            guard let count = idle?.count, count < Self.idleLimit else { return reader }
            idle?.append(reader)
            return nil
        }
        // Closed here, outside the lock, if it is one too many or the pool is closed.
        surplus?.close()
    }

    /// Closes the idle connections now, and each busy one when its read ends: the database was released.
    func close() {
        let closing = idle.withLock { idle in
            defer { idle = nil }
            return idle ?? []
        }
        for reader in closing { reader.close() }
    }
}
