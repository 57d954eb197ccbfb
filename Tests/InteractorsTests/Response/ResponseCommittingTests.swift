import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseCommittingTests {
    @Test func cancellingAResponseCommittedToItsOutcomeIsIgnored() throws {
        let (response, resolver) = Response<Int>.makePending()
        #expect(resolver.commitToOutcome())
        response.cancel()
        #expect(!response.isDone)
        #expect(!response.isCancelled)
        resolver.succeed(7)
        #expect(try response.get() == 7)
        #expect(!response.isCancelled)
    }

    @Test func aCancelledResponseRefusesToCommitAndStaysCancelled() {
        let (response, resolver) = Response<Int>.makePending()
        response.cancel()
        #expect(!resolver.commitToOutcome())
        #expect(response.isCancelled)
    }

    @Test func aCommittedFailureIsTheAnswerNotACancellation() {
        struct WriteFailed: Error {}
        let (response, resolver) = Response<Int>.makePending()
        resolver.commitToOutcome()
        response.cancel()
        resolver.fail(WriteFailed())
        #expect(response.error is WriteFailed)
        #expect(!response.isCancelled)
    }

    @Test func responsesDerivedFromCommittedWorkIgnoreCancellationToo() throws {
        let (write, resolver) = Response<Int>.makePending()
        let answer = write.map { $0 * 2 }.map { $0 + 1 }
        resolver.commitToOutcome()
        answer.cancel()
        #expect(!answer.isDone)
        resolver.succeed(20)
        #expect(try answer.get() == 41)
        #expect(!answer.isCancelled)
        #expect(!write.isCancelled)
    }

    @Test func aFlatMapThatMovesOnFromCommittedWorkKeepsRefusing() throws {
        let (first, firstResolver) = Response<Int>.makePending()
        let (second, secondResolver) = Response<Int>.makePending()
        let answer = first.flatMap { _ in second }
        firstResolver.commitToOutcome()
        firstResolver.succeed(1)
        // The second write has not begun, but the first one has happened: the answer is what comes of it.
        answer.cancel()
        #expect(!answer.isDone)
        #expect(!second.isCancelled)
        secondResolver.succeed(2)
        #expect(try answer.get() == 2)
    }

    @Test func cancellingBeforeTheWorkBeginsWithdrawsIt() {
        let (write, resolver) = Response<Int>.makePending()
        let answer = write.map { $0 }
        answer.cancel()
        #expect(answer.isCancelled)
        #expect(write.isCancelled)
        #expect(!resolver.commitToOutcome())
    }

    @Test func aTimeoutStillFiresOnCommittedWork() {
        let (write, resolver) = Response<Int>.makePending()
        defer { _ = resolver }
        resolver.commitToOutcome()
        let timed = write.timeout(after: .milliseconds(20))
        #expect(timed.error as? ResponseError == .timedOut)
        #expect(!write.isDone)
    }

    @Test func anAwaitingTaskCancelledAfterTheWorkBeganGetsItsOutcome() async throws {
        let (write, resolver) = Response<Int>.makePending()
        resolver.commitToOutcome()
        let started = Gate()
        let task = Task {
            started.open()
            return try await write.map { $0 + 1 }.value
        }
        started.wait()
        task.cancel()
        try await Task.sleep(for: .milliseconds(20))
        resolver.succeed(4)
        #expect(try await task.value == 5)
    }

    @Test func anAwaitingTaskCancelledBeforeTheWorkBeganStopsWaiting() async {
        let (write, resolver) = Response<Int>.makePending()
        let task = Task { try await write.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!resolver.commitToOutcome())
    }

    /// The race decided exactly once: from many threads, a cancellation and the work's beginning; the caller hears
    /// "cancelled" exactly when the work did not begin.
    @Test func aCancellationRacingTheBeginningIsDecidedOnce() {
        for _ in 0..<2_000 {
            let (write, resolver) = Response<Int>.makePending()
            let answer = write.map { $0 }.map { $0 }
            let began = Counter()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { answer.cancel() }
            DispatchQueue.global().async(group: group) {
                if resolver.commitToOutcome() {
                    began.increment()
                    resolver.succeed(1)
                }
            }
            group.wait()
            if began.value == 1 {
                #expect((try? answer.get()) == 1)
            } else {
                #expect(answer.isCancelled)
            }
        }
    }
}
