import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct TestClockTests {
    // MARK: Time

    @Test func aNewClockStandsStillUntilItIsAdvanced() async {
        let clock = TestClock()
        let start = clock.now
        #expect(start.offset == .zero)
        #expect(clock.minimumResolution == .zero)
        await clock.advance(by: .seconds(30))
        #expect(clock.now == start.advanced(by: .seconds(30)))
        await clock.advance(to: clock.now.advanced(by: .milliseconds(5)))
        await clock.advance(by: .zero)
        #expect(start.duration(to: clock.now) == .milliseconds(30_005))
        #expect(clock.now.offset == .milliseconds(30_005))
    }

    // MARK: Advancing

    @Test func advancingResumesEverySleepNowDueEarliestDeadlineFirst() async throws {
        let clock = TestClock()
        let start = clock.now
        // One job at a time, in the order they come: the woken tasks run in the order the clock resumed them.
        let executor = SerialTaskExecutor()
        let woken = Woken()
        let sleepers = [3, 1, 2, 10].map { seconds in
            Task(executorPreference: executor) {
                try await clock.sleep(until: start.advanced(by: .seconds(seconds)))
                woken.record(seconds, at: clock.now.offset)
            }
        }
        _ = try await clock.deadlines(count: 4, timeout: .seconds(60))

        await clock.advance(by: .seconds(5))
        for index in [0, 1, 2] { try await sleepers[index].value }
        #expect(woken.entries.map(\.seconds) == [1, 2, 3])
        #expect(woken.entries.allSatisfy { $0.now == .seconds(5) })  // `now` is set before any is resumed

        await clock.advance(to: start.advanced(by: .seconds(10)))
        try await sleepers[3].value
        #expect(woken.entries.map(\.seconds) == [1, 2, 3, 10])
    }

    @Test func sleepsWithTheSameDeadlineResumeInTheOrderTheyBegan() async throws {
        let clock = TestClock()
        let executor = SerialTaskExecutor()
        let woken = Woken()
        var sleepers: [Task<Void, any Error>] = []
        for id in 1...3 {
            sleepers.append(
                Task(executorPreference: executor) {
                    try await clock.sleep(for: .seconds(1))
                    woken.record(id, at: clock.now.offset)
                }
            )
            _ = try await clock.deadlines(count: id, timeout: .seconds(60))
        }
        await clock.advance(by: .seconds(1))
        for sleeper in sleepers { try await sleeper.value }
        #expect(woken.entries.map(\.seconds) == [1, 2, 3])
    }

    @Test func aSleepWhoseDeadlineHasPassedReturnsAtOnce() async throws {
        let clock = TestClock()
        await clock.advance(by: .seconds(10))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-5)))
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        #expect(clock.now.offset == .seconds(10))
    }

    // MARK: Cancelling

    @Test func aCancelledSleepThrowsCancellationErrorAndLeavesNoSleeper() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        await clock.run()
        #expect(clock.now.offset == .zero)  // nothing was left to advance to
    }

    @Test func aSleepInACancelledTaskThrowsAtOnce() async {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(10))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        await clock.run()
        #expect(clock.now.offset == .zero)
    }

    // MARK: Running

    @Test func runAdvancesToEachNextDeadlineUntilNoSleepIsLeft() async throws {
        let clock = TestClock()
        let ticks = Task {
            for seconds in 1...5 { try await clock.sleep(for: .seconds(seconds)) }
        }
        _ = try await clock.deadlines(count: 1, timeout: .seconds(60))
        await clock.run()
        try await ticks.value
        #expect(clock.now.offset == .seconds(15))
        #expect(
            try await clock.deadlines(count: 5, timeout: .zero).map(\.offset)
                == [1, 3, 6, 10, 15].map(Duration.seconds)
        )
    }

    @Test func runWithNothingSleepingReturnsAtOnce() async {
        let clock = TestClock()
        await clock.run()
        #expect(clock.now.offset == .zero)
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func runStopsWithAClearMessageWhenATimerRestartsItselfForever() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = TestClock()
            // Several, so that some sleep is always there, whenever the pool gets to the others.
            let tickers = (1...2).map { _ in
                Task {
                    while true { try await clock.sleep(for: .seconds(1)) }
                }
            }
            _ = try? await clock.deadlines(count: 2, timeout: .seconds(60))
            await clock.run()
            for ticker in tickers { ticker.cancel() }
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("TestClock.run(): sleeps kept coming"))
    }
    #endif

    // MARK: Waiting for sleeps

    @Test func deadlinesWaitForASleepThatBeginsLater() async throws {
        let clock = TestClock()
        await clock.advance(by: .seconds(1))
        let refresh = Task { try await clock.sleep(for: .seconds(60)) }
        let deadlines = try await clock.deadlines(count: 1, timeout: .seconds(60))
        #expect(deadlines.map(\.offset) == [.seconds(61)])
        await clock.advance(to: deadlines[0])
        try await refresh.value
    }

    @Test func deadlinesThatDoNotComeSayHowManySleepsBegan() async throws {
        let clock = TestClock()
        try await clock.sleep(for: .zero)
        let error = try await #require(throws: ResponseProbeError.self) {
            try await clock.deadlines(count: 2, timeout: .milliseconds(20))
        }
        #expect(error.code == .timedOut)
        #expect(error.description.contains("TestClock: 2 sleeps were not begun within"))
        #expect(error.description.contains("1 was"))
    }

    // MARK: Misuse

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func advancingByANegativeDurationStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await TestClock().advance(by: .seconds(-1))
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("TestClock.advance(by:): the duration is -1.0 seconds; a clock never goes back"))
    }

    @Test func advancingToAnEarlierInstantStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = TestClock()
            let start = clock.now
            await clock.advance(by: .seconds(5))
            await clock.advance(to: start)
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            message.contains("TestClock.advance(to:): the instant is -5.0 seconds from now; a clock never goes back")
        )
    }
    #endif
}

/// What woken sleepers recorded, in the order they ran.
private final class Woken: Sendable {
    private let log = LockedBox<[(seconds: Int, now: Duration)]>([])

    func record(_ seconds: Int, at now: Duration) {
        log.withLock { $0.append((seconds, now)) }
    }

    var entries: [(seconds: Int, now: Duration)] {
        log.withLock { $0 }
    }
}

/// Runs jobs one at a time, in the order they come, on a queue of its own.
final class SerialTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
