import Interactors
import InteractorsPresentation
import TestThreads
import Testing

/// A state holding an object whose release a test can watch.
private struct Holding: Sendable {
    let object: Tracked
}

@Suite(.onThreadsOfTheirOwn) struct StoreStatesTests {
    @Test func statesStartWithTheCurrentStateThenEveryChange() async {
        let store = Store(0, queue: .immediate)
        var received: [Int] = []
        for await state in store.states {
            received.append(state)
            if state < 3 { store.update { $0 += 1 } } else { break }
        }
        #expect(received == [0, 1, 2, 3])
    }

    @Test func iterationStartsWithTheStateCurrentWhenItBeginsNotWhenTheSequenceWasMade() async throws {
        let store = Store(0, queue: .immediate)
        let states = store.states
        store.update { $0 = 1 }
        store.update { $0 = 2 }
        var iterator = states.makeAsyncIterator()
        store.update { $0 = 3 }
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == 3)
    }

    @Test func statesDropNothingTheLoopHasNotReachedYet() async throws {
        let store = Store(0, queue: .immediate)
        var iterator = store.states.makeAsyncIterator()  // iteration begins: from here on, nothing is dropped
        for _ in 0..<1_000 { store.update { $0 += 1 } }
        var received: [Int] = []
        while let state = try await iterator.next() {
            received.append(state)
            if state == 1_000 { break }
        }
        #expect(received == Array(0...1_000))
    }

    @Test func aSequenceThatIsNeverIteratedHoldsNoState() {
        let store = Store(Holding(object: Tracked()), queue: .immediate)
        let weak = WeakBox(store.state.object)
        let states = store.states
        let buffered = store.states(bufferingNewest: 5)
        store.update { $0 = Holding(object: Tracked()) }
        #expect(weak.object == nil)  // replaced, and held by no buffer
        withExtendedLifetime((states, buffered)) {}
    }

    @Test func aSequenceDoesNotKeepItsStoreAlive() {
        var store: Store<Int>? = Store(0, queue: .immediate)
        let weak = WeakBox(store!)
        let states = store!.states
        store = nil
        #expect(weak.object == nil)
        withExtendedLifetime(states) {}
    }

    @Test func statesEndWhenTheStoreIsReleased() async throws {
        var store: Store<Int>? = Store(0, queue: .immediate)
        var iterator = store!.states.makeAsyncIterator()
        store!.update { $0 = 1 }
        store = nil
        var received: [Int] = []
        while let state = try await iterator.next() { received.append(state) }
        #expect(received == [0, 1])
    }

    @Test func iteratingOnceTheStoreIsGoneEndsAtOnce() async {
        var store: Store<Int>? = Store(0, queue: .immediate)
        let states = store!.states
        store = nil
        var received: [Int] = []
        for await state in states { received.append(state) }
        #expect(received.isEmpty)
    }

    @Test func cancellingTheLoopsTaskEndsTheLoop() async {
        let store = Store(0, queue: .immediate)
        let (started, start) = AsyncStream<Void>.makeStream()
        let loop = Task {
            var count = 0
            for await _ in store.states {
                count += 1
                start.yield()
            }
            return count
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        loop.cancel()
        #expect(await loop.value == 1)
    }

    @Test func bufferingNewestKeepsOnlyTheNewestStatesNotYetTaken() async throws {
        let store = Store(0, queue: .immediate)
        var iterator = store.states(bufferingNewest: 3).makeAsyncIterator()
        for _ in 0..<100 { store.update { $0 += 1 } }
        #expect(try await iterator.next() == 98)
        #expect(try await iterator.next() == 99)
        #expect(try await iterator.next() == 100)
        store.update { $0 = 101 }
        #expect(try await iterator.next() == 101)
    }

    @Test func bufferingTheNewestOneAlwaysGivesTheLatestState() async throws {
        let store = Store(0, queue: .immediate)
        var iterator = store.states(bufferingNewest: 1).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        store.update { $0 = 1 }
        store.update { $0 = 2 }
        #expect(try await iterator.next() == 2)
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func bufferingNoStateStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Store(0, queue: .immediate).states(bufferingNewest: 0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("states(bufferingNewest:) needs a count of at least 1"))
    }
    #endif
}
