import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseAsyncTests {
    @Test func valueReturnsTheValueOnceSettledElsewhere() async throws {
        let (response, resolver) = Response<Int>.makePending()
        DispatchQueue.global().async { resolver.succeed(10) }
        #expect(try await response.value == 10)
    }

    @Test func valueOfASettledResponseReturnsAtOnce() async throws {
        #expect(try await Response(value: 4).value == 4)
    }

    @Test func valueThrowsTheFailure() async {
        await #expect(throws: TestError(id: 5)) { try await Response<Int>(error: TestError(id: 5)).value }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheResponse() async {
        let (response, resolver) = Response<Int>.makePending()
        let waiter = Task { try await response.value }
        await withCheckedContinuation { continuation in
            resolver.onCancel { continuation.resume() }
            waiter.cancel()
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(response.isCancelled)
    }
}
