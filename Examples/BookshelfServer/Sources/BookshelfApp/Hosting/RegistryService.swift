import Dispatch
public import Interactors
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle

/// A `ServiceRegistry` hosted in a swift-service-lifecycle `ServiceGroup`, as one `ServiceLifecycle.Service`.
///
/// ```swift
/// let registry = ServiceRegistry()
/// registry.register(database)        // starts first, stops last
/// registry.register(statsLogger)
/// let services = RegistryService(registry: registry, logger: logger)
/// var app = Application(router: router, services: [services])
/// app.beforeServerStarts { try await services.waitUntilLaunched() }
/// ```
///
/// - **Start-up**: `run()` sends ``LifecycleEvent/didFinishLaunching(_:)`` then ``LifecycleEvent/didBecomeActive``
///   (registration order). ``waitUntilLaunched()`` returns once they have been heard, so a server that waits for it
///   before it binds accepts no request before its database is open. A start-up hook that throws tears down what
///   started and makes `run()` throw ``RegistryServiceError/Code/launchFailed``, naming each failure: the group
///   stops, the server with it, and `waitUntilLaunched()` throws the same error.
/// - **Tear-down**: on the group's graceful shutdown (SIGTERM, once the services after this one in the group have
///   stopped: put it first so the HTTP server finishes its requests before the database closes) or on
///   cancellation, it sends the tear-down events (``ServiceRegistry/shutDown()``, reverse registration order) and
///   returns. A tear-down hook that throws makes `run()` throw ``RegistryServiceError/Code/tearDownFailed``; one
///   still running after `tearDownDeadline` makes it throw ``RegistryServiceError/Code/tearDownTimedOut`` (the
///   hook is left behind: the process is expected to exit).
///
/// Hooks are synchronous and may block (opening a file, flushing a buffer), so they run on a thread of the
/// adapter's own, never on Swift's cooperative pool.
public final class RegistryService: ServiceLifecycle.Service, CustomStringConvertible {
    /// The registry this adapter hosts.
    public let registry: ServiceRegistry
    /// The options the services hear in ``LifecycleEvent/didFinishLaunching(_:)``.
    public let launchOptions: LaunchOptions
    /// How long the tear-down may take once it starts; `nil` waits however long it takes.
    public let tearDownDeadline: Duration?
    private let logger: Logger
    private let hooks = DispatchQueue(label: "RegistryService.hooks")
    private let launch = LaunchGate()

    /// An adapter for `registry`. Register the services on the registry before the group runs; a service
    /// registered later is caught up by the registry.
    public init(
        registry: ServiceRegistry,
        launchOptions: LaunchOptions = [:],
        tearDownDeadline: Duration? = .seconds(10),
        logger: Logger
    ) {
        self.registry = registry
        self.launchOptions = launchOptions
        self.tearDownDeadline = tearDownDeadline
        self.logger = logger
    }

    /// "RegistryService", as the service group names it in its log.
    public var description: String { "RegistryService" }

    /// Launches the services, waits for the group's graceful shutdown or for cancellation, then tears them down.
    public func run() async throws {
        let registry = self.registry
        let options = launchOptions
        let launchFailures = await onHookThread {
            let failures = registry.send(.didFinishLaunching(options))
            return failures.isEmpty ? registry.send(.didBecomeActive) : failures
        }
        guard launchFailures.isEmpty else {
            let error = RegistryServiceError(.launchFailed, failures: launchFailures)
            logger.error("\(error)")
            launch.settle(.failure(error))
            // What did start hears its tear-down; the launch's failures are the ones worth reporting.
            _ = try? await tearDown()
            throw error
        }
        launch.settle(.success(()))
        logger.info("services launched", metadata: ["services": "\(registry.services.count)"])

        // Returns on graceful shutdown; throws on cancellation, which tears down the same way.
        let cancelled: Bool
        do {
            try await gracefulShutdown()
            cancelled = false
        } catch {
            cancelled = true
        }
        logger.info("tearing the services down", metadata: ["cause": cancelled ? "cancellation" : "graceful shutdown"])
        let failures = try await tearDown()
        guard failures.isEmpty else {
            let error = RegistryServiceError(.tearDownFailed, failures: failures)
            logger.error("\(error)")
            throw error
        }
        logger.info("services torn down")
    }

    /// Returns once the services have heard their start-up events. Throws the ``RegistryServiceError`` of a
    /// failed launch, or `CancellationError` if the waiting task is cancelled first.
    public func waitUntilLaunched() async throws {
        try await launch.wait()
    }

    /// Sends the tear-down events; throws ``RegistryServiceError/Code/tearDownTimedOut`` past the deadline.
    private func tearDown() async throws -> [ServiceFailure] {
        let registry = self.registry
        guard let deadline = tearDownDeadline else { return await onHookThread { registry.shutDown() } }
        let outcome = await onHookThread(deadline: deadline) { registry.shutDown() }
        guard let failures = outcome else {
            let error = RegistryServiceError(.tearDownTimedOut, deadline: deadline)
            logger.error("\(error)")
            throw error
        }
        return failures
    }

    /// Runs `body` on the hook thread and waits for it.
    private func onHookThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            hooks.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on the hook thread and waits for it until `deadline`: `nil` when the deadline came first.
    private func onHookThread<T: Sendable>(
        deadline: Duration,
        _ body: @escaping @Sendable () -> T
    ) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = NIOLockedValueBox<CheckedContinuation<T?, Never>?>(continuation)
            let resume = { @Sendable (value: T?) in
                once.withLockedValue { stored in
                    defer { stored = nil }
                    return stored
                }?.resume(returning: value)
            }
            hooks.async { resume(body()) }
            let (seconds, attoseconds) = deadline.components
            let interval = max(0, Double(seconds) + Double(attoseconds) / 1e18)
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { resume(nil) }
        }
    }
}
