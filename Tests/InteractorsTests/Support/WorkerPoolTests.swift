import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct WorkerPoolTests {
    @Test func aOneThreadPoolRunsItsJobsOneAtATimeInTheOrderSubmitted() {
        let pool = WorkerPool(name: "ix.test.serial")
        defer { pool.shutDown() }
        let order = LockedBox<[Int]>([])
        let running = LockedBox(0)
        let overlapped = LockedBox(false)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<200 {
            pool.submit {
                let others = running.withLock { running -> Int in
                    defer { running += 1 }
                    return running
                }
                if others > 0 { overlapped.withLock { $0 = true } }
                order.withLock { $0.append(index) }
                running.withLock { $0 -= 1 }
                if index == 199 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(order.withLock { $0 } == Array(0..<200))
        #expect(!overlapped.withLock { $0 })
        #expect(pool.liveThreads == 1)
    }

    @Test func aPoolStartsNoMoreThreadsThanItsSizeHoweverManyJobsWait() {
        let pool = WorkerPool(name: "ix.test.bounded", threads: 3)
        defer { pool.shutDown() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<30 {
            pool.submit {
                started.signal()
                _ = release.wait(timeout: .now() + 10)
                finished.signal()
            }
        }
        for _ in 0..<3 { #expect(started.wait(timeout: .now() + 10) == .success) }
        #expect(pool.liveThreads == 3)
        for _ in 0..<30 { release.signal() }
        for _ in 0..<30 { #expect(finished.wait(timeout: .now() + 10) == .success) }
        #expect(pool.liveThreads == 3)
    }

    @Test func aPoolsThreadsCarryItsName() throws {
        let pool = WorkerPool(name: "ix.test.named")
        defer { pool.shutDown() }
        let ran = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        pool.submit {
            ran.signal()
            _ = proceed.wait(timeout: .now() + 10)
        }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        defer { proceed.signal() }
        guard let names = threadNamesInThisProcess() else { return }  // no /proc here
        #expect(names.contains("ix.test.named"))
    }

    @Test func shuttingDownLetsQueuedJobsRunAndThenEveryThreadExits() {
        let pool = WorkerPool(name: "ix.test.exit", threads: 2)
        let count = LockedBox(0)
        let proceed = DispatchSemaphore(value: 0)
        for _ in 0..<10 {
            pool.submit {
                _ = proceed.wait(timeout: .now() + 10)
                count.withLock { $0 += 1 }
            }
        }
        pool.shutDown()
        for _ in 0..<10 { proceed.signal() }
        #expect(eventually { pool.liveThreads == 0 })
        #expect(count.withLock { $0 } == 10)
    }

    @Test func aThreadBlockedOnTheLibraryIsReplacedSoTheWorkItWaitsForRuns() throws {
        let pool = WorkerPool(name: "ix.test.fj", threads: 2)
        defer { pool.shutDown() }
        let (answer, resolver) = Response<Int>.makePending()
        let blocked = DispatchSemaphore(value: 0)
        let results = LockedBox<[Int]>([])
        // Every thread of the pool blocks on a response that only a later job of the same pool settles.
        for _ in 0..<2 {
            pool.submit {
                blocked.signal()
                let value = (try? answer.get(timeout: .seconds(20))) ?? -1
                results.withLock { $0.append(value) }
            }
        }
        for _ in 0..<2 { #expect(blocked.wait(timeout: .now() + 10) == .success) }
        #expect(eventually { pool.blockedThreads == 2 })
        pool.submit { resolver.succeed(7) }
        #expect(eventually { results.withLock { $0.count } == 2 })
        #expect(results.withLock { $0 } == [7, 7])
        // Back within its size once the blocked threads returned and the extra one finished.
        #expect(eventually { pool.liveThreads <= 2 })
    }

    @Test func aPoolStartsNoThreadBeyondItsSizeWhileNothingBlocks() {
        let pool = WorkerPool(name: "ix.test.noblock", threads: 2)
        defer { pool.shutDown() }
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<500 { pool.submit { done.signal() } }
        for _ in 0..<500 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(pool.liveThreads <= 2)
    }

    @Test func aPoolThatDoesNotCompensateKeepsItsSizeWhileItsThreadBlocks() throws {
        let pool = WorkerPool(name: "ix.test.serial2", threads: 1, compensatesBlockedThreads: false)
        defer { pool.shutDown() }
        let (answer, resolver) = Response<Int>.makePending()
        let blocked = DispatchSemaphore(value: 0)
        let order = LockedBox<[String]>([])
        pool.submit {
            blocked.signal()
            _ = try? answer.get(timeout: .seconds(20))
            order.withLock { $0.append("first") }
        }
        #expect(blocked.wait(timeout: .now() + 10) == .success)
        pool.submit { order.withLock { $0.append("second") } }
        // The second job waits for the first: the pool's one thread is what orders them.
        resolver.succeed(1)
        #expect(eventually { order.withLock { $0.count } == 2 })
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(pool.liveThreads == 1)
    }

    @Test func aJobSubmittedAfterShutDownStillRuns() {
        let pool = WorkerPool(name: "ix.test.late")
        pool.submit {}
        pool.shutDown()
        #expect(eventually { pool.liveThreads == 0 })
        let ran = DispatchSemaphore(value: 0)
        pool.submit { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(eventually { pool.liveThreads == 0 })
    }
}

extension GlobalPoolSaturatingTests {
    @Suite struct WorkerPoolSaturationTests {
        @Test func aPoolsJobsRunWhileDispatchsGlobalPoolIsSaturated() {
            let workers = WorkerPool(name: "ix.test.busy", threads: 2)
            defer { workers.shutDown() }
            SaturatedPool.whileSaturated { pool in
                let ran = DispatchSemaphore(value: 0)
                for _ in 0..<4 { workers.submit { ran.signal() } }
                for _ in 0..<4 { #expect(ran.wait(timeout: .now() + 20) == .success) }
                #expect(pool.isStillSaturated)
            }
        }
    }
}
