public import Interactors
public import Logging
import NIOConcurrencyHelpers

/// Logs the request counters every `interval` while the app is active, and once more when it terminates (the line
/// the fault script reads to compare what the server answered with what the clients received).
public final class StatsLoggerService: Interactors.Service {
    private let stats: RequestStats
    private let interval: Duration
    private let logger: Logger
    private let ticker = NIOLockedValueBox<Task<Void, Never>?>(nil)

    /// A logger of `stats` every `interval`.
    public init(stats: RequestStats, interval: Duration, logger: Logger) {
        self.stats = stats
        self.interval = interval
        self.logger = logger
    }

    /// Logs every event it hears, then starts or stops the ticker.
    public func receive(_ event: LifecycleEvent) throws {
        logger.info("StatsLoggerService heard \(event)")
        switch event {
        case .didBecomeActive: start()
        case .willResignActive: stop()
        case .willTerminate:
            stop()
            logger.info("stats at exit: \(stats.snapshot)")
        default: break
        }
    }

    private func start() {
        let task = Task { [stats, interval, logger] in
            while (try? await Task.sleep(for: interval)) != nil {
                logger.info("stats: \(stats.snapshot)")
            }
        }
        ticker.withLockedValue { ticker in
            defer { ticker = task }
            return ticker
        }?.cancel()
    }

    private func stop() {
        ticker.withLockedValue { ticker in
            defer { ticker = nil }
            return ticker
        }?.cancel()
    }
}
