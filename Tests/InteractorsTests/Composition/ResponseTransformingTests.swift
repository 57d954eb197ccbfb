import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

enum AuthError: Error, Equatable {
    case expired
}

@Suite(.onThreadsOfTheirOwn) struct ResponseTransformingTests {
    @Test func mapTransformsTheValue() throws {
        #expect(try Response(value: 2).map { $0 * 10 }.get() == 20)
    }

    @Test func mapThatThrowsFailsWithTheError() {
        let mapped = Response(value: 2).map { _ -> Int in throw TestError(id: 1) }
        #expect(throws: TestError(id: 1)) { try mapped.get() }
    }

    @Test func failuresKeepTheirIdentityThroughTransforms() {
        let chained = Response<Int>(error: AuthError.expired)
            .map { $0 + 1 }
            .flatMap { Response(value: "\($0)") }
            .map { $0.count }
        #expect(throws: AuthError.expired) { try chained.get() }
    }

    @Test func flatMapContinuesWithTheReturnedResponse() throws {
        let (inner, resolver) = Response<String>.makePending()
        let chained = Response(value: 1).flatMap { _ in inner }
        #expect(!chained.isDone)
        resolver.succeed("inner")
        #expect(try chained.get() == "inner")
    }

    @Test func flatMapThatThrowsFailsWithTheError() {
        let chained = Response(value: 1).flatMap { _ -> Response<Int> in throw TestError(id: 2) }
        #expect(throws: TestError(id: 2)) { try chained.get() }
    }

    @Test func recoverTurnsAFailureIntoAValue() throws {
        #expect(try Response<Int>(error: TestError()).recover { _ in 7 }.get() == 7)
        #expect(try Response(value: 1).recover { _ in 7 }.get() == 1)
    }

    @Test func recoverThatThrowsFailsAgain() {
        let recovered = Response<Int>(error: TestError(id: 1)).recover { _ in throw TestError(id: 2) }
        #expect(throws: TestError(id: 2)) { try recovered.get() }
    }

    @Test func flatRecoverContinuesWithTheReturnedResponse() throws {
        let recovered = Response<Int>(error: TestError()).flatRecover { _ in Response(value: 9) }
        #expect(try recovered.get() == 9)
    }

    @Test func mapErrorReplacesTheError() {
        let mapped = Response<Int>(error: TestError(id: 1)).mapError { _ in AuthError.expired }
        #expect(throws: AuthError.expired) { try mapped.get() }
    }

    @Test func stagesRunInlineOnTheSettlingThread() {
        let (response, resolver) = Response<Int>.makePending()
        let stageThreads = Recorder<UInt>()
        let settlingThread = Recorder<UInt>()
        let done = Gate()
        response
            .map { value -> Int in
                stageThreads.record(currentThreadID())
                return value
            }
            .flatMap { value -> Response<Int> in
                stageThreads.record(currentThreadID())
                return Response(value: value)
            }
            .onResult(on: .immediate) { _ in done.open() }
        DispatchQueue.global().async {
            settlingThread.record(currentThreadID())
            resolver.succeed(1)
        }
        #expect(done.wait())
        #expect(stageThreads.elements == Array(repeating: settlingThread.elements[0], count: 2))
    }

    @Test func derivedResponsesDeliverOnTheUpstreamCallbackQueueByDefault() {
        let queue = ManualCallbackQueue()
        let received = Recorder<Int>()
        Response(value: 1, callbackQueue: queue).map { $0 + 1 }.onCompletion { received.record($0) }
        #expect(received.elements.isEmpty)
        queue.runAll()
        #expect(received.elements == [2])
    }

    @Test func derivedResponsesTakeACallbackQueueOfTheirOwn() {
        let queue = ManualCallbackQueue()
        let received = Recorder<Int>()
        Response(value: 1, callbackQueue: .immediate).map(callbackQueue: queue) { $0 + 1 }
            .onCompletion { received.record($0) }
        queue.runAll()
        #expect(received.elements == [2])
        let immediate = Response(value: 1, callbackQueue: queue).map(callbackQueue: .immediate) { $0 }
        immediate.onCompletion { received.record($0) }
        #expect(received.elements == [2, 1])
    }

    @Test func tenThousandStageChainSettlesOnAWorkerThread() {
        let (head, resolver) = Response<Int>.makePending()
        var tail = head
        for _ in 0..<10_000 { tail = tail.map { $0 + 1 } }
        let finalTail = tail
        let done = Gate()
        // Dispatch worker threads have small stacks: a recursive settlement would overflow here.
        DispatchQueue.global().async {
            resolver.succeed(0)
            done.open()
        }
        #expect(done.wait(guardSeconds: 60))
        #expect((try? finalTail.get()) == 10_000)
    }

    @Test func tenThousandStageChainCancelsDownToItsHeadOnAWorkerThread() {
        let (head, resolver) = Response<Int>.makePending()
        var tail = head
        for _ in 0..<10_000 { tail = tail.flatMap { Response(value: $0) } }
        let finalTail = tail
        let done = Gate()
        DispatchQueue.global().async {
            finalTail.cancel()
            done.open()
        }
        #expect(done.wait(guardSeconds: 60))
        #expect(head.isCancelled)
        #expect(resolver.isCancelled)
    }

    @Test func blockingOnAComposedResponseRunsTheOwedWorkInline() throws {
        let serial = DispatchQueue(label: "serial")
        let value = try serial.sync {
            try Response(on: serial) { 20 }.map { $0 + 1 }.flatMap { Response(value: $0 * 2) }.get()
        }
        #expect(value == 42)
    }

    @Test func blockingOnACombinationRunsTheOwedWorkInline() throws {
        let serial = DispatchQueue(label: "serial")
        let values = try serial.sync {
            try Response.all([Response(on: serial) { 1 }, Response(on: serial) { 2 }]).get()
        }
        #expect(values == [1, 2])
    }
}
