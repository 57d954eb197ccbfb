import Dispatch
import Interactors
import TestThreads
import Testing

/// Many consumers of one shared pending response letting go: each takes its own stage out (with what it
/// captured), the others keep their place and their order, and the last one to go cancels the shared response.
/// Long lists go through the owner index (`HandlerOwnerIndex`), so these tests use a few hundred consumers.
@Suite(.onThreadsOfTheirOwn) struct ResponseManyConsumersTests {
    @Test func consumersLettingGoOfALongListLeaveTheOthersInRegistrationOrder() throws {
        let (shared, resolver) = Response<Int>.makePending()
        let heard = Recorder<Int>()
        var released: [Weak<Tracked>] = []
        var derived: [Response<Int>] = []
        for index in 0..<300 {
            let tracked = Tracked()
            released.append(Weak(tracked))
            let consumer = shared.map { value in
                withExtendedLifetime(tracked) {}
                return value + index
            }
            consumer.onCompletion(on: .immediate) { _ in heard.record(index) }
            derived.append(consumer)
        }
        // Every third one lets go, the last ones first, then the others in the middle of the list.
        let leaving = Array(stride(from: 0, to: 300, by: 3).reversed())
        for index in leaving { derived[index].cancel() }
        #expect(released.enumerated().allSatisfy { index, weak in (weak.object == nil) == (index % 3 == 0) })
        #expect(!shared.isDone)

        resolver.succeed(1)
        let staying = (0..<300).filter { $0 % 3 != 0 }
        #expect(heard.elements.filter { $0 % 3 != 0 } == staying)
        for index in staying { #expect(try derived[index].get(timeout: .seconds(10)) == 1 + index) }
        for index in leaving { #expect(derived[index].wasCancelledOrFailed) }
    }

    @Test func theLastOfManyConsumersToLetGoCancelsTheSharedResponse() {
        let (shared, resolver) = Response<Int>.makePending()
        let cancelled = Counter()
        resolver.onCancel { cancelled.increment() }
        let derived = (0..<500).map { _ in shared.map { $0 + 1 } }
        for consumer in derived.dropLast() { consumer.cancel() }
        #expect(cancelled.value == 0)
        #expect(!shared.isDone)
        derived.last!.cancel()
        #expect(cancelled.value == 1)
        #expect(shared.isDone)
    }

    @Test func consumersAddedAfterOthersLetGoCanLetGoToo() {
        let (shared, resolver) = Response<Int>.makePending()
        let heard = Recorder<Int>()
        func consumer(_ index: Int) -> Response<Int> {
            let mapped = shared.map { $0 + index }
            mapped.onCompletion(on: .immediate) { _ in heard.record(index) }
            return mapped
        }
        let first = (0..<100).map(consumer)
        first[0].cancel()  // builds the index
        let second = (100..<200).map(consumer)
        for index in stride(from: 1, to: 100, by: 2) { first[index].cancel() }
        for index in stride(from: 0, to: 100, by: 2) { second[index].cancel() }
        resolver.succeed(0)
        let expected = (2..<100).filter { $0 % 2 == 0 } + (100..<200).filter { $0 % 2 == 1 }
        #expect(heard.elements == expected)
    }

    @Test func aConsumerOfTheSameResponseTwiceLetsGoOfBothStages() throws {
        let (shared, resolver) = Response<Int>.makePending()
        let others = (0..<100).map { _ in shared.map { $0 } }
        let both = Response.all([shared, shared])
        let more = (0..<100).map { _ in shared.map { $0 } }
        for consumer in others.prefix(50) { consumer.cancel() }
        both.cancel()
        #expect(!shared.isDone)
        resolver.succeed(7)
        for consumer in others.dropFirst(50) + more { #expect(try consumer.get(timeout: .seconds(10)) == 7) }
        #expect(both.wasCancelledOrFailed)
    }

    @Test func aPendingResponseWhoseConsumersComeAndGoHoldsOnlyTheLiveOnes() {
        let (shared, resolver) = Response<Int>.makePending()
        let keeper = shared.map { $0 }
        var live: [Response<Int>] = (0..<40).map { _ in shared.map { $0 } }
        var released: [Weak<Tracked>] = []
        // Thousands of arrivals and departures with about 40 consumers at any time: every departure frees what
        // the consumer captured, and the shared response stays pending for the ones left.
        for round in 0..<5_000 {
            let tracked = Tracked()
            if round % 100 == 0 { released.append(Weak(tracked)) }
            live.append(shared.map { value in withExtendedLifetime(tracked) { value } })
            live.removeFirst().cancel()
        }
        live.forEach { $0.cancel() }
        #expect(released.allSatisfy { $0.object == nil })
        #expect(!shared.isDone)
        resolver.succeed(1)
        withExtendedLifetime(keeper) {}
    }
}

extension Response {
    /// Whether the response failed (a cancelled consumer fails with `CancellationError`).
    fileprivate var wasCancelledOrFailed: Bool {
        error is CancellationError
    }
}
