import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct AnyInteractorTests {
    @Test func wrappingAnInteractorExecutesIt() throws {
        let greet = GreetInteractor()
        let erased = AnyInteractor(greet)
        #expect(try erased.execute(GreetRequest(name: "ada")).get() == "hello, ada")
        #expect(greet.received.elements == ["ada"])
    }

    @Test func aClosureIsAnInteractor() throws {
        let erased = AnyInteractor<Int, Int> { Response(value: $0 + 1) }
        #expect(try erased.execute(1).get() == 2)
    }

    @Test func executingReturnsTheWrappedInteractorsOwnResponse() {
        let (pending, _) = Response<Int>.makePending()
        let erased = AnyInteractor(AnyInteractor<Int, Int> { _ in pending })
        #expect(erased.execute(0) === pending)
    }
}
