import Interactors

/// A clock that moves only when the test moves it: pass it as the `clock:` of `timeout(after:clock:)`,
/// `delay(by:clock:)` or `Response.retry(...)`, or to code of your own that sleeps on a `Clock<Duration>`, and a
/// 30-second timeout or a five-attempt back-off is tested in microseconds, with no real time.
///
/// ```swift
/// @Test func theProfileGivesUpAfterThirtySeconds() async throws {
///     let clock = TestClock()
///     let profiles = InteractorSpy<ProfileRequest, Profile>()   // leaves the call pending
///     let probe = ResponseProbe(
///         profiles.execute(ProfileRequest(userID: 7)).timeout(after: .seconds(30), clock: clock)
///     )
///
///     await clock.advance(by: .seconds(29))
///     #expect(!probe.isDone)
///     await clock.advance(by: .seconds(1))
///     #expect(try await probe.error(timeout: .seconds(60)) as? ResponseError == .timedOut)
/// }
/// ```
///
/// Time stands still until ``advance(by:)`` or ``advance(to:)`` sets ``now`` and resumes every sleep now due,
/// earliest deadline first (in the order the sleeps began, for equal deadlines). Advancing does not wait for
/// the work the resumed sleeps go on to do: that work runs in its own tasks, so after advancing, await its
/// outcome (``ResponseProbe/value(timeout:)``, ``InteractorSpy/requests(count:timeout:)``). ``run()`` advances
/// to each next deadline in turn until no sleep is left.
///
/// A sleep whose deadline has passed returns at once; a sleep in a cancelled task throws `CancellationError` and
/// leaves nothing behind. The library's timers read their deadline (`now` plus the duration) when their wait
/// starts, so advancing right after `timeout(after:clock:)` fires it on time even if its task has not started.
/// Safe to use from any thread or task.
public final class TestClock: Clock, Sendable {
    /// A point in a test clock's time: how far it is from the moment the clock was made.
    public struct Instant: InstantProtocol {
        /// The time from the clock's start to this instant.
        public let offset: Duration

        init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later (earlier, for a negative one).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`; negative if `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    /// A task suspended in ``sleep(until:tolerance:)``.
    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        /// In the order the sleeps began.
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// The deadline of every sleep begun, in order, for ``deadlines(count:timeout:)``.
        var begun: [Instant] = []
        /// Sleeps resumed whose tasks have not run yet: ``run()`` waits for them before it looks for sleeps.
        var waking: Set<UInt64> = []

        /// Takes out the sleepers due at `now`, earliest deadline first, in the order they began for equal ones,
        /// to resume.
        mutating func takeDue() -> [Sleeper] {
            var due: [Sleeper] = []
            sleepers.removeAll { sleeper in
                guard sleeper.deadline <= now else { return false }
                due.append(sleeper)
                waking.insert(sleeper.id)
                return true
            }
            return due.enumerated().sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
        }
    }

    private let state = Watched(State())

    /// A clock at its start, with nothing sleeping on it.
    public init() {}

    /// The clock's time: where the last ``advance(by:)``, ``advance(to:)`` or ``run()`` left it.
    public var now: Instant {
        state.value.now
    }

    /// Zero: a sleep ends exactly at its deadline.
    public var minimumResolution: Duration {
        .zero
    }

    // MARK: Sleeping

