import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct UnregisteredRequestErrorTests {
    enum First { struct Request: InteractorRequest { typealias Output = Int } }
    enum Second { struct Request: InteractorRequest { typealias Output = Int } }

    @Test func nestedTypesWithTheSameNameAreToldApart() {
        let first = UnregisteredRequestError(First.Request.self)
        let second = UnregisteredRequestError(Second.Request.self)
        #expect(first != second)
        #expect(first.requestType.hasSuffix("First.Request"))
        #expect(second.requestType.hasSuffix("Second.Request"))
    }

    @Test func descriptionNamesTheTypeAndHowToRegisterIt() {
        let error = UnregisteredRequestError(GreetRequest.self)
        #expect(error.description.contains("InteractorsTests.GreetRequest"))
        #expect(error.description.contains("executor.register("))
    }
}
