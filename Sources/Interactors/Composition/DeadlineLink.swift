import Dispatch

/// A `timeout` stage: the timed response's upstream seen through a deadline, and the timer's entry for that
/// deadline.
///
/// As an upstream link, a caller blocked on the timed response does not run the work behind it on Dispatch's
/// global queues, which could keep it past the deadline. As a timer entry, it holds the timed response until the
/// first of: the upstream settles (the stage cancels the entry), the timed response settles otherwise (cancelled:
/// releasing its demand cancels the entry), or the deadline (the entry expires and fails it). Either way the
/// entry leaves the timer at once, and with it the timed response, so timeouts that settled early cost the timer
/// nothing however many are made.
final class DeadlineLink<Value: Sendable>: DeadlineTimer.Entry, UpstreamLink, @unchecked Sendable {
    // @unchecked Sendable: `timed` is set before the entry is scheduled, then let go of by exactly one party, the
    // one the timer's lock let take the entry (`expire()` or `cancelled()`). An entry cancelled before it was
    // scheduled keeps it until the link itself is freed, which the timed response's settlement brings about.

    private let upstream: any UpstreamLink
    /// The timed response, until the entry expires or is cancelled.
    var timed: Response<Value>?

    init(upstream: any UpstreamLink) {
        self.upstream = upstream
    }

    override func expire() {
        let timed = self.timed.take()
        timed?.settle(.failure(ResponseError.timedOut), route: .elsewhere)
    }

    override func cancelled() {
        timed = nil
    }

    // MARK: Upstream link

    func releaseDemand(of consumer: AnyObject) {
        DeadlineTimer.shared.cancel(self)
        upstream.releaseDemand(of: consumer)
    }

    func releaseDemandWithoutUserCode(of consumer: AnyObject) {
        DeadlineTimer.shared.cancel(self)
        upstream.releaseDemandWithoutUserCode(of: consumer)
    }

    func collectBlockingHelp(into help: inout BlockingHelp, timed: Bool) {
        help.upstreams.append((upstream, true))
    }

    /// Seen through: a timed response refuses cancellation when what it times does.
    func markCancellation(unconditionally: Bool) -> CancellationStep { .descend(upstream) }

    func refuseCancellation() {}

    var refusesCancellation: Bool { upstream.refusesCancellation }
    /// Walked through, not watched.
    func addWatcher(_ wakeUp: DispatchSemaphore) -> Bool { false }

    func removeWatcher(_ wakeUp: DispatchSemaphore) {}
}
