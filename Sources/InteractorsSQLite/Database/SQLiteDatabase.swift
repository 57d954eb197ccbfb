public import Foundation
public import Interactors
public import InteractorsData

/// A SQLite database, in a file or in memory, shared by the ``SQLiteDataSource``s that keep their tables in it.
///
/// ```swift
/// let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
/// let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
/// _ = try notes.put(Note(id: "n1", text: "Buy milk")).get()
/// ```
///
/// - **One writer.** Every write (a source's `put`, `putAll`, `delete`, `deleteAll`, or a ``write(_:)`` body)
///   runs on the database's one writer thread, in the order it was issued, in a transaction that takes the write
///   lock first (`BEGIN IMMEDIATE`). Writes that queue up while another commits share the next transaction (each
///   in a savepoint of its own), and none is answered before it has committed. One write's failure is its own:
///   a write that fails is undone alone, and if its failure takes the whole transaction with it (a full disk, an
///   I/O error), the others are committed again one by one.
/// - **Durable.** The journal is a write-ahead log with `synchronous = FULL` (and full syncs on Darwin): a write
///   whose response succeeded survives a crash of the process and a power cut.
/// - **Reads never wait for writes.** In a file database each read runs on a read connection of its own and sees
///   the last commit; it waits neither for a write in progress nor for other reads. An in-memory database has one
///   connection, so its reads queue behind the writes issued before them (but never fail because of them).
/// - **Threads of its own.** Reads, writes and observers' reads run on threads the database owns, never on
///   Dispatch's global pool, which the app may fill: one writer thread (`ix.sqlite.write`) and up to four reader
///   threads (`ix.sqlite.read`, which also decode what was read and answer the callers), started as work comes in
///   and ended when the database is released. Responses settle on the reader threads, never on the writer, and
///   deliver where the caller asked; a reader thread whose handler (run `.immediate`) or stage blocks, waiting for
///   another read or write of this database or of anything else, is replaced meanwhile, so such waits end
///   however many reader threads block. The writer never runs a handler or a stage.
/// - **Several processes.** Another process may open the same file: SQLite's locks order the two writers, and a
///   write waits up to 10 seconds for the other's transaction before it fails.
/// - **A file that is moved or deleted** while the database is open is found before a commit is answered
///   (`SQLITE_FCNTL_HAS_MOVED`) and before each read: the log is folded into the file the database has open
///   (wherever it went), and from then on every operation fails with `storageFailed` ("the database file was moved
///   or deleted"): no write is acknowledged that is not in the file at the path.
/// - **A damaged file** is what ``CorruptDatabase`` says: by default every operation that meets the damage fails
///   with `corruptStore`; ``CorruptDatabase/moveAside`` sets the file aside and starts an empty database.
///
/// Make one `SQLiteDatabase` per file in a process and share it: its writer orders the writes of all its
/// sources. Releasing it (and its sources) closes the file; opening it again, in this process or another, sees
/// everything committed.
public final class SQLiteDatabase: Sendable {
    /// The database file; `nil` for an in-memory database.
    public let fileURL: URL?
    /// Whether the database was opened `readOnly`: its writes fail, and it changes nothing in or next to its file.
    public let isReadOnly: Bool

    /// The writer; nil for a database opened read-only.
    let writer: SQLiteWriter?
    /// Read connections of a file database; `nil` in memory, where reads use the writer's connection.
    let readers: SQLiteReaderPool?
    /// The reader threads: reads, decoding, observers' reads, and the answers to every caller.
    let workers: SQLiteThreads
    let observers: TableObservers

    /// How many reader threads a database has at most.
    static let readerThreads = 4

