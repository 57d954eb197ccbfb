import InteractorsData
import TestThreads
import Testing

/// The built-in queries hold what they were given and describe themselves for error messages.
@Suite(.onThreadsOfTheirOwn) struct QueryTests {
    @Test func idQueryHoldsItsId() {
        #expect(IdQuery("n1").id == "n1")
        #expect(IdQuery(42).description == "IdQuery(42)")
    }

    @Test func idsQueryKeepsTheOrderItWasGiven() {
        #expect(IdsQuery([3, 1, 2]).ids == [3, 1, 2])
        #expect(IdsQuery(["b", "a"]).description == #"IdsQuery(["b", "a"])"#)
    }

    @Test func filterQueryAppliesItsCondition() {
        let even = FilterQuery<Int> { $0.isMultiple(of: 2) }
        #expect(even.isIncluded(4) && !even.isIncluded(3))
        #expect(even.description == "FilterQuery<Int>")
    }

    @Test func allObjectsQueryDescribesItself() {
        #expect(AllObjectsQuery().description == "AllObjectsQuery()")
    }
}
