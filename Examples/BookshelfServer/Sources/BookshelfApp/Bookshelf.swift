public import Hummingbird
public import Interactors
public import Logging
public import PostgresNIO
public import ServiceLifecycle
public import UnixSignals

/// Which routes serve: the library's (interactors on an executor) or the plain twin (the data source, awaited).
public enum Variant: String, Sendable, CaseIterable {
    /// Each route executes a typed request on an `InteractorExecutor`: ``InteractorBookStore``.
    case library
    /// Each route awaits the `SQLiteDataSource` directly: ``PlainBookStore``.
    case plain
}

/// The bookshelf server, assembled: its services on a `ServiceRegistry` (the database, then the health state), the
/// registry hosted by a ``RegistryService``, the stats logger (a periodic job: a service of the group, not of the
/// registry), and the Hummingbird application, all in one `ServiceGroup` that shuts down gracefully on SIGTERM and
/// SIGINT. Over PostgreSQL, the `PostgresClient` is a service of that group too, before the registry's adapter: it
/// runs before the services launch and stops after they are torn down.
public final class Bookshelf: Sendable {
    /// How the server was asked to run.
    public let configuration: BookshelfConfiguration
    /// The app's services.
    public let registry: ServiceRegistry
    /// The adapter that runs the registry in the service group.
    public let registryService: RegistryService
    /// The database service (registered first: the first to start, the last to stop): a ``DatabaseService`` over
    /// SQLite, a ``PostgresDatabaseService`` over PostgreSQL.
    public let database: any Interactors.Service
    /// Over PostgreSQL, the client whose connections the database service uses; nil over SQLite.
    public let postgresClient: PostgresClient?
    /// What `GET /health` reports.
    public let health: HealthService
    /// The request counters.
    public let stats: RequestStats
    /// Logs the counters every interval, and at exit.
    public let statsLogger: StatsLoggerService
    private let store: Store
    private let logger: Logger

    /// The server for `configuration`, its services registered; nothing runs until ``serviceGroup(onListening:)``
    /// does.
    public init(configuration: BookshelfConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let registry = ServiceRegistry()
        let executor = configuration.variant == .library ? InteractorExecutor() : nil
        switch configuration.database {
        case .sqlite(let url):
            let database = DatabaseService(fileURL: url, executor: executor, logger: logger)
            self.database = database
            self.postgresClient = nil
            self.store =
                if let executor { .library(InteractorBookStore(executor: executor)) } else {
                    .plainSQLite(PlainBookStore(database: database))
                }
        case .postgres(let location):
            let client = PostgresClient(
                configuration: location.clientConfiguration(connections: configuration.databaseConnections),
                backgroundLogger: logger
            )
            let database = PostgresDatabaseService(
                client: client,
                location: location,
                executor: executor,
                requestDeadline: configuration.databaseTimeout,
                logger: logger
            )
            self.database = database
            self.postgresClient = client
            self.store =
                if let executor { .library(InteractorBookStore(executor: executor)) } else {
                    .plainPostgres(PlainPostgresBookStore(database: database))
                }
        }
        self.health = HealthService(logger: logger)
        self.stats = RequestStats()
        registry.register(database)
        registry.register(health)
        self.statsLogger = StatsLoggerService(stats: stats, interval: configuration.statsInterval, logger: logger)
        self.registry = registry
        self.registryService = RegistryService(registry: registry, tearDownDeadline: configuration.tearDownDeadline)
    }

    /// The group to run: `try await bookshelf.serviceGroup { host, port in print(...) }.run()`. `onListening` is
    /// called once the server accepts connections (with the bound port: ask for port 0 to get a free one).
    public func serviceGroup(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void
    ) -> ServiceGroup {
        // Each store passed as its own type, so the routes are specialised for it in both variants alike.
        let variant = configuration.variant.rawValue
        let router =
            switch store {
            case .library(let store): BookRoutes.router(store: store, health: health, stats: stats, variant: variant)
            case .plainSQLite(let store):
                BookRoutes.router(store: store, health: health, stats: stats, variant: variant)
            case .plainPostgres(let store):
                BookRoutes.router(store: store, health: health, stats: stats, variant: variant)
            }
        return Self.serviceGroup(
            router: router,
            services: (postgresClient.map { [$0] } ?? []) + [registryService, statsLogger],
            registryService: registryService,
            configuration: configuration,
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger,
            onListening: onListening
        )
    }

    /// The store the routes call, by variant and database.
    private enum Store {
        case library(InteractorBookStore)
        case plainSQLite(PlainBookStore)
        case plainPostgres(PlainPostgresBookStore)
    }

    /// The group for any router: the Hummingbird application, with `services` (by default the registry's adapter
    /// alone) in its own group before the HTTP server (so the server stops first, and they stop after the last
    /// request, in reverse order), and a server that binds only once the registry's services have launched.
    public static func serviceGroup(
        router: Router<BookshelfContext>,
        services: [any ServiceLifecycle.Service]? = nil,
        registryService: RegistryService,
        configuration: BookshelfConfiguration,
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        logger: Logger,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void
    ) -> ServiceGroup {
        let host = configuration.host
        var application = Application(
            router: router,
            server: .http1(
                configuration: .init(additionalChannelHandlers: [MalformedRequestHandler(), ClientDisconnectHandler()])
            ),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
            services: services ?? [registryService],
            onServerRunning: { channel in onListening(host, channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
        application.beforeServerStarts { try await registryService.waitUntilLaunched() }
        var group = ServiceGroupConfiguration(
            services: [application],
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        )
        group.maximumGracefulShutdownDuration = configuration.gracefulShutdownDeadline
        return ServiceGroup(configuration: group)
    }
}
