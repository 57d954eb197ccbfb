import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseDescribingTests {
    @Test func debugDescriptionOfAPendingResponseNamesWhereItWasCreated() {
        let (response, resolver) = Response<Int>.makePending()
        let line = #line - 1
        #if DEBUG
        #expect(
            response.debugDescription
                == "Response<Int>(pending, created at InteractorsTests/ResponseDescribingTests.swift:\(line))"
        )
        #else
        #expect(response.debugDescription == "Response<Int>(pending)")
        #endif
        resolver.succeed(1)
        #expect(response.debugDescription == "Response<Int>(succeeded: 1)")
    }

    @Test func debugDescriptionNamesTheSiteOfEveryCreatingInitializer() {
        let queue = ManualCallbackQueue()
        let queued = Response(on: queue) { 1 }
        let resolved = Response<Int> { resolver in _ = resolver.isDone }
        #if DEBUG
        #expect(queued.debugDescription.contains("created at InteractorsTests/ResponseDescribingTests.swift:"))
        #endif
        #expect(resolved.isFailed)  // its resolver was dropped: settled, so described by its outcome
        queue.runAll()
    }
}