    /// Opens the database file at `fileURL`.
    ///
    /// ```swift
    /// let cache = try SQLiteDatabase(
    ///     fileURL: cachesURL.appendingPathComponent("cache.sqlite"),
    ///     ifCorrupt: .moveAside,
    ///     onCorruption: { logger.error("\($0)") }
    /// )
    /// let cities = try SQLiteDatabase(fileURL: Bundle.main.url(forResource: "cities", withExtension: "sqlite")!,
    ///                                 readOnly: true)
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: The database file. Created, with its directory, when missing, unless `readOnly`.
    ///   - readOnly: Opens a database that cannot or must not be written (one shipped in an app's bundle, say):
    ///     nothing is created in or next to the file and its journal mode is left as it is (a bundled database
    ///     should be in rollback-journal mode: a WAL-mode file needs its `-shm` next to it); reads work, writes
    ///     fail with `storageFailed`, saying the database is read-only. A missing file fails with `storageFailed`.
    ///     Opened for writing (the default), a file whose journal mode is not WAL is switched to WAL.
    ///   - ifCorrupt: What to do with a file that is damaged or is not a database (``CorruptDatabase``). By default
    ///     (``CorruptDatabase/fail``), a file that is not a database fails here with `corruptStore` and is left as
    ///     it is. ``CorruptDatabase/moveAside`` cannot be combined with `readOnly`.
    ///   - onCorruption: Told once each time a damaged file is moved aside: the `corruptStore` error, whose message
    ///     names the file and where it went. By default, one line on standard error.
    /// - Throws: `storageFailed` if the file cannot be created or opened, with SQLite's code and message;
    ///   `corruptStore` as `ifCorrupt` says.
    public init(
        fileURL: URL,
        readOnly: Bool = false,
        ifCorrupt: CorruptDatabase = .fail,
        onCorruption: @escaping @Sendable (DataError) -> Void = SQLiteDatabase.reportToStandardError
    ) throws(DataError) {
        let file = DatabaseFile(url: fileURL, readOnly: readOnly, ifCorrupt: ifCorrupt, onCorruption: onCorruption)
        let workers = SQLiteThreads(name: "ix.sqlite.read", threads: Self.readerThreads)
        let readers = SQLiteReaderPool(file: file, idleLimit: Self.readerThreads)
        let observers = TableObservers()
        var writer: SQLiteWriter?
        do {
            if readOnly {
                try Self.checkReadOnly(file)
                // Reads the header now: a file that is not a database fails here.
                try readers.read { _ throws(DataError) in }
            } else {
                try Self.createDirectory(of: fileURL)
                let (connection, generation) = try file.open(.create)
                writer = SQLiteWriter(
                    connection: connection,
                    generation: generation,
                    file: file,
                    answers: workers,
                    observers: observers
                )
            }
        } catch {
            readers.close()
            workers.shutDown()
            if let corruption = error.corruption {
                throw .corrupt(
                    fileURL.lastPathComponent,
                    corruption,
                    fate: "it was left as it is, and not opened",
                    fileURL: fileURL
                )
            }
            throw error
        }
        self.fileURL = fileURL
        self.isReadOnly = readOnly
        self.writer = writer
        self.readers = readers
        self.workers = workers
        self.observers = observers
    }

    private static func checkReadOnly(_ file: DatabaseFile) throws(DataError) {
        guard file.ifCorrupt == .fail else {
            throw .misuse(
                "\(file.name) cannot be opened readOnly with ifCorrupt: .moveAside: moving a damaged file aside "
                    + "starts an empty database, which a read-only database cannot write"
            ).concerning(file.url)
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw .misuse(
                "cannot open \(file.name) readOnly: there is no file there (a read-only database is never created)"
            ).concerning(file.url)
        }
    }

