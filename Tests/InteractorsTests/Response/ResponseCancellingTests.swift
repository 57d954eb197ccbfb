import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseCancellingTests {
    @Test func cancellingAPendingResponseFailsItWithCancellationError() {
        let (response, resolver) = Response<Int>.makePending()
        response.cancel()
        #expect(response.isCancelled)
        #expect(response.isFailed)
        #expect(response.error is CancellationError)
        #expect(!resolver.succeed(1))
    }

    @Test func cancellationReachesFailureHandlers() {
        let (response, resolver) = Response<Int>.makePending()
        defer { _ = resolver }
        let errors = Recorder<Bool>()
        response.onFailure(on: .immediate) { errors.record($0 is CancellationError) }
        response.cancel()
        #expect(errors.elements == [true])
    }

    @Test func cancellingASettledResponseChangesNothing() throws {
        let response = Response(value: 1)
        response.cancel()
        #expect(!response.isCancelled)
        #expect(try response.get() == 1)
    }

    @Test func cancelledQueuedWorkThatHasNotStartedNeverRuns() {
        let queue = ManualCallbackQueue()
        let runs = Counter()
        let response = Response(on: queue) { runs.increment() }
        response.cancel()
        queue.runAll()
        #expect(runs.value == 0)
        #expect(response.isCancelled)
    }

    @Test func cancellingAnAsyncResponseCancelsItsTask() async {
        // Awaited, not blocked on: a blocked test thread could be the one the task needs.
        let sawCancellation = await withCheckedContinuation { continuation in
            let response = Response { () async throws -> Int in
                do {
                    try await Task.sleep(for: .seconds(60))
                    continuation.resume(returning: false)
                } catch {
                    continuation.resume(returning: error is CancellationError)
                }
                return 0
            }
            response.cancel()
        }
        #expect(sawCancellation)
    }

    @Test func aCancelledQueuedResponseLetsGoOfItsWorkAndItselfBeforeTheQueueReachesTheJob() {
        let queue = DispatchQueue(label: "backlog")
        let release = Gate()
        queue.async { release.wait() }  // a backlog: the queue gets to the dead job only once released
        let work = TrackedWork(on: queue) { $0.cancel() }
        #expect(work.isReleased)
        release.open()
        queue.sync {}
    }
}
