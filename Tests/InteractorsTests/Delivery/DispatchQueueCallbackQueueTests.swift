import Dispatch
import Interactors
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct DispatchQueueCallbackQueueTests {
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

    @Test func isCurrentOnAQueueThatTargetsItWhenBothWereAskedAboutFirst() {
        let parent = DispatchQueue(label: "parent")
        let child = DispatchQueue(label: "child", target: parent)
        #expect(!child.isCurrent)
        #expect(!parent.isCurrent)
        let answers = child.sync { (child: child.isCurrent, parent: parent.isCurrent) }
        #expect(answers.child)
        #expect(answers.parent)
        #expect(!parent.sync { child.isCurrent })
    }

    @Test func isCurrentThroughAChainOfThreeMarkedQueues() {
        let root = DispatchQueue(label: "root")
        let middle = DispatchQueue(label: "middle", target: root)
        let leaf = DispatchQueue(label: "leaf", target: middle)
        for queue in [leaf, middle, root] { #expect(!queue.isCurrent) }
        #expect(leaf.sync { [leaf, middle, root].allSatisfy(\.isCurrent) })
        #expect(middle.sync { !leaf.isCurrent && middle.isCurrent && root.isCurrent })
    }

    @Test func threadsMarkingOneQueueAtOnceAllGetTheRightAnswer() {
        for _ in 0..<50 {
            let queue = DispatchQueue(label: "raced")
            let start = Gate()
            let done = DispatchGroup()
            let wrong = Recorder<Bool>()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: done) {
                    start.wait()
                    if queue.isCurrent { wrong.record(true) }
                    if !queue.sync(execute: { queue.isCurrent }) { wrong.record(false) }
                }
            }
            start.open(count: 4)
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(wrong.elements.isEmpty)
        }
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
