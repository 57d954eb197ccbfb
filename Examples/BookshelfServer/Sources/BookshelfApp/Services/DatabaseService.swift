public import Foundation
public import Interactors
public import InteractorsData
public import InteractorsSQLite
public import Logging
import NIOConcurrencyHelpers

/// Opens the SQLite database when the app launches and closes it when the app terminates; the first service
/// registered, so the last torn down.
///
/// With an executor (the library variant), it registers the CRUD interactors over the database's `books` table on
/// launch and unregisters them before closing; the plain variant asks it for ``books()`` on every request.
public final class DatabaseService: Interactors.Service {
    private struct Open: Sendable {
        let database: SQLiteDatabase
        let books: SQLiteDataSource<Book>
    }

    /// The database file.
    public let fileURL: URL
    private let executor: InteractorExecutor?
    private let logger: Logger
    private let open = NIOLockedValueBox<Open?>(nil)

    /// A service for the database at `fileURL`; it registers the CRUD interactors on `executor` when given one.
    public init(fileURL: URL, executor: InteractorExecutor?, logger: Logger) {
        self.fileURL = fileURL
        self.executor = executor
        self.logger = logger
    }

    /// The `books` table; `storageFailed` (a 503) while the database is not open.
    public func books() throws(DataError) -> SQLiteDataSource<Book> {
        guard let books = open.withLockedValue({ $0?.books }) else {
            // Named by its file name: the message is returned to clients (the full path stays in `fileURL`).
            throw DataError(
                code: .storageFailed,
                message: "the database \(fileURL.lastPathComponent) is not open",
                fileURL: fileURL
            )
        }
        return books
    }

    /// Logs every event it hears (the tear-down order shows in the log), then opens or closes.
    public func receive(_ event: LifecycleEvent) throws {
        logger.info("DatabaseService heard \(event)")
        switch event {
        case .didFinishLaunching: try openDatabase()
        case .willTerminate: closeDatabase()
        default: break
        }
    }

    private func openDatabase() throws {
        let database = try SQLiteDatabase(fileURL: fileURL)
        let books = try SQLiteDataSource<Book>(database: database, table: "books")
        open.withLockedValue { $0 = Open(database: database, books: books) }
        if let executor {
            executor.registerBookInteractors(over: books)
        }
        logger.info("DatabaseService opened \(fileURL.path)")
    }

    private func closeDatabase() {
        executor?.unregisterBookInteractors()
        // The database closes its file when its last reference goes: after the requests in flight, which the
        // server has finished before the tear-down began.
        // Taken straight into the one variable checked below: a second binding (a `let` unwrapped into a `var`)
        // would hold a second reference for as long as a debug build keeps it, and the check would always fail.
        guard
            var database = open.withLockedValue({ open -> SQLiteDatabase? in
                defer { open = nil }
                return open?.database
            })
        else { return }
        if isKnownUniquelyReferenced(&database) {
            logger.info("DatabaseService closed \(fileURL.path)")
        } else {
            logger.warning("DatabaseService released \(fileURL.path), still held by work in flight")
        }
    }
}
