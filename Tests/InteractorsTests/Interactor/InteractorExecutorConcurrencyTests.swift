import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct InteractorExecutorConcurrencyTests {
    @Test func requestsOfSeveralTypesFromManyThreadsEachReachTheirOwnInteractor() throws {
        let executor = InteractorExecutor()
        let greet = GreetInteractor(queue: DispatchQueue(label: "greet"))
        executor.register(greet)
        executor.register(DoubleInteractor(queue: DispatchQueue.global()))
        executor.register(CountRequest.self) { CountInteractor() }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 300) { index in
            let number = index / 3
            let correct: Bool
            switch index % 3 {
            case 0: correct = (try? executor.execute(GreetRequest(name: "\(number)")).get()) == "hello, \(number)"
            case 1: correct = (try? executor.execute(DoubleRequest(number: number)).get()) == number * 2
            default:
                correct =
                    (try? executor.execute(CountRequest(text: String(repeating: "x", count: number))).get()) == number
            }
            if !correct { failures.increment() }
        }
        #expect(failures.value == 0)
        #expect(Set(greet.received.elements) == Set((0..<100).map { "\($0)" }))
    }

    @Test func aLazilyRegisteredInteractorIsBuiltExactlyOnceUnderContention() {
        for _ in 0..<20 {
            let executor = InteractorExecutor()
            let builds = Counter()
            executor.register(DoubleRequest.self) {
                builds.increment()
                return DoubleInteractor()
            }
            let results = Recorder<Int>()
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                if let value = try? executor.execute(DoubleRequest(number: index)).get() { results.record(value) }
            }
            #expect(builds.value == 1)
            #expect(results.elements.sorted() == (0..<16).map { $0 * 2 })
        }
    }

    @Test func executionsThatArriveWhileTheFactoryRunsWaitForThatOneInteractor() throws {
        let executor = InteractorExecutor()
        let building = Gate(), finishBuilding = Gate()
        let builds = Counter()
        executor.register(DoubleRequest.self) {
            builds.increment()
            building.open()
            finishBuilding.wait()
            return DoubleInteractor()
        }
        let first = Recorder<Int>()
        let firstDone = onAnotherThread { first.record((try? executor.execute(DoubleRequest(number: 1)).get()) ?? -1) }
        #expect(building.wait())
        let second = Recorder<Int>()
        let secondDone = onAnotherThread {
            second.record((try? executor.execute(DoubleRequest(number: 2)).get()) ?? -1)
        }
        finishBuilding.open()
        wait(for: firstDone, "the execution that built the interactor")
        wait(for: secondDone, "the execution that waited for it")
        #expect(first.elements == [2])
        #expect(second.elements == [4])
        #expect(builds.value == 1)
    }

    @Test func registeringAndExecutingFromManyThreadsAtOnceNeverLosesACall() {
        let executor = InteractorExecutor()
        let answered = Counter()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            switch index % 4 {
            case 0: executor.register(GreetInteractor())
            case 1: executor.unregister(GreetRequest.self)
            case 2: _ = executor.isRegistered(GreetRequest.self)
            default:
                // Registered or not at this instant, the call settles: with a greeting or the clear error.
                let response = executor.execute(GreetRequest(name: "x"))
                if response.isSuccessful || response.error is UnregisteredRequestError { answered.increment() }
            }
        }
        #expect(answered.value == 50)
    }
}
