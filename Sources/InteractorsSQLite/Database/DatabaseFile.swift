import Foundation
import Interactors
import InteractorsData

/// What the connections of a file database share about their file: where it is, how to open it, what to do when
/// it is damaged, and whether it is still the file at its path.
///
/// Each connection is opened in a *generation* of the file. Moving a damaged file aside starts the next one: a
/// connection of an earlier generation still has the moved file open, so it is closed (keeping the files at the
/// path, which are the fresh database's) and opened again at the path by the next operation that checks it out.
final class DatabaseFile: Sendable {
    let url: URL
    let readOnly: Bool
    let ifCorrupt: CorruptDatabase
    let onCorruption: @Sendable (DataError) -> Void

    private struct State {
        var generation = 0
        /// The file at the path in this generation, as first opened (or made fresh): a connection opened later on
        /// another file there (the database's deleted and another put in its place) finds it moved.
        var identity: FileIdentity?
        /// Set once the file at the path is found not to be the one opened (moved or deleted behind the
        /// database's back): every operation fails with it from then on.
        var lost: DataError?
        /// The tables of the sources opened on the database, by ``TableSQL/identity``: created again in a fresh
        /// file.
        var tables: [String: TableSQL] = [:]
    }

    private let state = LockedBox(State())

    init(
        url: URL,
        readOnly: Bool,
        ifCorrupt: CorruptDatabase,
        onCorruption: @escaping @Sendable (DataError) -> Void
    ) {
        self.url = url
        self.readOnly = readOnly
        self.ifCorrupt = ifCorrupt
        self.onCorruption = onCorruption
    }

    var path: String { url.path }
    /// The file's name, as messages give it (the whole path stays in `DataError.fileURL`).
    var name: String { url.lastPathComponent }

    /// The generation connections opened now belong to.
    var generation: Int {
        state.withLock { $0.generation }
    }

    /// The error every operation fails with once the file was moved or deleted; nil until then.
    var lost: DataError? {
        state.withLock { $0.lost }
    }

    /// Remembers a source's table, to create it again in a fresh file.
    func register(_ table: TableSQL) {
        state.withLock { $0.tables[table.identity] = table }
    }

    // MARK: Opening connections

    /// Opens a connection with `access` in the current generation. The writer's (`.create`, `.write`) keeps the
    /// file in WAL mode, switching a file in another journal mode to it; a connection that does not create the
    /// file and finds none at the path, or another file than the one the database opened, finds it moved or
    /// deleted (see ``standing(of:openedIn:)``). A file damaged at open is moved aside first when ``ifCorrupt``
    /// says so; else the open fails with `corruptStore`, the file and its log left as they were.
    func open(_ access: SQLiteConnection.Access) throws(DataError) -> (SQLiteConnection, generation: Int) {
        var movedAside = false
        while true {
            let generation = self.generation
            let connection: SQLiteConnection
            do throws(DataError) {
                connection = try connect(access)
            } catch {
                guard let corruption = error.corruption else {
                    if access == .create { throw error }
                    switch missing(seenIn: generation) {
                    case .current: throw error
                    case .stale: continue
                    case .lost(let lost): throw lost
                    }
                }
                guard ifCorrupt == .moveAside, !readOnly, !movedAside else { throw error }
                movedAside = true
                try moveAside(seenIn: generation, corruption)
                continue
            }
            switch adopt(connection, openedIn: generation, recording: access == .create) {
            case .current:
                return (connection, generation)
            case .stale:
                connection.closeKeepingLogFiles()
            case .lost(let error):
                connection.closeKeepingLogFiles()
                throw error
            }
        }
    }

    /// A connection with `access`, which has read the file's header.
    private func connect(_ access: SQLiteConnection.Access) throws(DataError) -> SQLiteConnection {
        if access == .create { try lookForDamage() }
        let connection = try SQLiteConnection(path: path, location: name, fileURL: url, access: access)
        if access != .read {
            try Self.keepInWALMode(connection)
        } else {
            // SQLite reads the file only when asked to: make it read the header now.
            _ = try connection.text("PRAGMA schema_version")
        }
        return connection
    }

    /// Before the writer first opens the file: reads its schema on a read-only connection, which never folds the
    /// log into the file when it closes (the writer's connection, closing after it met damage, would: a damaged
    /// file would then lose its log before it is moved aside, or change though `.fail` leaves it as it is).
    /// Throws only `corruptStore`; anything else (no file yet, a hot journal only a writer can roll back) is the
    /// writer's to meet.
    private func lookForDamage() throws(DataError) {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber,
            size.intValue > 0
        else { return }
        do throws(DataError) {
            let look = try SQLiteConnection(path: path, location: name, fileURL: url, access: .read)
            defer { look.close() }
            _ = try look.text("PRAGMA schema_version")
        } catch {
            if error.corruption != nil { throw error }
        }
    }

    /// Switches the file to WAL mode unless it is in it already (which takes no lock).
    static func keepInWALMode(_ connection: SQLiteConnection) throws(DataError) {
        guard try connection.text("PRAGMA journal_mode")?.lowercased() != "wal" else { return }
        let journal = try connection.text("PRAGMA journal_mode = WAL")
        guard journal?.lowercased() == "wal" else {
            throw .misuse(
                "cannot keep \(connection.location) in WAL mode (SQLite answered journal_mode \(journal ?? "nothing"))"
            )
        }
    }

