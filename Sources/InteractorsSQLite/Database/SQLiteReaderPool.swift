import Interactors
import InteractorsData

/// The read connections of a database file: a read checks one out (opening a new one when none is idle), so
/// reads run side by side and never wait for one another, and, under WAL, never for the writer either.
///
/// Reads run on the database's reader threads (``SQLiteDatabase``), so at most that many connections are in use
/// at once. A connection is opened read-only and never creates the file: if the file is gone, a read fails rather
/// than make an empty one the writer's log would then be deleted into.
final class SQLiteReaderPool: Sendable {
    private struct Reader {
        let connection: SQLiteConnection
        let generation: Int
    }

    let file: DatabaseFile
    /// The connections waiting for the next read; nil once the pool is closed.
    private let idle = LockedBox<[Reader]?>([])

    /// Idle connections kept open for the next reads: one per reader thread.
    private let idleLimit: Int

    init(file: DatabaseFile, idleLimit: Int) {
        self.file = file
        self.idleLimit = idleLimit
    }

    /// Runs `body` on a read connection (which sees the last commit; statements that must see the same one run
    /// in a read transaction: `SQLiteConnection.reading(_:)`).
    ///
    /// Fails, without reading, once the file at the path is not the one the database opened. A read that meets a
    /// damaged file the database moves aside (``CorruptDatabase/moveAside``) runs again on the fresh one.
    func read<T>(_ body: (SQLiteConnection) throws(DataError) -> T) throws(DataError) -> T {
        var movedAside = false
        while true {
            let reader = try checkOut()
            switch file.standing(of: reader.connection, openedIn: reader.generation) {
            case .current:
                break
            case .stale:
                reader.connection.closeKeepingLogFiles()
                continue
            case .lost(let error):
                checkIn(reader)
                throw error
            }
            do {
                let result = try body(reader.connection)
                checkIn(reader)
                return result
            } catch {
                guard let corruption = error.corruption, file.ifCorrupt == .moveAside, !file.readOnly, !movedAside
                else {
                    checkIn(reader)
                    throw error
                }
                reader.connection.closeKeepingLogFiles()
                movedAside = true
                try file.moveAside(seenIn: reader.generation, corruption)
            }
        }
    }

    private func checkOut() throws(DataError) -> Reader {
        if let reader = idle.withLock({ $0?.popLast() }) { return reader }
        let (connection, generation) = try file.open(.read)
        return Reader(connection: connection, generation: generation)
    }

    private func checkIn(_ reader: Reader) {
        let surplus: Reader? = idle.withLock { idle in
            guard let count = idle?.count, count < idleLimit, reader.generation == file.generation, file.lost == nil
            else {
                return reader
            }
            idle?.append(reader)
            return nil
        }
        // Closed here, outside the lock, if it is one too many, of a file moved aside or lost, or the pool is
        // closed.
        surplus?.connection.closeKeepingLogFiles()
    }

    /// Closes the idle connections now, and each busy one when its read ends: the database was released.
    func close() {
        let closing = idle.withLock { idle in
            defer { idle = nil }
            return idle ?? []
        }
        for reader in closing { reader.connection.closeKeepingLogFiles() }
    }
}
