import Dispatch
import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseBlockingTests {
    @Test func getReturnsTheValueOnceSettledElsewhere() throws {
        let (response, resolver) = Response<Int>.makePending()
        DispatchQueue.global().async { resolver.succeed(12) }
        #expect(try response.get() == 12)
    }

    @Test func getThrowsTheFailure() {
        #expect(throws: TestError(id: 1)) { try Response<Int>(error: TestError(id: 1)).get() }
    }

    @Test func resultAndErrorReportTheOutcome() throws {
        #expect(try Response(value: 3).result.get() == 3)
        #expect(Response(value: 3).error == nil)
        #expect(Response<Int>(error: TestError(id: 2)).error as? TestError == TestError(id: 2))
    }

    @Test func getWithTimeoutThrowsTimedOutAndLeavesTheResponsePending() {
        let (response, resolver) = Response<Int>.makePending()
        #expect(throws: ResponseError.timedOut) { try response.get(timeout: .milliseconds(20)) }
        #expect(!response.isDone)
        resolver.succeed(1)
    }

    @Test func repeatedTimedOutWaitsStillSeeTheLaterOutcome() throws {
        let (response, resolver) = Response<Int>.makePending()
        for _ in 0..<5 {
            #expect(throws: ResponseError.timedOut) { try response.get(timeout: .milliseconds(1)) }
        }
        resolver.succeed(2)
        #expect(try response.get(timeout: .seconds(10)) == 2)
    }

    @Test func getWithTimeoutReturnsAValueThatArrivesInTime() throws {
        let (response, resolver) = Response<Int>.makePending()
        DispatchQueue.global().async { resolver.succeed(6) }
        #expect(try response.get(timeout: .seconds(10)) == 6)
    }

    @Test func blockingOnTheSerialQueueThatOwesTheWorkRunsItInline() throws {
        let serial = DispatchQueue(label: "serial")
        let value = try serial.sync { try Response(on: serial) { 21 }.get() }
        #expect(value == 21)
    }

    @Test func blockingOnAQueueThatTargetsTheOwingQueueRunsItInline() throws {
        let serial = DispatchQueue(label: "serial")
        let child = DispatchQueue(label: "child", target: serial)
        let value = try child.sync { try Response(on: serial) { 7 }.get() }
        #expect(value == 7)
    }

    @Test func workRunInlineNeverRunsAgainOnItsQueue() throws {
        let serial = DispatchQueue(label: "serial")
        let runs = Counter()
        let value = try serial.sync {
            try Response(on: serial) {
                runs.increment()
                return 1
            }
            .get()
        }
        serial.sync {}  // the queued job, if any, has had its turn
        #expect(value == 1)
        #expect(runs.value == 1)
    }

    @Test func workOwedToAnotherSerialQueueIsWaitedForNotStolen() throws {
        let owner = DispatchQueue(label: "owner")
        let release = Gate()
        owner.async { release.wait() }  // keep the owner busy, so the work cannot have started
        let ranOnOwner = Recorder<Bool>()
        let response = Response(on: owner) { ranOnOwner.record(owner.isCurrent) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { release.open() }
        try response.get(timeout: .seconds(10))
        #expect(ranOnOwner.elements == [true])
    }

    @Test func blockingOnAGlobalQueueForGlobalWorkCannotStarveThePool() throws {
        // More blocked callers than Dispatch has worker threads: each runs its own work inline. (A timed wait
        // would not: it returns by its deadline instead.)
        let group = DispatchGroup()
        let sum = Counter()
        for _ in 0..<200 {
            DispatchQueue.global().async(group: group) {
                if (try? Response(on: DispatchQueue.global()) { 1 }.get()) == 1 {
                    sum.increment()
                }
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(sum.value == 200)
    }

    @Test func queueThatDropsItsWorkAbandonsTheResponse() {
        let queue = ManualCallbackQueue()
        let response = Response(on: queue) { 1 }
        queue.dropAll()
        #expect(response.error as? ResponseError == .abandoned)
    }

    @Test func manyThreadsBlockingOnOneResponseAllWake() {
        let (response, resolver) = Response<Int>.makePending()
        let group = DispatchGroup()
        let woke = Counter()
        for _ in 0..<16 {
            DispatchQueue.global().async(group: group) {
                if (try? response.get(timeout: .seconds(20))) == 3 { woke.increment() }
            }
        }
        resolver.succeed(3)
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(woke.value == 16)
    }

    @Test func runningWorkInTheQueuesPlaceFirstRunsTheLibrarysEarlierWorkQueuedThere() throws {
        let queue = DispatchQueue(label: "serial")
        let box = Box(0)
        let writes = Counter()
        let read = try queue.sync {
            _ = Response(on: queue) {
                writes.increment()
                box.value = 1
            }
            return try Response(on: queue) { box.value }.get(timeout: .seconds(10))
        }
        queue.sync {}  // the queued jobs have had their turn
        #expect(read == 1)
        #expect(writes.value == 1)
    }

    @Test func workRunInTheQueuesPlaceIsLetGoOfBeforeTheQueueReachesItsJob() throws {
        let queue = DispatchQueue(label: "serial")
        // Checked inside the block, which holds the queue: the queue has not reached the job yet.
        let released = try queue.sync { try TrackedWork(on: queue) { _ = try $0.get() }.isReleased }
        #expect(released)
    }
}