    // MARK: Checking a connection's file

    /// Where a connection stands against the file at the path.
    enum Standing {
        /// Its file is the one at the path.
        case current
        /// Its file was moved aside by this database: close it and open another.
        case stale
        /// The file at the path is not the one the database opened: every operation fails with this error.
        case lost(DataError)
    }

    /// Whether `connection`, opened in `generation`, still has the file at the path open.
    func standing(of connection: SQLiteConnection, openedIn generation: Int) -> Standing {
        state.withLock { state in
            // Under the lock that moving aside holds: a move this database made is never taken for someone else's.
            if generation != state.generation { return .stale }
            if let lost = state.lost { return .lost(lost) }
            guard connection.fileHasMoved else { return .current }
            let lost = Self.lostError(url)
            state.lost = lost
            return .lost(lost)
        }
    }

    /// Where a connection just opened in `generation` stands: its file must be the one the database opened in
    /// that generation (recorded by the first connection, when `recording`, or when the file was made fresh).
    private func adopt(_ connection: SQLiteConnection, openedIn generation: Int, recording: Bool) -> Standing {
        state.withLock { state in
            if generation != state.generation { return .stale }
            if let lost = state.lost { return .lost(lost) }
            let identity = FileIdentity(path)
            if recording || state.identity == nil {
                state.identity = identity
                return .current
            }
            guard identity != state.identity || connection.fileHasMoved else { return .current }
            let lost = Self.lostError(url)
            state.lost = lost
            return .lost(lost)
        }
    }

    /// Where the database stands after a connection opened in `generation` could not open the file: moved or
    /// deleted if there is no file at the path; stale if this database moved it aside meanwhile (it makes the
    /// fresh one under the lock, so a file missing here is never one it is making).
    private func missing(seenIn generation: Int) -> Standing {
        state.withLock { state in
            if generation != state.generation { return .stale }
            if let lost = state.lost { return .lost(lost) }
            guard !FileManager.default.fileExists(atPath: path) else { return .current }
            let lost = Self.lostError(url)
            state.lost = lost
            return .lost(lost)
        }
    }

    private static func lostError(_ url: URL) -> DataError {
        DataError(
            code: .storageFailed,
            message: "the database file was moved or deleted: \(url.lastPathComponent) is no longer the file this "
                + "database opened, so this database neither writes nor reads any more (what it acknowledged before "
                + "is in the file wherever it went); open the database again",
            fileURL: url
        )
    }

    // MARK: Moving a damaged file aside

    /// Renames the damaged file, and its `-wal` and `-shm`, to `<name>.corrupt-<timestamp>` (plus `-wal` and
    /// `-shm`), creates a fresh database at the path with the registered tables, starts the next generation and
    /// reports `corruption` once. Does nothing if the file was moved aside since `generation`: another operation
    /// met the damage first.
    func moveAside(seenIn generation: Int, _ corruption: SQLiteResult) throws(DataError) {
        let report = try state.withLock { state throws(DataError) -> DataError? in
            guard state.generation == generation else { return nil }
            let destination = try Self.moveAside(url)
            // The fresh database, with the tables, before any operation can find the path empty.
            let fresh = try SQLiteConnection(path: path, location: name, fileURL: url, access: .create)
            defer { fresh.close() }
            try Self.keepInWALMode(fresh)
            for table in state.tables.values.sorted(by: { $0.identity < $1.identity }) {
                try table.create(on: fresh)
            }
            state.generation += 1
            state.identity = FileIdentity(path)
            return DataError.corrupt(
                name,
                corruption,
                fate: "it was moved aside to \(destination) (with its -wal and -shm files), and the database "
                    + "started empty",
                fileURL: url
            )
        }
        // Outside the lock: the report is the app's code.
        if let report { onCorruption(report) }
    }

    /// Renames `url`, and its `-wal` and `-shm` files if there are any, to a name no file has yet; the new name of
    /// the database file.
    private static func moveAside(_ url: URL) throws(DataError) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = "\(url.path).corrupt-\(formatter.string(from: Date()))"
        var destination = base
        var attempt = 1
        let files = FileManager.default
        while [destination, destination + "-wal", destination + "-shm"].contains(where: files.fileExists(atPath:)) {
            attempt += 1
            destination = "\(base)-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm"] where suffix.isEmpty || files.fileExists(atPath: url.path + suffix) {
            do {
                try files.moveItem(atPath: url.path + suffix, toPath: destination + suffix)
            } catch {
                throw DataError(
                    code: .storageFailed,
                    message: "cannot move the damaged \(url.lastPathComponent + suffix) aside to "
                        + (destination as NSString).lastPathComponent + suffix,
                    underlying: error,
                    fileURL: url
                )
            }
        }
        return (destination as NSString).lastPathComponent
    }
}

/// Which file a path names: its device and inode, as `stat` answers them. Two files are the same file exactly when
/// both match; a file renamed keeps them, a file put in another's place has others.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`; nil if there is none.
    init?(_ path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let device = attributes[.systemNumber] as? NSNumber,
            let inode = attributes[.systemFileNumber] as? NSNumber
        else { return nil }
        self.device = device.uint64Value
        self.inode = inode.uint64Value
    }
}
