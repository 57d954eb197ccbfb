import TestThreads
import Testing

@testable import Interactors

@Suite(.onThreadsOfTheirOwn) struct SignalHostStateTests {
    @Test func theFirstSignalWithNoAsyncHostTearsDownAndTheSecondEndsTheProcess() {
        var host = ServiceRegistry.SignalHostState()
        host.deadline = .seconds(3)
        guard case .tearDownAndExit(nil, nil, .seconds(3)) = host.receiveSignal() else {
            Issue.record("the first signal did not tear down")
            return
        }
        guard case .endProcess = host.receiveSignal() else {
            Issue.record("the second signal did not end the process")
            return
        }
    }

    @Test func theFirstSignalWakesTheAsyncHostsAndTheSecondEndsTheProcess() {
        var host = ServiceRegistry.SignalHostState()
        host.asyncHosts = 1
        guard case .wake(let waiters, nil) = host.receiveSignal() else {
            Issue.record("the first signal did not wake the async hosts")
            return
        }
        #expect(waiters.isEmpty)
        guard case .endProcess = host.receiveSignal() else {
            Issue.record("the second signal did not end the process")
            return
        }
    }

    @Test func onlyTheFirstWokenAsyncHostTearsDown() {
        var host = ServiceRegistry.SignalHostState()
        let first = host.claimTearDown(), second = host.claimTearDown()
        #expect(first)
        #expect(!second)
    }

    @Test func aSignalAfterACancelledAsyncHostBeganTheTearDownEndsTheProcess() {
        var host = ServiceRegistry.SignalHostState()
        host.asyncHosts = 1
        let claimed = host.claimTearDown()
        #expect(claimed)
        guard case .endProcess = host.receiveSignal() else {
            Issue.record("the signal did not end the process")
            return
        }
    }
}
