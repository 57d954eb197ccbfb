import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct InteractorExecutorTests {
    @Test func aRequestReachesTheInteractorRegisteredForItsType() throws {
        let executor = InteractorExecutor()
        executor.register(GreetInteractor())
        executor.register(DoubleInteractor())
        let greeting: String = try executor.execute(GreetRequest(name: "ada")).get()
        #expect(greeting == "hello, ada")
        #expect(try executor.execute(DoubleRequest(number: 21)).get() == 42)
    }

    @Test func anUnregisteredRequestFailsNamingItsTypeAndRegisteringLaterMakesItSucceed() throws {
        let executor = InteractorExecutor()
        let response = executor.execute(GreetRequest(name: "ada"))
        #expect(response.isFailed)
        let error = try #require(response.error as? UnregisteredRequestError)
        #expect(error == UnregisteredRequestError(GreetRequest.self))
        #expect(error.requestType == String(reflecting: GreetRequest.self))

        executor.register(GreetInteractor())
        #expect(try executor.execute(GreetRequest(name: "ada")).get() == "hello, ada")
    }

    @Test func anUnregisteredRequestOnAQueueFailsAtOnce() {
        let response = InteractorExecutor().execute(GreetRequest(name: "ada"), on: DispatchQueue(label: "q"))
        #expect(response.error as? UnregisteredRequestError == UnregisteredRequestError(GreetRequest.self))
    }

    @Test func registeringATypeAgainReplacesItsInteractor() throws {
        let executor = InteractorExecutor()
        executor.register(AnyInteractor<GreetRequest, String> { _ in Response(value: "first") })
        executor.register(AnyInteractor<GreetRequest, String> { _ in Response(value: "second") })
        #expect(try executor.execute(GreetRequest(name: "")).get() == "second")
    }

    @Test func unregisteringMakesLaterRequestsFail() {
        let executor = InteractorExecutor()
        executor.register(GreetInteractor())
        executor.register(DoubleInteractor())
        #expect(executor.isRegistered(GreetRequest.self))
        executor.unregister(GreetRequest.self)
        #expect(!executor.isRegistered(GreetRequest.self))
        #expect(executor.isRegistered(DoubleRequest.self))
        #expect(executor.execute(GreetRequest(name: "")).error is UnregisteredRequestError)
    }

    @Test func executeReturnsTheInteractorsOwnResponseSoCancellingReachesTheWork() {
        let (pending, resolver) = Response<String>.makePending()
        let cancelled = Gate()
        resolver.onCancel { cancelled.open() }
        let executor = InteractorExecutor()
        executor.register(AnyInteractor<GreetRequest, String> { _ in pending })
        let response = executor.execute(GreetRequest(name: ""))
        #expect(response === pending)
        response.cancel()
        #expect(cancelled.wait())
    }

    @Test func aFactoryIsBuiltOnFirstExecutionAndNeverAgain() throws {
        let executor = InteractorExecutor()
        let builds = Counter()
        executor.register(DoubleRequest.self) {
            builds.increment()
            return DoubleInteractor()
        }
        #expect(executor.isRegistered(DoubleRequest.self))
        #expect(builds.value == 0)
        #expect(try executor.execute(DoubleRequest(number: 1)).get() == 2)
        #expect(try executor.execute(DoubleRequest(number: 2)).get() == 4)
        #expect(builds.value == 1)
    }

    @Test func aFactoryThatExecutesItsOwnRequestTypeFailsThatCallInsteadOfHanging() throws {
        let executor = InteractorExecutor()
        let inner = LockedBox<Response<Int>?>(nil)
        executor.register(DoubleRequest.self) {
            inner.withLock { $0 = executor.execute(DoubleRequest(number: 0)) }
            return DoubleInteractor()
        }
        #expect(try executor.execute(DoubleRequest(number: 3)).get() == 6)
        let cycle = try #require(inner.withLock { $0 }?.error as? InteractorFactoryCycleError)
        #expect(cycle.requestType == String(reflecting: DoubleRequest.self))
        #expect(cycle.description.contains("would wait for itself"))
    }

    @Test func anInteractorThatThrowsInsideItsWorkFailsWithThatError() {
        let executor = InteractorExecutor()
        executor.register(
            AnyInteractor<DoubleRequest, Int> { _ in Response(on: DispatchQueue.global()) { throw TestError(id: 9) } }
        )
        #expect(throws: TestError(id: 9)) { try executor.execute(DoubleRequest(number: 1)).get() }
    }

    @Test func anAsyncInteractorWorksThroughTheExecutor() async throws {
        let executor = InteractorExecutor()
        executor.register(AnyInteractor<DoubleRequest, Int> { request in Response { await twice(request.number) } })
        #expect(try await executor.execute(DoubleRequest(number: 5)).value == 10)
    }

    @Test func cancellingTheExecutorsResponseCancelsAnAsyncInteractorsTask() async throws {
        // Responses as gates: the test awaits them, so it holds no thread the task might need.
        let (started, startedResolver) = Response<Void>.makePending()
        let (taskCancelled, taskCancelledResolver) = Response<Void>.makePending()
        let executor = InteractorExecutor()
        executor.register(
            AnyInteractor<DoubleRequest, Int> { _ in
                Response {
                    startedResolver.succeed(())
                    do {
                        try await Task.sleep(for: .seconds(60))  // stands for long work; ends only by cancellation
                    } catch {
                        taskCancelledResolver.succeed(())
                        throw error
                    }
                    return 0
                }
            }
        )
        let response = executor.execute(DoubleRequest(number: 1))
        try await started.value
        response.cancel()
        try await taskCancelled.timeout(after: .seconds(10)).value
        #expect(response.isCancelled)
    }
}

private func twice(_ number: Int) async -> Int {
    await Task.yield()
    return number * 2
}