    /// Suspends until the clock reaches `deadline`: returns at once if it has; throws `CancellationError` if the
    /// task is cancelled first, or already was. `tolerance` is ignored: the clock stands still between advances.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.modify { state in
            defer { state.nextID += 1 }
            state.begun.append(deadline)
            return state.nextID
        }
        defer { state.modify { _ = $0.waking.remove(id) } }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                // Checked with the lock held: a cancellation that comes after this check finds the sleeper in the
                // list and takes it out.
                let early = state.modify { state -> Result<Void, any Error>? in
                    if deadline <= state.now { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            let sleeper = state.modify { state in
                state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    // MARK: Waiting for sleeps

    /// Waits, suspended, until `count` sleeps have begun on this clock, and returns their deadlines, in the order
    /// they began; throws a ``ResponseProbeError`` with code ``ResponseProbeError/Code/timedOut`` if `timeout`
    /// (real time, a guard against a hang) passes first.
    ///
    /// For work that starts its sleep later, from a task of its own: once its sleep has begun, advancing to its
    /// deadline resumes it, whenever the work read the clock's time.
    ///
    /// ```swift
    /// let refresh = Task { try await clock.sleep(for: .seconds(60)) }   // begins whenever the task runs
    /// let deadlines = try await clock.deadlines(count: 1, timeout: .seconds(5))
    /// await clock.advance(to: deadlines[0])
    /// try await refresh.value
    /// ```
    ///
    /// Every sleep counts, the ones that returned at once or were cancelled too.
    ///
    /// - Precondition: `count` ≥ 0.
    public func deadlines(count: Int, timeout: Duration) async throws -> [Instant] {
        try await state.elements(Self.wanted, count: count, timeout: timeout, in: \.begun)
    }

    private static var wanted: ElementsWanted {
        ElementsWanted(owner: "TestClock", plural: "sleeps", participle: "begun")
    }

    // MARK: Moving time

    /// Moves the clock `duration` forward and resumes every sleep now due, earliest deadline first, without
    /// waiting for the work they go on to do.
    ///
    /// - Precondition: `duration` ≥ 0: a clock never goes back.
    public func advance(by duration: Duration) async {
        precondition(
            duration >= .zero,
            "TestClock.advance(by:): the duration is \(duration); a clock never goes back, advance by zero or more"
        )
        await letPendingWorkRun()
        resume(
            state.modify { state in
                state.now = state.now.advanced(by: duration)
                return state.takeDue()
            }
        )
    }

    /// Moves the clock to `deadline` and resumes every sleep now due, earliest deadline first, without waiting
    /// for the work they go on to do.
    ///
    /// - Precondition: `deadline` is not before ``now``: a clock never goes back.
    public func advance(to deadline: Instant) async {
        await letPendingWorkRun()
        let due = state.modify { state -> [Sleeper]? in
            guard deadline >= state.now else { return nil }
            state.now = deadline
            return state.takeDue()
        }
        guard let due else {
            let now = self.now
            preconditionFailure(
                "TestClock.advance(to:): the instant is \(now.duration(to: deadline)) from now; a clock never goes "
                    + "back, advance to now or later"
            )
        }
        resume(due)
    }

    /// Advances to each next deadline in turn, letting the work each advance resumes run, until no sleep is left
    /// after that work had its turn; then returns, the clock at the last deadline it reached.
    ///
    /// The work a sleep resumes may start a later sleep (the next wait of a retry) from a task of its own, or
    /// from a `DispatchQueue`. `run()` yields to it before looking for sleeps, but cannot know when work on a
    /// queue will get to its sleep: after `run()`, await the outcome rather than assume it is there, or advance
    /// step by step. A timer that restarts itself forever never leaves the clock without a sleep: `run()` stops
    /// the process with a message after 1,000 advances rather than hang. Cancelling the task that runs the clock
    /// makes `run()` return after its current advance.
    public func run() async {
        for _ in 0..<Self.longestRun {
            await letPendingWorkRun()
            guard !Task.isCancelled else { return }
            var next = state.value.sleepers.map(\.deadline).min()
            if next == nil {
                // None yet: one more turn for work that was about to begin its next sleep, before concluding.
                await letPendingWorkRun()
                next = state.value.sleepers.map(\.deadline).min()
            }
            guard let next else { return }
            resume(
                state.modify { state in
                    state.now = max(state.now, next)
                    return state.takeDue()
                }
            )
            await waitForWokenTasks()
        }
        preconditionFailure(
            "TestClock.run(): sleeps kept coming after \(Self.longestRun) advances, the last to \(now.offset) "
                + "from the start; a timer that restarts itself forever never lets run() finish: use advance(by:)"
        )
    }

    private static let longestRun = 1_000

    private func resume(_ due: [Sleeper]) {
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until every task whose sleep was resumed has run again, past its sleep: on a busy machine the pool
    /// may take a while to get to them. A guard of a minute, then `run()` goes on without them.
    private func waitForWokenTasks() async {
        _ = try? await state.value(timeout: .seconds(60), until: { $0.waking.isEmpty ? true : nil }) { _ in
            ResponseProbeError(code: .timedOut, description: "TestClock.run(): woken tasks did not run")
        }
    }

    /// Gives tasks that are ready to run (a timer about to begin its sleep, work a sleep just resumed) their
    /// turn: hops through a low-priority task a few times, so the ready work of higher priority goes first.
    private func letPendingWorkRun() async {
        for _ in 0..<Self.yields {
            await Task.detached(priority: .background) { await Task.yield() }.value
        }
    }

    private static let yields = 10
}
