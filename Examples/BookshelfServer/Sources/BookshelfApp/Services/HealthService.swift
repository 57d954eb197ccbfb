import Dispatch
public import Interactors
public import Logging
import NIOConcurrencyHelpers

/// What `GET /health` reports: whether the services are serving, and for how long. A load balancer's readiness
/// check reads it; it says `stopping` from the first tear-down event.
public final class HealthService: Interactors.Service {
    /// The state `GET /health` reports.
    public enum Status: String, Sendable, Codable {
        /// Not launched yet.
        case starting
        /// Launched and active.
        case serving
        /// The tear-down has begun.
        case stopping
    }

    private let logger: Logger
    private let state = NIOLockedValueBox<(status: Status, since: DispatchTime)>((.starting, .now()))

    /// A health state starting at ``Status/starting``.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// The status, and the seconds since the services became active (zero before).
    public var current: (status: Status, uptimeSeconds: Int) {
        let (status, since) = state.withLockedValue { $0 }
        let seconds =
            status == .starting
            ? 0 : Int((DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1_000_000_000)
        return (status, seconds)
    }

    /// Logs every event it hears, then updates the status.
    public func receive(_ event: LifecycleEvent) throws {
        logger.info("HealthService heard \(event)")
        switch event {
        case .didBecomeActive: state.withLockedValue { $0 = (.serving, .now()) }
        case .willResignActive, .willTerminate: state.withLockedValue { $0.status = .stopping }
        default: break
        }
    }
}
