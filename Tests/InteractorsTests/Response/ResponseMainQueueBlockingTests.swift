import Dispatch
import Interactors
import Testing

/// A caller blocked on the main queue runs the library's main-queue jobs while it waits. The waits here have a
/// guard deadline: a regression fails them instead of blocking the main queue for good.
@Suite struct ResponseMainQueueBlockingTests {
    @MainActor
    @Test func blockingOnTheMainQueueRunsTheMainQueueHandlerThatSettlesTheResponse() throws {
        let (response, resolver) = Response<Int>.makePending()
        Response(on: DispatchQueue.global()) { 4 }.onCompletion(on: .main) { value in resolver.succeed(value) }
        #expect(try response.get(timeout: .seconds(10)) == 4)
    }

    @MainActor
    @Test func blockingOnTheMainQueueRunsMainQueueWorkQueuedAfterTheWaitBegan() throws {
        let response = Response(on: DispatchQueue.global()) { 1 }.flatMap { value in Response(on: .main) { value + 1 } }
        #expect(try response.get(timeout: .seconds(10)) == 2)
    }

    @MainActor
    @Test func mainQueueJobsRunInTheOrderTheyWereScheduled() throws {
        let order = Recorder<Int>()
        let (response, resolver) = Response<Int>.makePending()
        Response(on: DispatchQueue.global()) { 0 }
            .onCompletion(on: .main) { _ in order.record(1) }
            .onCompletion(on: .main) { _ in order.record(2) }
            .onCompletion(on: .main) { value in resolver.succeed(value) }
        _ = try response.get(timeout: .seconds(10))
        #expect(order.elements == [1, 2])
    }
}
