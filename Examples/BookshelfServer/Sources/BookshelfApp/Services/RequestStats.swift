import Synchronization

/// Counts of the requests the server accepted and answered, by status class; kept by ``StatsMiddleware`` and
/// logged by ``StatsLoggerService``.
public final class RequestStats: Sendable {
    /// A reading of the counters.
    public struct Snapshot: Sendable, Equatable, CustomStringConvertible {
        /// Requests that reached the router.
        public var accepted: Int
        /// Requests answered (with any status).
        public var answered: Int
        /// Answers by class: 2xx, 4xx, 5xx.
        public var succeeded: Int
        /// 4xx answers.
        public var clientErrors: Int
        /// 5xx answers.
        public var serverErrors: Int

        /// `accepted N, answered N (2xx N, 4xx N, 5xx N)`.
        public var description: String {
            "accepted \(accepted), answered \(answered) (2xx \(succeeded), 4xx \(clientErrors), 5xx \(serverErrors))"
        }
    }

    private let accepted = Atomic<Int>(0)
    private let answered = Atomic<Int>(0)
    private let succeeded = Atomic<Int>(0)
    private let clientErrors = Atomic<Int>(0)
    private let serverErrors = Atomic<Int>(0)

    /// Counters at zero.
    public init() {}

    func accept() {
        accepted.add(1, ordering: .relaxed)
    }

    func answer(status: Int) {
        switch status {
        case 200..<300: succeeded.add(1, ordering: .relaxed)
        case 400..<500: clientErrors.add(1, ordering: .relaxed)
        case 500...: serverErrors.add(1, ordering: .relaxed)
        default: break
        }
        answered.add(1, ordering: .relaxed)
    }

    /// The counters now.
    public var snapshot: Snapshot {
        Snapshot(
            accepted: accepted.load(ordering: .relaxed),
            answered: answered.load(ordering: .relaxed),
            succeeded: succeeded.load(ordering: .relaxed),
            clientErrors: clientErrors.load(ordering: .relaxed),
            serverErrors: serverErrors.load(ordering: .relaxed)
        )
    }
}
