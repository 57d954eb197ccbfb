// MARK: Timers driven by a clock
//
// `timeout`, `delay` and `retry` given a `clock:` wait on that clock instead of the library's timer thread or
// Dispatch: a test passes a clock it moves by hand, and a 30-second timeout fires when the test says so. The wait
// is a task sleeping on the clock, so it runs where the clock's sleeps resume: it makes no promise of
// independence from Dispatch's pool or Swift Concurrency's, as the timers without a clock do.
//
// The deadline is read when the wait starts, on the caller's thread, not when the task gets to run: a test that
// advances the clock right after the call sees the timer fire on time, however late the task starts. The timer
// ends with the response: once the response is cancelled, settles otherwise, or is freed, the task is cancelled
// and the clock's sleep with it, so no sleeper is left on a test clock and no task outlives its purpose.

/// Where a response keeps its clock-driven timer: one at a time, each a task that sleeps on the clock until its
/// deadline, then fires. Closing the slot (the response was cancelled, or settled otherwise and let go of the
/// slot) cancels the timer under way and refuses later ones.
final class ClockTimerSlot: Sendable {
    private struct State {
        var timer: Task<Void, Never>?
        var isClosed = false
    }

    private let state = LockedBox(State())

    /// Starts a timer whose deadline is `clock.now` plus `duration`, read now. Once the clock's sleep returns,
    /// `fire` runs in the timer's task with `nil`; if the sleep throws for another reason than the timer's
    /// cancellation (a clock of the user's that fails), with that error, so the response does not wait forever.
    /// Replaces the previous timer, which has fired already (`retry` starts the next one from the last one's
    /// `fire`, so it is not cancelled: that would cancel the task running the caller). Does nothing once closed.
    func start<SomeClock: Clock<Duration>>(
        on clock: SomeClock,
        after duration: Duration,
        _ fire: @escaping @Sendable (_ clockError: (any Error)?) -> Void
    ) {
        let deadline = clock.now.advanced(by: duration)
        let timer = Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                if !Task.isCancelled { fire(error) }
                return
            }
            if !Task.isCancelled { fire(nil) }
        }
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.timer = timer
            return true
        }
        if !accepted { timer.cancel() }
    }

    /// Cancels the timer under way, ending its sleep on the clock, and refuses later ones.
    func close() {
        let timer = state.withLock { state in
            state.isClosed = true
            return state.timer.take()
        }
        timer?.cancel()
    }

    deinit {
        close()
    }
}

extension Response {
    /// A slot for this response's clock-driven timers, closed when the response is cancelled, or when it settles
    /// otherwise or is freed and the slot's last holder lets go of it.
    func makeClockTimerSlot() -> ClockTimerSlot {
        let slot = ClockTimerSlot()
        // A cancellation handler, held by the response until it settles: run if it is cancelled, released (and
        // the slot with it, unless someone else holds it) if it settles otherwise.
        whenCancelled { slot.close() }
        return slot
    }

    /// Runs `fire` in a task once `duration` has passed on `clock`, counted from now, unless this response
    /// settles first (see `ClockTimerSlot.start`).
    func startClockTimer(
        on clock: any Clock<Duration>,
        after duration: Duration,
        _ fire: @escaping @Sendable (_ clockError: (any Error)?) -> Void
    ) {
        guard !isDone else { return }
        makeClockTimerSlot().start(on: clock, after: duration, fire)
    }
}