    private static func createDirectory(of fileURL: URL) throws(DataError) {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DataError(
                code: .storageFailed,
                message: "cannot create the directory \(directory.lastPathComponent) of \(fileURL.lastPathComponent)",
                underlying: error,
                fileURL: fileURL
            )
        }
    }

    deinit {
        // Readers first, so that the writer's connection is the last one, which moves the write-ahead log into
        // the file and removes it.
        readers?.close()
        writer?.close()
        workers.shutDown()
    }

    private init(inMemory connection: SQLiteConnection) {
        self.fileURL = nil
        self.isReadOnly = false
        self.readers = nil
        let workers = SQLiteThreads(name: "ix.sqlite.read", threads: Self.readerThreads)
        let observers = TableObservers()
        self.workers = workers
        self.observers = observers
        self.writer = SQLiteWriter(
            connection: connection,
            generation: 0,
            file: nil,
            answers: workers,
            observers: observers
        )
    }

    /// A new, empty database in memory, gone when this instance is released. Each call makes another.
    public static func inMemory() throws(DataError) -> SQLiteDatabase {
        SQLiteDatabase(
            inMemory: try SQLiteConnection(path: ":memory:", location: "an in-memory database", access: .create)
        )
    }

    /// What `onCorruption` does unless told otherwise: writes the error's message, and the file's full path (which
    /// the message leaves out), on standard error, one line.
    @Sendable public static func reportToStandardError(_ error: DataError) {
        writeToStandardError("InteractorsSQLite: \(error.message)" + (error.fileURL.map { " (\($0.path))" } ?? ""))
    }

    // MARK: Writing

    /// Runs `body` on the writer as one transaction and answers with what it returns, once committed.
    ///
    /// ```swift
    /// let moved = database.write { transaction in
    ///     try transaction.delete(IdQuery(note.id), in: inbox)
    ///     try transaction.put(note, in: archive)
    /// }
    /// ```
    ///
    /// Write through `transaction` (``SQLiteTransaction``), to any source of this database, on one table or
    /// several. If `body` throws, or one of its writes fails, none of it is applied, the response fails with that
    /// error as it was thrown, and the database stays writable. `body` may block: it holds the writer, never the
    /// readers. Inside it, the sources' own writes to this database fail at once with
    /// `storageFailed` (they could only wait for the writer `body` holds): use
    /// `transaction`. Reads inside it, through the sources, run in its transaction: they see its own writes, and
    /// those of the writes that share its transaction.
    ///
    /// `body` may run more than once, and only its last run counts: when the transaction it shared with other
    /// writes failed as a whole (a full disk, an I/O error), each write runs again alone, so that one write's
    /// failure stays its own; and when the file was found damaged and moved aside (``CorruptDatabase/moveAside``),
    /// it runs again on the fresh database. So a body must have no side effects outside the transaction.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) -> Response<T> {
        if let refusal = refusal("write(_:)") { return Response(error: refusal) }
        return writer!.enqueue(body)
    }

    /// The error for a write that cannot be queued: to a database opened read-only, or from inside a write body of
    /// this database; nil elsewhere.
    func refusal(_ operation: String) -> DataError? {
        guard let writer else {
            return Self.readOnlyError(fileURL?.lastPathComponent ?? "", operation).concerning(fileURL)
        }
        guard writer.isInsideBody else { return nil }
        return .misuse(
            "\(operation) was called inside a write(_:) body of the same database, which holds its writer: write "
                + "through the body's transaction instead (transaction.put(value, in: source))"
        )
    }

    /// The error of a write to something read-only.
    static func readOnlyError(_ location: String, _ operation: String) -> DataError {
        .misuse("\(operation) failed: \(location) is read-only (opened with readOnly: true); nothing was written")
    }

    // MARK: Testing

    /// For the package's tests of a full disk: lets the writer's connection grow the file by `pages` pages at most
    /// (`PRAGMA max_page_count`, a setting of that connection alone), past which SQLite answers `SQLITE_FULL`.
    package func limitPagesForTesting(grantingMore pages: Int) throws(DataError) {
        try writer?.runNow { connection throws(DataError) in
            let current = Int(try connection.text("PRAGMA page_count") ?? "") ?? 0
            try connection.execute("PRAGMA max_page_count = \(current + pages)")
        }
    }
}
