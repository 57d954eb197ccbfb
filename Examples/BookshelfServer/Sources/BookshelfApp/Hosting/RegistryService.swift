import Dispatch
public import Interactors
public import ServiceLifecycle
import Synchronization

/// A `ServiceRegistry` run as one service of a swift-service-lifecycle `ServiceGroup`: `run()` sends the launch
/// events, waits for the group's graceful shutdown (or cancellation), then tears the services down, within
/// `tearDownDeadline`. Put it before the HTTP server in the group, and let the server bind once
/// `waitUntilLaunched()` returns. Hooks may block: they run on a thread of the adapter's own, not Swift's pool.
public final class RegistryService: ServiceLifecycle.Service {
    /// The registry hosted.
    public let registry: ServiceRegistry
    private let tearDownDeadline: Duration
    private let hooks = DispatchQueue(label: "RegistryService.hooks")
    private let launch = Mutex<(outcome: Result<Void, any Error>?, waiters: [(Token, Waiter)])>((nil, []))
    private let hookCall = Mutex<CheckedContinuation<[ServiceFailure]?, Never>?>(nil)
    private typealias Waiter = CheckedContinuation<Void, any Error>
    private typealias Hook = @Sendable () -> [ServiceFailure]
    private final class Token: Sendable {}

    /// An adapter for `registry`, whose services are registered before the group runs.
    public init(registry: ServiceRegistry, tearDownDeadline: Duration = .seconds(10)) {
        (self.registry, self.tearDownDeadline) = (registry, tearDownDeadline)
    }

    /// Launches the services, waits for the group's graceful shutdown or cancellation, then tears them down. A
    /// hook that throws, or a tear-down past its deadline, makes it throw: the group stops, and the server with it.
    public func run() async throws {
        let failed =
            await onHookThread(nil) { [registry] in
                let failures = registry.send(.didFinishLaunching([:]))
                return failures.isEmpty ? registry.send(.didBecomeActive) : failures
            } ?? []
        let launchError = failed.isEmpty ? nil : RegistryServiceError(code: .launchFailed, failures: failed)
        let outcome: Result<Void, any Error> = launchError.map { .failure($0) } ?? .success(())
        var settled: (outcome: Result<Void, any Error>?, waiters: [(Token, Waiter)]) = (outcome, [])
        launch.withLock { swap(&$0, &settled) }
        for (_, waiter) in settled.waiters { waiter.resume(with: outcome) }
        if launchError == nil { try? await gracefulShutdown() }  // graceful shutdown or cancellation: both tear down
        let tearDownFailures = await onHookThread(tearDownDeadline) { [registry] in registry.shutDown() }
        if let launchError { throw launchError }
        guard let failures = tearDownFailures else { throw RegistryServiceError(code: .tearDownTimedOut, failures: []) }
        if !failures.isEmpty { throw RegistryServiceError(code: .tearDownFailed, failures: failures) }
    }

    /// Returns once the services have launched; throws the launch's error, or `CancellationError` if the waiting
    /// task is cancelled first.
    public func waitUntilLaunched() async throws {
        let token = Token()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiter in
                let outcome = launch.withLock { launch in
                    if launch.outcome == nil, !Task.isCancelled { launch.waiters.append((token, waiter)) }
                    return launch.outcome ?? (Task.isCancelled ? .failure(CancellationError()) : nil)
                }
                if let outcome { waiter.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = launch.withLock { launch in
                launch.waiters.firstIndex { $0.0 === token }.map { launch.waiters.remove(at: $0).1 }
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// What `hook` returns on the hook thread; nil if `limit` passes first (the hook is left behind). Only the last
    /// call (the tear-down) has a limit, so a timer never settles a later call.
    private func onHookThread(_ limit: Duration?, _ hook: @escaping Hook) async -> [ServiceFailure]? {
        await withCheckedContinuation { waiter in
            hookCall.withLock { $0 = waiter }
            let finish = { @Sendable [self] (failures: [ServiceFailure]?) in
                hookCall.withLock { $0.take() }?.resume(returning: failures)
            }
            hooks.async { finish(hook()) }
            if let limit { DispatchQueue.global().asyncAfter(deadline: .now() + limit / .seconds(1)) { finish(nil) } }
        }
    }
}

/// Why a ``RegistryService`` stopped its group: what failed, and which hooks threw.
public struct RegistryServiceError: Error, CustomStringConvertible {
    /// What failed; compare with the static members.
    public struct Code: Hashable, Sendable {
        let text: String
        /// A launch hook threw: what had started was torn down, and the server never listened.
        public static let launchFailed = Code(text: "the services failed to start")
        /// A tear-down hook threw; every service still heard the tear-down.
        public static let tearDownFailed = Code(text: "the services failed to stop cleanly")
        /// The tear-down outlived its deadline; the hook that hangs is left behind.
        public static let tearDownTimedOut = Code(text: "the services did not stop within the deadline")
    }
    /// What failed.
    public let code: Code
    /// The hooks that threw, as the registry reported them.
    public let failures: [ServiceFailure]
    /// What failed, then each hook's failure.
    public var description: String { ([code.text] + failures.map { "\($0)" }).joined(separator: "; ") }
}
