import Dispatch
import Interactors
import InteractorsPresentation
import TestThreads
import Testing

private enum Action: Sendable, Equatable {
    case loading
    case succeeded(Int)
    case failed
    case cancelled
}

private func action(for outcome: Result<Int, any Error>) -> Action {
    switch outcome {
    case .success(let value): .succeeded(value)
    case .failure(let error) where error is CancellationError: .cancelled
    case .failure: .failed
    }
}

@Suite(.onThreadsOfTheirOwn) struct ResponseDispatchTests {
    @Test func sendsLoadingBeforeTheResultOnSuccess() {
        let sent = Recorder<Action>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), loading: .loading, action(for:))
        #expect(sent.elements == [.loading])
        resolver.succeed(3)
        #expect(sent.elements == [.loading, .succeeded(3)])
    }

    @Test func sendsLoadingBeforeTheResultOnFailure() {
        let sent = Recorder<Action>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), loading: .loading, action(for:))
        resolver.fail(TestError())
        #expect(sent.elements == [.loading, .failed])
    }

    // Issue 17 changed this: a cancellation used to be sent through the action closure like any failure.
    @Test func sendsLoadingThenTheCancelledActionOnCancellation() {
        let sent = Recorder<Action>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), loading: .loading, cancelled: .cancelled, action(for:))
        response.cancel()
        #expect(sent.elements == [.loading, .cancelled])
        withExtendedLifetime(resolver) {}  // released unresolved, it would fail the response as abandoned
    }

    @Test func aCancelledResponseSendsNothingWithoutACancelledAction() {
        let sent = Recorder<Action>()
        let made = Recorder<Int>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), loading: .loading) { outcome in
            made.record(1)
            return action(for: outcome)
        }
        response.cancel()
        #expect(sent.elements == [.loading])
        #expect(made.elements.isEmpty)
        withExtendedLifetime(resolver) {}
    }

    @Test func aResponseThatFailsWithCancellationErrorCountsAsCancelled() {
        let sent = Recorder<Action>()
        Response<Int>(error: CancellationError()).dispatch(to: AnyDispatcher(sent.record), cancelled: .cancelled) { _ in
            .failed
        }
        Response<Int>(error: CancellationError()).dispatch(to: AnyDispatcher(sent.record)) { _ in .failed }
        #expect(sent.elements == [.cancelled])
    }

    @Test func aCancelledActionIsNotSentForOtherOutcomes() {
        let sent = Recorder<Action>()
        Response(value: 1).dispatch(to: AnyDispatcher(sent.record), cancelled: .cancelled, action(for:))
        Response<Int>(error: TestError()).dispatch(to: AnyDispatcher(sent.record), cancelled: .cancelled, action(for:))
        #expect(sent.elements == [.succeeded(1), .failed])
    }

    @Test func aResponseCancelledWhileItsTaskRunsCountsAsCancelled() async {
        let sent = Recorder<Action>()
        let (started, start) = AsyncStream<Void>.makeStream()
        let response = Response<Int> {
            start.yield()
            try await Task.sleep(for: .seconds(600))  // ends with CancellationError when the response is cancelled
            return 1
        }
        response.dispatch(to: AnyDispatcher(sent.record), cancelled: .cancelled, action(for:))
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()  // suspended, not blocked: the task needs a thread of the pool to start
        response.cancel()
        #expect(sent.elements == [.cancelled])
    }

    @Test func sendsExactlyOneResultAction() {
        let sent = Recorder<Action>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), loading: .loading, action(for:))
        resolver.succeed(1)
        resolver.succeed(2)
        resolver.fail(TestError())
        response.cancel()
        #expect(sent.elements == [.loading, .succeeded(1)])
    }

    @Test func settledResponseStillSendsLoadingFirst() {
        let sent = Recorder<Action>()
        Response(value: 4).dispatch(to: AnyDispatcher(sent.record), loading: .loading, action(for:))
        #expect(sent.elements == [.loading, .succeeded(4)])
    }

    @Test func withoutLoadingOnlyTheResultIsSent() {
        let sent = Recorder<Action>()
        let (response, resolver) = Response<Int>.makePending()
        response.dispatch(to: AnyDispatcher(sent.record), action(for:))
        #expect(sent.elements.isEmpty)
        resolver.succeed(5)
        #expect(sent.elements == [.succeeded(5)])
    }

    @Test func resultIsSentFromTheSettlingThread() {
        let threads = Recorder<UInt>()
        let settlingThread = Recorder<UInt>()
        let settled = Gate()
        let (response, resolver) = Response<Int>.makePending(callbackQueue: DispatchQueue(label: "unused"))
        response.dispatch(to: AnyDispatcher<Action> { _ in threads.record(currentThreadID()) }, action(for:))
        DispatchQueue.global().async {
            settlingThread.record(currentThreadID())
            resolver.succeed(1)
            settled.open()
        }
        #expect(settled.wait())
        #expect(threads.elements == settlingThread.elements)
    }

    @Test func returnsTheSameResponseForChaining() {
        let response = Response(value: 1)
        let dispatcher = AnyDispatcher<Action> { _ in }
        #expect(response.dispatch(to: dispatcher, action(for:)) === response)
        #expect(response.dispatch(to: dispatcher, loading: .loading, action(for:)) === response)
    }

    @Test func anInteractorReturnsAResponseAndFeedsAPresenter() throws {
        let presenter = Presenter(
            store: Store(Log(), queue: .immediate),
            translator: LogTranslator<Action>(),
            queue: .immediate
        )
        let dispatcher = presenter.asDispatcher()
        let response = Response(on: DispatchQueue(label: "work")) { 7 }
            .dispatch(to: dispatcher, loading: .loading, action(for:))
        #expect(try response.get() == 7)
        let done = Gate()
        let observation = presenter.store.observe { log in if log.entries.count == 2 { done.open() } }
        #expect(done.wait())
        #expect(presenter.store.state.entries == ["loading", "succeeded(7)"])
        observation.cancel()
    }
}
