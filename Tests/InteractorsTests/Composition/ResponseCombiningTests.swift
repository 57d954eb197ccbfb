import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct ResponseCombiningTests {
    @Test func allCollectsValuesInInputOrder() throws {
        let (first, firstResolver) = Response<Int>.makePending()
        let (second, secondResolver) = Response<Int>.makePending()
        let combined = Response.all([first, second, Response(value: 3)])
        secondResolver.succeed(2)
        #expect(!combined.isDone)
        firstResolver.succeed(1)
        #expect(try combined.get() == [1, 2, 3])
    }

    @Test func allOfNothingSucceedsAtOnce() throws {
        #expect(try Response<[Int]>.all([Response<Int>]()).get() == [])
    }

    @Test func zipCombinesValuesOfDifferentTypes() throws {
        let zipped = Response.zip(Response(value: 1), Response(value: "two"))
        let (number, text) = try zipped.get()
        #expect(number == 1)
        #expect(text == "two")
    }

    @Test func zipTakesAnyNumberOfInputs() throws {
        let zipped = Response.zip(
            Response(value: 1),
            Response(value: "2"),
            Response(value: 3.0),
            Response(value: [4]),
            Response(value: true)
        )
        let (one, two, three, four, five) = try zipped.get()
        #expect(one == 1 && two == "2" && three == 3.0 && four == [4] && five)
    }

    @Test func zipFailsWithTheFirstFailure() {
        let zipped = Response.zip(Response(value: 1), Response<String>(error: TestError(id: 8)))
        #expect(throws: TestError(id: 8)) { try zipped.get() }
    }

    @Test func anySucceedsWithTheFirstSuccess() throws {
        let (late, lateResolver) = Response<Int>.makePending()
        let combined = Response.any([Response<Int>(error: TestError()), late])
        #expect(!combined.isDone)
        lateResolver.succeed(4)
        #expect(try combined.get() == 4)
    }

    @Test func anyFailsWithEveryErrorWhenAllFail() {
        let combined = Response.any([Response<Int>(error: TestError(id: 1)), Response<Int>(error: TestError(id: 2))])
        let error = combined.error as? ResponseError
        #expect(error?.code == .allFailed)
        #expect(error?.underlyingErrors.compactMap { ($0 as? TestError)?.id } == [1, 2])
    }

    @Test func anyOfNothingFails() {
        #expect((Response<Int>.any([]).error as? ResponseError)?.code == .allFailed)
    }

    @Test func raceSettlesLikeTheFirstToSettle() {
        let (slow, resolver) = Response<Int>.makePending()
        let raced = Response.race([slow, Response<Int>(error: TestError(id: 5))])
        #expect(throws: TestError(id: 5)) { try raced.get() }
        withExtendedLifetime(resolver) {}
    }

    @Test func combinationsDeliverOnTheQueueTheyAreGiven() {
        let received = Recorder<[Int]>()
        Response.all([Response(value: 1)], callbackQueue: .immediate).onCompletion { received.record($0) }
        #expect(received.elements == [[1]])
    }
}
