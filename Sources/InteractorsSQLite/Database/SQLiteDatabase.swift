import Dispatch
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
///   runs on the database's one serial writer, in the order it was issued, in a transaction that takes the write
///   lock first (`BEGIN IMMEDIATE`). Writes that queue up while another commits share the next transaction (each
///   in a savepoint of its own, so one that fails is undone alone), and none is answered before it has committed.
/// - **Durable.** The journal is a write-ahead log with `synchronous = FULL` (and full syncs on Darwin): a write
///   whose response succeeded survives a crash of the process and a power cut.
/// - **Reads never wait for writes.** In a file database each read runs on a read connection of its own and sees
///   the last commit; it waits neither for a write in progress nor for other reads. An in-memory database has one
///   connection, so its reads queue behind the writes issued before them (but never fail because of them).
/// - **Several processes.** Another process may open the same file: SQLite's locks order the two writers, and a
///   write waits up to 10 seconds for the other's transaction before it fails.
///
/// Make one `SQLiteDatabase` per file in a process and share it: its writer orders the writes of all its
/// sources. Releasing it (and its sources) closes the file; opening it again, in this process or another, sees
/// everything committed.
public final class SQLiteDatabase: Sendable {
    /// The database file; `nil` for an in-memory database.
    public let fileURL: URL?

    let writer: SQLiteWriter
    /// Read connections of a file database; `nil` in memory, where reads use the writer's connection.
    private let readers: SQLiteReaderPool?

    /// Opens the database file at `fileURL`, creating it (and its directory) when missing.
    ///
    /// Fails with `corruptStore` if the file is not a SQLite database (it is left
    /// as it is; an empty file is an empty database), and with `storageFailed` if
    /// it cannot be created or opened, with SQLite's code and message.
    public init(fileURL: URL) throws(DataError) {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DataError(code: .storageFailed, message: "cannot create \(directory.path)", underlying: error)
        }
        let connection = try SQLiteConnection(path: fileURL.path, location: fileURL.path)
        let journal = try connection.text("PRAGMA journal_mode = WAL")
        guard journal?.lowercased() == "wal" else {
            throw .misuse(
                "cannot keep \(fileURL.path) in WAL mode (SQLite answered journal_mode \(journal ?? "nothing"))"
            )
        }
        self.fileURL = fileURL
        self.writer = SQLiteWriter(connection: connection)
        self.readers = SQLiteReaderPool(path: fileURL.path, location: fileURL.path)
    }

    deinit {
        // Readers first, so that the writer's connection is the last one, which moves the write-ahead log into
        // the file and removes it.
        readers?.close()
        writer.close()
    }

    private init(inMemory connection: SQLiteConnection) {
        self.fileURL = nil
        self.writer = SQLiteWriter(connection: connection)
        self.readers = nil
    }

    /// A new, empty database in memory, gone when this instance is released. Each call makes another.
    public static func inMemory() throws(DataError) -> SQLiteDatabase {
        SQLiteDatabase(inMemory: try SQLiteConnection(path: ":memory:", location: "an in-memory database"))
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
    /// `transaction`. Reads inside it see what was committed before it (in memory: its own writes too).
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) -> Response<T> {
        if let refusal = refusalInsideWrite("write(_:)") { return Response(error: refusal) }
        return writer.enqueue(body)
    }

    /// The error for a write issued from inside a write body of this database; nil elsewhere.
    func refusalInsideWrite(_ operation: String) -> DataError? {
        guard writer.isInsideBody else { return nil }
        return .misuse(
            "\(operation) was called inside a write(_:) body of the same database, which holds its writer: write "
                + "through the body's transaction instead (transaction.put(value, in: source))"
        )
    }

    // MARK: Reading

    /// Runs `body` on a read connection, off the caller's thread (in memory: on the writer's connection, after the
    /// writes issued before it).
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> T) -> Response<T> {
        if let readers {
            return Response(on: DispatchQueue.global()) { try readers.read(body) }
        }
        let writer = self.writer
        return Response(on: writer) { try body(writer.connection) }
    }

    /// Reads with `body`, as ``read(_:)``, then runs `decode` on what it read once the connection is free again:
    /// decoding values holds no connection (in memory: not the writer).
    func read<Rows: Sendable, T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Rows,
        decode: @escaping @Sendable (Rows) throws(DataError) -> T
    ) -> Response<T> {
        if let readers {
            return Response(on: DispatchQueue.global()) { try decode(try readers.read(body)) }
        }
        let writer = self.writer
        return Response(on: writer) { try body(writer.connection) }.flatMap { rows in
            Response(on: DispatchQueue.global()) { try decode(rows) }
        }
    }
}
