import Dispatch
import Interactors
import TestThreads
import Testing

/// Many threads racing on the same responses. Run under ThreadSanitizer in CI (`swift test --sanitize=thread`).
@Suite(.onThreadsOfTheirOwn) struct ResponseStressTests {
    static let responses = 2_000

    @Test func racingResolutionsSettleOnceAndEveryHandlerRunsOnce() {
        let handlerRuns = Counter()
        let wins = Counter()
        let queue = DispatchQueue(label: "handlers", attributes: .concurrent)
        let delivered = DispatchGroup()
        for round in 0..<Self.responses {
            let (response, resolver) = Response<Int>.makePending()
            for _ in 0..<3 { delivered.enter() }
            DispatchQueue.concurrentPerform(iterations: 6) { lane in
                switch lane {
                case 0: if resolver.succeed(round) { wins.increment() }
                case 1: if resolver.fail(TestError(id: round)) { wins.increment() }
                case 2:
                    response.onResult(on: .immediate) { _ in
                        handlerRuns.increment()
                        delivered.leave()
                    }
                case 3:
                    response.onResult(on: queue) { _ in
                        handlerRuns.increment()
                        delivered.leave()
                    }
                case 4: _ = response.isDone && response.isSuccessful != response.isFailed
                default:
                    response.onResult(on: .immediate) { _ in
                        handlerRuns.increment()
                        delivered.leave()
                    }
                }
            }
        }
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        #expect(wins.value == Self.responses)
        #expect(handlerRuns.value == 3 * Self.responses)
    }

    @Test func racingCancellationAndResolutionAgreeOnTheOutcome() {
        let disagreements = Counter()
        let cancelHandlerRuns = Counter()
        let cancellations = Counter()
        for round in 0..<Self.responses {
            let (response, resolver) = Response<Int>.makePending()
            resolver.onCancel { cancelHandlerRuns.increment() }
            let observed = Recorder<Result<Int, any Error>>()
            response.onResult(on: .immediate) { observed.record($0) }
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                switch lane {
                case 0: resolver.succeed(round)
                case 1: response.cancel()
                default: _ = response.isCancelled
                }
            }
            if response.isCancelled { cancellations.increment() }
            let outcome = observed.elements
            let agrees: Bool
            switch outcome.first {
            case .success(let value)?: agrees = outcome.count == 1 && value == round && !response.isCancelled
            case .failure(let error)?: agrees = outcome.count == 1 && error is CancellationError && response.isCancelled
            case nil: agrees = false
            }
            if !agrees { disagreements.increment() }
        }
        #expect(disagreements.value == 0)
        #expect(cancelHandlerRuns.value == cancellations.value)
    }

    /// Rounds whose threads block at once: enough to race, few enough for threads of their own.
    static let roundsAtOnce = 25

    // The blocked waiters below block threads of their own, a batch of rounds at a time, and the test waits on a
    // thread of its own too: blocked on Dispatch's pool, they would hold the threads every other test running
    // meanwhile needs (on Linux the pool starts about one more thread a second while its threads are blocked,
    // and Swift's tasks wait for it too).

    @Test func everyBlockedWaiterWakes() async {
        let woke = Counter()
        await onAThreadOfItsOwn {
            for rounds in Self.batches(of: Self.responses / 4) {
                let pending = rounds.map { round in (round, Response<Int>.makePending()) }
                // Per round, three waiters and the resolver, started together.
                TestThread.runConcurrently(pending.count * 4) { index in
                    let (round, (response, resolver)) = pending[index / 4]
                    if index % 4 == 3 {
                        resolver.succeed(round)
                    } else if (try? response.get(timeout: .seconds(30))) == round {
                        woke.increment()
                    }
                }
            }
        }
        #expect(woke.value == 3 * (Self.responses / 4))
    }

    @Test func queuedWorkRacingWithItsBlockedCallersRunsOnce() async {
        let runs = Counter()
        let correct = Counter()
        let serial = DispatchQueue(label: "owner")
        await onAThreadOfItsOwn {
            for rounds in Self.batches(of: Self.responses / 4) {
                let responses = rounds.map { round in
                    (
                        round,
                        Response(on: serial) {
                            runs.increment()
                            return round
                        }
                    )
                }
                TestThread.runConcurrently(responses.count) { index in
                    let (round, response) = responses[index]
                    // Half the waiters run on the owning queue, where the work must run inline.
                    let value =
                        round.isMultiple(of: 2)
                        ? serial.sync { try? response.get(timeout: .seconds(30)) }
                        : try? response.get(timeout: .seconds(30))
                    if value == round { correct.increment() }
                }
            }
            serial.sync {}
        }
        #expect(runs.value == Self.responses / 4)
        #expect(correct.value == Self.responses / 4)
    }

    /// `0..<count` in batches of ``roundsAtOnce``.
    private static func batches(of count: Int) -> [Range<Int>] {
        stride(from: 0, to: count, by: roundsAtOnce).map { $0..<min($0 + roundsAtOnce, count) }
    }
}
