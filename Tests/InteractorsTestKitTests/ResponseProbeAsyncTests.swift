import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseProbeAsyncTests {
    struct Failure: Error, Equatable {}

    @Test func valueReturnsAValueSettledOnAnotherThread() async throws {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { resolver.succeed(5) }
        #expect(try await probe.value(timeout: .seconds(10)) == 5)
        #expect(probe.deliveries == 1)
    }

    @Test func valueReturnsAtOnceForASettledResponse() async throws {
        #expect(try await ResponseProbe(Response(value: 3)).value(timeout: .zero) == 3)
    }

    @Test func valueThrowsTheResponsesError() async {
        let probe = ResponseProbe(Response<Int>(on: DispatchQueue.global()) { throw Failure() })
        await #expect(throws: Failure()) { try await probe.value(timeout: .seconds(10)) }
    }

    @Test func errorReturnsTheError() async throws {
        let probe = ResponseProbe(Response<Int>(on: DispatchQueue.global()) { throw Failure() })
        #expect(try await probe.error(timeout: .seconds(10)) as? Failure == Failure())
    }

    @Test func errorOnASuccessThrowsSayingSo() async throws {
        let probe = ResponseProbe(Response(value: 8))
        let error = try await #require(throws: ResponseProbeError.self) { try await probe.error(timeout: .seconds(1)) }
        #expect(error.code == .succeeded)
        #expect(error.description.contains("succeeded with 8"))
    }

    @Test func aWaitThatRunsOutThrowsAnErrorNamingTheTimeoutAndLeavesTheResponseAlone() async throws {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        let error = try await #require(throws: ResponseProbeError.self) {
            try await probe.value(timeout: .milliseconds(20))
        }
        #expect(error.code == .timedOut)
        #expect(error.description.contains("\(Duration.milliseconds(20))"))
        await #expect(throws: ResponseProbeError.timedOut(after: .zero)) { try await probe.error(timeout: .zero) }
        #expect(!response.isDone)
        resolver.succeed(1)
        #expect(try await probe.value(timeout: .seconds(10)) == 1)
    }

    @Test func aNegativeOrVeryLongTimeoutIsAccepted() async throws {
        let (pending, resolver) = Response<Int>.makePending()
        await #expect(throws: ResponseProbeError.timedOut(after: .zero)) {
            try await ResponseProbe(pending).value(timeout: .seconds(-1))
        }
        let probe = ResponseProbe(pending)
        async let value = probe.value(timeout: .seconds(Int64.max))
        resolver.succeed(2)
        #expect(try await value == 2)
    }

    @Test func cancellingTheWaitingTaskEndsTheWaitButNotTheResponse() async throws {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        let wait = Task { try await probe.value(timeout: .seconds(60)) }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
        #expect(!response.isDone)
        withExtendedLifetime(resolver) {}
    }

    @Test func manyWaitsOnTaskBackedResponsesHoldNoThreadOfThePool() async throws {
        // Each response's work is a task; had each wait blocked a thread of the pool (2 threads here), the tasks
        // could not run and the waits would time out.
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let probe = ResponseProbe(
                        Response<Int> {
                            try await Task.sleep(for: .milliseconds(20))
                            return index
                        }
                    )
                    return try await probe.value(timeout: .seconds(120))  // a guard: other tests may hold the pool
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted() == Array(0..<40))
    }
}
