import Dispatch

/// A wait on the library's timer thread, for a `delay` or for a retry's back-off: at its deadline, the timer's
/// thread runs `fire` (which settles the waiting response, or starts the next attempt, and nothing slower).
///
/// While it waits it is the waiting response's upstream, so that cancelling the response cancels the wait: the
/// entry leaves the timer at once, and `fire`, with the response it captured, is let go of then rather than at
/// the deadline.
final class TimerWait: DeadlineTimer.Entry, UpstreamLink, @unchecked Sendable {
    // @unchecked Sendable: `fire` is set at creation, then taken by exactly one party, the one the timer's lock
    // let take the entry (`expire()` or `cancelled()`). A wait cancelled before it was scheduled keeps it until the
    // wait itself is freed, which happens when its scheduler lets go of it.

    private var fire: (@Sendable () -> Void)?

    init(_ fire: @escaping @Sendable () -> Void) {
        self.fire = fire
    }

    override func expire() {
        fire.take()?()
    }

    override func cancelled() {
        fire = nil
    }

    // MARK: Upstream link

    func releaseDemand(of consumer: AnyObject) {
        DeadlineTimer.shared.cancel(self)
    }

    func releaseDemandWithoutUserCode(of consumer: AnyObject) {
        DeadlineTimer.shared.cancel(self)
    }

    /// Nothing to run in a blocked caller's place: only time brings the next step.
    func collectBlockingHelp(into help: inout BlockingHelp, timed: Bool) {}

    /// A wait has no work to commit: cancelling it cancels the wait.
    func markCancellation(unconditionally: Bool) -> CancellationStep { .stop }

    func refuseCancellation() {}

    var refusesCancellation: Bool { false }
    /// Walked through, not watched.
    func addWatcher(_ wakeUp: DispatchSemaphore) -> Bool { false }

    func removeWatcher(_ wakeUp: DispatchSemaphore) {}
}

extension Response {
    /// Runs `fire` on the library's timer thread once `duration` has passed, counted from now, unless this
    /// response settles first: the wait is this response's upstream meanwhile, so cancelling it cancels the wait.
    /// Does nothing if this response has settled.
    func wait(for duration: Duration, then fire: @escaping @Sendable () -> Void) {
        let wait = TimerWait(fire)
        guard replaceUpstream(with: wait) else { return }
        DeadlineTimer.shared.schedule(wait, at: .now() + duration.dispatchInterval)
    }
}
