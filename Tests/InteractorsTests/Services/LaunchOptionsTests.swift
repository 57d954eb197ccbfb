import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct LaunchOptionsTests {
    @Test func optionsAreWrittenAsADictionaryLiteral() {
        let options: LaunchOptions = ["url": "app://open", "badge": 3]
        #expect(options["url", as: String.self] == "app://open")
        #expect(options["badge", as: Int.self] == 3)
        #expect(options["badge", as: String.self] == nil)
        #expect(options["missing"] == nil)
        #expect(Set(options.keys) == ["url", "badge"])
        #expect(LaunchOptions([:]).isEmpty)
    }

    @Test func aRepeatedKeyKeepsItsLastValue() {
        let options: LaunchOptions = ["key": 1, "key": 2]
        #expect(options["key", as: Int.self] == 2)
    }

    @Test func optionsAreEqualWhenKeysAndValuesAre() {
        #expect(LaunchOptions(["a": 1, "b": "x"]) == ["b": "x", "a": 1])
        #expect(LaunchOptions(["a": 1]) != ["a": "1"])
        #expect(LaunchOptions(["a": 1]) != ["a": 1, "b": 2])
        #expect(LaunchOptions(["a": 1]) != ["b": 1])
        #expect(Set<LaunchOptions>([["a": 1], ["a": 1]]).count == 1)
    }

    @Test func optionsCanBeChangedByKey() {
        var options: LaunchOptions = [:]
        options["retry"] = true
        #expect(options == ["retry": true])
        options["retry"] = nil
        #expect(options.isEmpty)
        #expect(options.description == "[:]")
    }
}
