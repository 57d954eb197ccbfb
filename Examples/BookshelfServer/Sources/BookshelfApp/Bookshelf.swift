public import Hummingbird
public import Interactors
public import Logging
public import ServiceLifecycle
public import UnixSignals

/// Which routes serve: the library's (interactors on an executor) or the plain twin (the data source, awaited).
public enum Variant: String, Sendable, CaseIterable {
    /// Each route executes a typed request on an `InteractorExecutor`: ``InteractorBookStore``.
    case library
    /// Each route awaits the `SQLiteDataSource` directly: ``PlainBookStore``.
    case plain
}

/// The bookshelf server, assembled: its services on a `ServiceRegistry` (the database, the health state, the stats
/// logger, in that order), the registry hosted by a ``RegistryService``, and the Hummingbird application, all in one
/// `ServiceGroup` that shuts down gracefully on SIGTERM and SIGINT.
public final class Bookshelf: Sendable {
    /// How the server was asked to run.
    public let configuration: BookshelfConfiguration
    /// The app's services.
    public let registry: ServiceRegistry
    /// The adapter that runs the registry in the service group.
    public let registryService: RegistryService
    /// The database service (registered first: the first to start, the last to stop).
    public let database: DatabaseService
    /// What `GET /health` reports.
    public let health: HealthService
    /// The request counters.
    public let stats: RequestStats
    private let logger: Logger

    /// The server for `configuration`, its services registered; nothing runs until ``serviceGroup(onListening:)``
    /// does.
    public init(configuration: BookshelfConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let registry = ServiceRegistry()
        let executor = configuration.variant == .library ? InteractorExecutor() : nil
        self.database = DatabaseService(fileURL: configuration.databaseURL, executor: executor, logger: logger)
        self.health = HealthService(logger: logger)
        self.stats = RequestStats()
        registry.register(database)
        registry.register(health)
        registry.register(StatsLoggerService(stats: stats, interval: configuration.statsInterval, logger: logger))
        self.registry = registry
        self.registryService = RegistryService(
            registry: registry,
            tearDownDeadline: configuration.tearDownDeadline,
            logger: logger
        )
        self.executor = executor
    }

    private let executor: InteractorExecutor?

    /// The group to run: `try await bookshelf.serviceGroup { host, port in print(...) }.run()`. `onListening` is
    /// called once the server accepts connections (with the bound port: ask for port 0 to get a free one).
    public func serviceGroup(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void
    ) -> ServiceGroup {
        let router =
            if let executor {
                BookRoutes.router(
                    store: InteractorBookStore(executor: executor),
                    health: health,
                    stats: stats,
                    variant: configuration.variant.rawValue
                )
            } else {
                BookRoutes.router(
                    store: PlainBookStore(database: database),
                    health: health,
                    stats: stats,
                    variant: configuration.variant.rawValue
                )
            }
        return Self.serviceGroup(
            router: router,
            registryService: registryService,
            configuration: configuration,
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger,
            onListening: onListening
        )
    }

    /// The group for any router: the Hummingbird application, with `registryService` in its own group before the
    /// HTTP server (so the server stops first, and the registry tears down after the last request), and a server
    /// that binds only once the registry's services have launched.
    public static func serviceGroup(
        router: Router<BookshelfContext>,
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
            services: [registryService],
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
