import Dispatch
import Interactors
import Testing

/// Operators under racing settlement and cancellation, run under ThreadSanitizer in CI. Each round checks the
/// invariants that must hold whoever wins: one outcome, every handler once, cancellation only flowing down.
@Suite struct CompositionStressTests {
    static let rounds = 1_000

    @Test func chainsSettleOnceWhileSettlementAndCancellationRace() {
        let handlerRuns = Counter()
        let wrongOutcomes = Counter()
        let delivered = DispatchGroup()
        for round in 0..<Self.rounds {
            let (head, resolver) = Response<Int>.makePending()
            let tail = head.map { $0 + 1 }.flatMap { Response(value: $0 * 2) }.recover { _ in -1 }
            delivered.enter()
            tail.onResult(on: .immediate) { outcome in
                handlerRuns.increment()
                // Either the value went through, or cancellation of the tail's upstream was recovered.
                if case .success(let value) = outcome, value != (round + 1) * 2, value != -1 {
                    wrongOutcomes.increment()
                }
                if case .failure(let error) = outcome, !(error is CancellationError) { wrongOutcomes.increment() }
                delivered.leave()
            }
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                switch lane {
                case 0: resolver.succeed(round)
                case 1: tail.cancel()
                default: _ = tail.isDone
                }
            }
        }
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        #expect(handlerRuns.value == Self.rounds)
        #expect(wrongOutcomes.value == 0)
    }

    @Test func combinatorsSettleOnceWhileInputsRace() {
        let settled = Counter()
        let delivered = DispatchGroup()
        for round in 0..<Self.rounds {
            let pairs = (0..<4).map { _ in Response<Int>.makePending() }
            let inputs = pairs.map(\.response)
            let combined: [Response<Int>] = [
                Response.all(inputs).map { $0.reduce(0, +) },
                Response.any(inputs),
                Response.race(inputs),
                Response.zip(inputs[0], inputs[1]).map { $0 + $1 },
            ]
            for response in combined {
                delivered.enter()
                response.onResult(on: .immediate) { _ in
                    settled.increment()
                    delivered.leave()
                }
            }
            DispatchQueue.concurrentPerform(iterations: 5) { lane in
                if lane < 4 {
                    if lane == round % 4 {
                        pairs[lane].resolver.fail(TestError(id: lane))
                    } else {
                        pairs[lane].resolver.succeed(lane)
                    }
                } else {
                    combined[round % combined.count].cancel()
                }
            }
        }
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        #expect(settled.value == 4 * Self.rounds)
    }

    @Test func timeoutsRaceWithSettlement() {
        let delivered = DispatchGroup()
        let outcomes = Counter()
        for round in 0..<(Self.rounds / 4) {
            let (upstream, resolver) = Response<Int>.makePending()
            let timed = upstream.timeout(after: .microseconds(50))
            delivered.enter()
            timed.onResult(on: .immediate) { _ in
                outcomes.increment()
                delivered.leave()
            }
            DispatchQueue.global().async { resolver.succeed(round) }
        }
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        #expect(outcomes.value == Self.rounds / 4)
    }

    @Test func awaitingTasksRaceWithCancellation() async {
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<(Self.rounds / 4) {
                let (response, resolver) = Response<Int>.makePending()
                let waiter = Task { try await response.value }
                group.addTask {
                    _ = try? await waiter.value
                }
                group.addTask {
                    if round.isMultiple(of: 2) { waiter.cancel() }
                    resolver.succeed(round)
                }
            }
        }
    }
}
