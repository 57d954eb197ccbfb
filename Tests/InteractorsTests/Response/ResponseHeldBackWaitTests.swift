import Dispatch
import Interactors
import Testing

/// A wait that a queue hierarchy holds back, which the library cannot see (Dispatch cannot be asked for a queue's
/// target), is reported on standard error after 5 s, once per queue label, and goes on. (One it can see, a queue
/// seen to target the main queue, is in `ResponseMainQueueBlockingTests`.) Each hang here is bounded: a timed
/// wait, or a response the test cancels once the report is in, and a guard on every gate.
@Suite struct ResponseHeldBackWaitTests {
    // MARK: Reported

    @Test(arguments: [1, 2, 3])
    func aWaitForWorkOnAQueueThatTargetsTheCallersQueueIsReported(levels: Int) async {
        let reports = HeldBackReports()
        let outer = DispatchQueue(label: uniqueLabel("outer"))
        var inner = outer
        for level in 1...levels { inner = DispatchQueue(label: uniqueLabel("inner\(level)"), target: inner) }
        let wait = BackgroundWait(on: outer) { [inner] in Response(on: inner) { 1 } }
        #expect(await reports.line(naming: inner.label))
        #expect(wait.cancelAndCollect() is CancellationError)  // the wait goes on until the response settles
        #expect(reports.lines(naming: outer.label).isEmpty)
    }

    @Test func aWaitThroughMapAndFlatMapIsReported() async {
        let reports = HeldBackReports()
        let outer = DispatchQueue(label: uniqueLabel("outer"))
        let inner = DispatchQueue(label: uniqueLabel("inner"), target: outer)
        let wait = BackgroundWait(on: outer) {
            Response(on: DispatchQueue.global()) { 1 }.flatMap { value in Response(on: inner) { value } }.map { $0 + 1 }
        }
        #expect(await reports.line(naming: inner.label))
        #expect(wait.cancelAndCollect() is CancellationError)
    }

    @Test func aTimedWaitForWorkOnASiblingQueueIsReportedAndKeepsItsDeadline() async {
        let reports = HeldBackReports()
        let outer = DispatchQueue(label: uniqueLabel("outer"))
        let child = DispatchQueue(label: uniqueLabel("child"), target: outer)
        let sibling = DispatchQueue(label: uniqueLabel("sibling"), target: outer)
        let (outcome, waited) = await onAThreadOfItsOwn {
            let start = DispatchTime.now()
            let outcome = child.sync { Result { try Response(on: sibling) { 1 }.get(timeout: .seconds(6)) } }
            return (outcome, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        #expect(throws: ResponseError.timedOut) { try outcome.get() }
        #expect(waited >= 6 && waited < 16)  // the deadline holds; the bound only guards a hang
        #expect(reports.lines(naming: sibling.label).count == 1)
    }

    @Test func aWaitInsideANestedSyncForWorkOnTheHeldQueueIsReported() async {
        let reports = HeldBackReports()
        let held = DispatchQueue(label: uniqueLabel("held"))
        let other = DispatchQueue(label: uniqueLabel("other"))
        let wait = BackgroundWait(on: held, inSyncOn: other) { Response(on: held) { 1 } }
        #expect(await reports.line(naming: held.label))
        #expect(wait.cancelAndCollect() is CancellationError)
    }

    @Test func eachLabelIsReportedOnce() async {
        let reports = HeldBackReports()
        let label = uniqueLabel("shared")
        let first = DispatchQueue(label: uniqueLabel("first"))
        let firstWait = BackgroundWait(on: first) { Response(on: DispatchQueue(label: label, target: first)) { 1 } }
        #expect(await reports.line(naming: label))
        // A second hierarchy holds back work on a queue of the same label, then on one of a new label: the wait
        // looks at both in that order, and reports only the new one.
        let second = DispatchQueue(label: uniqueLabel("second"))
        let newLabel = uniqueLabel("new")
        let secondWait = BackgroundWait(on: second) {
            Response.all([
                Response(on: DispatchQueue(label: label, target: second)) { 2 },
                Response(on: DispatchQueue(label: newLabel, target: second)) { 3 },
            ])
        }
        #expect(await reports.line(naming: newLabel))
        #expect(reports.lines(naming: label).count == 1)
        #expect(firstWait.cancelAndCollect() is CancellationError)
        #expect(secondWait.cancelAndCollect() is CancellationError)
    }

    @Test func workThatStartedInTimeIsNotReported() async {
        let reports = HeldBackReports()
        let busy = DispatchQueue(label: uniqueLabel("busy"))
        let outer = DispatchQueue(label: uniqueLabel("outer"))
        let heldBack = DispatchQueue(label: uniqueLabel("heldBack"), target: outer)
        let started = Gate()
        let release = Gate()
        let slow = Response(on: busy) {
            started.open()
            release.wait(guardSeconds: 60)
            return 1
        }
        #expect(started.wait())
        let wait = BackgroundWait(on: outer) { Response.all([slow, Response(on: heldBack) { 2 }]) }
        #expect(await reports.line(naming: heldBack.label))
        release.open()
        #expect(wait.cancelAndCollect() is CancellationError)
        #expect(reports.lines(naming: busy.label).isEmpty)
    }
}

/// A caller blocked, holding a queue, on a response it makes there; the test cancels the response to end the
/// wait, and collects how it ended.
private struct BackgroundWait: Sendable {
    private let done = Gate()
    private let cancel = Box<(@Sendable () -> Void)?>(nil)
    private let error = Box<(any Error)?>(nil)
    private let made = Gate()

    /// Makes the response with `make` in a job on `queue` (inside `sync` on `inner`, if given) and blocks on it.
    init<Value>(
        on queue: DispatchQueue,
        inSyncOn inner: DispatchQueue? = nil,
        _ make: @escaping @Sendable () -> Response<Value>
    ) {
        let (done, cancel, error, made) = (done, cancel, error, made)
        // `sync` from a thread of its own holds `queue` as a job on it would, without a thread of Dispatch's pool:
        // other tests may keep the pool busy for seconds, and this wait lasts until the report.
        PlatformThread.detach {
            queue.sync {
                let block = {
                    let waited = make()
                    cancel.value = { waited.cancel() }
                    made.open()
                    error.value = waited.error
                }
                if let inner { inner.sync(execute: block) } else { block() }
            }
            done.open()
        }
    }

    /// Cancels the response the wait is blocked on, and returns the wait's error once it returns; `nil` if it did
    /// not return within the guard (the test then fails).
    func cancelAndCollect() -> (any Error)? {
        guard made.wait(guardSeconds: 30) else {
            Issue.record("the response was never made")
            return nil
        }
        cancel.value?()
        guard done.wait(guardSeconds: 30) else {
            Issue.record("the wait did not return")
            return nil
        }
        return error.value
    }
}
