import Dispatch
import Interactors
import Testing

@Suite struct DispatchQueueCallbackQueueTests {
    @Test func isCurrentOnlyOnTheQueue() {
        let queue = DispatchQueue(label: "a")
        #expect(!queue.isCurrent)
        #expect(queue.sync { queue.isCurrent })
        #expect(!DispatchQueue(label: "b").sync { queue.isCurrent })
    }

    @Test func isCurrentOnAQueueThatTargetsIt() {
        let queue = DispatchQueue(label: "a")
        let child = DispatchQueue(label: "child", target: queue)
        #expect(child.sync { queue.isCurrent })
    }

    @MainActor
    @Test func blockingOnTheMainQueueThatOwesTheWorkRunsItInline() throws {
        #expect(MainCallbackQueue.shared.isCurrent)
        #expect(try Response(on: .main) { 5 }.get() == 5)
    }

    @Test func immediateIsAlwaysCurrent() {
        #expect(ImmediateCallbackQueue.shared.isCurrent)
    }

    @Test func scheduleRunsTheJobOnTheQueue() {
        let queue = DispatchQueue(label: "a")
        let done = Gate()
        let onQueue = Recorder<Bool>()
        queue.schedule {
            onQueue.record(queue.isCurrent)
            done.open()
        }
        #expect(done.wait())
        #expect(onQueue.elements == [true])
    }
}
