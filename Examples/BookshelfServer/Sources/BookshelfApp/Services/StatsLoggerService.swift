public import Logging
public import ServiceLifecycle

/// Logs the request counters every `interval` while the server runs, and once more when it has stopped (the line
/// the fault script reads to compare what the server answered with what the clients received).
///
/// A periodic job is not a registry service: the registry's hooks are for starting and tearing down in order. It
/// is a swift-service-lifecycle `Service` whose `run()` loops until the group's graceful shutdown cancels it, placed
/// in the group before the HTTP server, so that the server stops first and the last line counts every request.
/// With several instances, each runs its own; a job that must run once across them (a cleanup) would need a lock in
/// the database.
public struct StatsLoggerService: ServiceLifecycle.Service {
    private let stats: RequestStats
    private let interval: Duration
    private let logger: Logger

    /// A logger of `stats` every `interval`.
    public init(stats: RequestStats, interval: Duration, logger: Logger) {
        self.stats = stats
        self.interval = interval
        self.logger = logger
    }

    /// Logs every interval until the graceful shutdown (or cancellation), then logs the counters at exit.
    public func run() async {
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                logger.info("stats: \(stats.snapshot)")
            }
        }
        logger.info("stats at exit: \(stats.snapshot)")
    }
}
