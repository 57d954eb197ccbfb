public import Interactors
public import InteractorsData
public import Logging
import NIOConcurrencyHelpers
public import PostgresNIO

/// The PostgreSQL counterpart of ``DatabaseService``: on launch it waits for the server and creates the `books`
/// table when missing, then registers the CRUD interactors (with an executor); on termination it unregisters them.
/// The first service registered, so the last torn down.
///
/// The `PostgresClient` whose connections it uses is not the registry's to start or stop: it is a service of the
/// server's `ServiceGroup` (it has `run()`), placed before the registry's adapter, so it runs before the services
/// launch and stops after they are torn down. This service's launch hook blocks (on the adapter's hook thread)
/// until the client reaches the server, at most ``startupDeadline``: the server binds only after that.
public final class PostgresDatabaseService: Interactors.Service {
    /// The database.
    public let location: PostgresLocation
    /// The `books` table, for the plain twin: ``books()`` answers it while the service is open.
    public let table: PostgresTable<Book>
    /// How long the launch waits for the server before the service fails to start.
    public let startupDeadline: Duration
    private let executor: InteractorExecutor?
    private let logger: Logger
    private let isOpen = NIOLockedValueBox(false)

    /// A service for the `books` table of `location` through `client`; it registers the CRUD interactors on
    /// `executor` when given one. `requestDeadline` bounds each request's call (see ``PostgresTable``).
    public init(
        client: PostgresClient,
        location: PostgresLocation,
        executor: InteractorExecutor?,
        requestDeadline: Duration = .milliseconds(750),
        startupDeadline: Duration = .seconds(30),
        logger: Logger
    ) {
        self.location = location
        // A fixed, valid name: this cannot fail.
        self.table = try! PostgresTable<Book>(
            client: client,
            name: "books",
            location: location,
            deadline: requestDeadline,
            logger: logger
        )
        self.startupDeadline = startupDeadline
        self.executor = executor
        self.logger = logger
    }

    /// The `books` table; `storageFailed` (a 503) while the service is not open.
    public func books() throws(DataError) -> PostgresTable<Book> {
        guard isOpen.withLockedValue({ $0 }) else {
            throw DataError(code: .storageFailed, message: "the database \(location) is not open")
        }
        return table
    }

    /// Logs every event it hears (the tear-down order shows in the log), then opens or closes.
    public func receive(_ event: LifecycleEvent) throws {
        logger.info("PostgresDatabaseService heard \(event)")
        switch event {
        case .didFinishLaunching: try open()
        case .willTerminate: close()
        default: break
        }
    }

    private func open() throws {
        // Blocking is this hook's job: the adapter runs it on a thread of its own, and the server binds after it.
        try table.response(table.create(within: startupDeadline)).get()
        isOpen.withLockedValue { $0 = true }
        if let executor {
            executor.registerBookInteractors(over: PostgresDataSource(table))
        }
        logger.info("PostgresDatabaseService opened table books in \(location)")
    }

    private func close() {
        executor?.unregisterBookInteractors()
        isOpen.withLockedValue { $0 = false }
        // The client still runs (the group stops it after the registry): the service's last query shows it.
        let count = Result { try table.response(table.count()).get() }
        switch count {
        case .success(let count):
            logger.info("PostgresDatabaseService closed table books in \(location): \(count) books")
        case .failure(let error):
            logger.warning("PostgresDatabaseService closed table books in \(location); counting failed: \(error)")
        }
    }
}
