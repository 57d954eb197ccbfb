import Interactors
import InteractorsPresentation
import Testing

@Suite struct StoreStatesTests {
    @Test func statesStartWithTheCurrentStateThenEveryChange() async {
        let store = Store(0, queue: .immediate)
        var received: [Int] = []
        for await state in store.states {
            received.append(state)
            if state < 3 { store.update { $0 += 1 } } else { break }
        }
        #expect(received == [0, 1, 2, 3])
    }

    @Test func statesDropNothingTheLoopHasNotReachedYet() async {
        let store = Store(0, queue: .immediate)
        let states = store.states
        for _ in 0..<1_000 { store.update { $0 += 1 } }
        var received: [Int] = []
        for await state in states {
            received.append(state)
            if state == 1_000 { break }
        }
        #expect(received == Array(0...1_000))
    }

    @Test func statesEndWhenTheStoreIsReleased() async {
        var store: Store<Int>? = Store(0, queue: .immediate)
        let states = store!.states
        store!.update { $0 = 1 }
        store = nil
        var received: [Int] = []
        for await state in states { received.append(state) }
        #expect(received == [0, 1])
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
}
