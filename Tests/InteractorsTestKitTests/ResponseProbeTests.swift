import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseProbeTests {
    struct Failure: Error, Equatable {}

    @Test func reportsNothingWhilePending() {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        #expect(!probe.isDone)
        #expect(probe.value == nil)
        #expect(probe.error == nil)
        #expect(probe.deliveries == 0)
        withExtendedLifetime(resolver) {}
    }

    @Test func reportsTheValueAndOneDelivery() {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        resolver.succeed(3)
        resolver.succeed(4)
        #expect(probe.isDone)
        #expect(probe.value == 3)
        #expect(probe.error == nil)
        #expect(probe.deliveries == 1)
    }

    @Test func reportsTheError() {
        let probe = ResponseProbe(Response<Int>(error: Failure()))
        #expect(probe.error as? Failure == Failure())
        #expect(probe.value == nil)
        #expect(probe.deliveries == 1)
    }

    @Test func waitForValueReturnsAValueSettledOnAnotherThread() throws {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        DispatchQueue.global().async { resolver.succeed(5) }
        #expect(try probe.waitForValue(timeout: .seconds(10)) == 5)
        #expect(probe.deliveries == 1)
    }

    @Test func waitForValueThrowsTheResponsesError() {
        let probe = ResponseProbe(Response<Int>(on: DispatchQueue.global()) { throw Failure() })
        #expect(throws: Failure()) { try probe.waitForValue(timeout: .seconds(10)) }
    }

    @Test func waitForErrorReturnsTheError() throws {
        let probe = ResponseProbe(Response<Int>(on: DispatchQueue.global()) { throw Failure() })
        #expect(try probe.waitForError(timeout: .seconds(10)) as? Failure == Failure())
    }

    @Test func waitForErrorOnASuccessThrowsSayingSo() throws {
        let probe = ResponseProbe(Response(value: 8))
        let error = try #require(throws: ResponseProbeError.self) { try probe.waitForError(timeout: .seconds(1)) }
        #expect(error.code == .succeeded)
        #expect(error.description.contains("succeeded with 8"))
    }

    @Test func aWaitThatRunsOutThrowsAnErrorNamingTheTimeout() throws {
        let (response, resolver) = Response<Int>.makePending()
        let probe = ResponseProbe(response)
        let error = try #require(throws: ResponseProbeError.self) { try probe.waitForValue(timeout: .milliseconds(20)) }
        #expect(error.code == .timedOut)
        #expect(error.description.contains("\(Duration.milliseconds(20))"))
        #expect(throws: ResponseProbeError.timedOut(after: .zero)) { try probe.waitForError(timeout: .milliseconds(1)) }
        #expect(!response.isDone)
        resolver.succeed(1)
        #expect(try probe.waitForValue(timeout: .seconds(10)) == 1)
    }

    @Test func waitingOnTheSerialQueueThatOwesTheWorkRunsItInline() throws {
        let serial = DispatchQueue(label: "serial")
        let value = try serial.sync {
            try ResponseProbe(Response(on: serial) { 9 }).waitForValue(timeout: .seconds(10))
        }
        #expect(value == 9)
    }

    @Test func aLongOrNegativeTimeoutIsAcceptedWithoutOverflow() throws {
        let probe = ResponseProbe(Response(value: 2))
        #expect(try probe.waitForValue(timeout: .seconds(Int64.max)) == 2)
        let (pending, resolver) = Response<Int>.makePending()
        #expect(throws: ResponseProbeError.timedOut(after: .zero)) {
            try ResponseProbe(pending).waitForValue(timeout: .seconds(-1))
        }
        withExtendedLifetime(resolver) {}
    }
}
