import Dispatch
import Foundation
import InteractorsTestKit
import Synchronization
import TestThreads
import Testing

@testable import Interactors

/// Waits until `count` requests from other threads are queued behind the delivery in progress.
private func waitUntilQueued(
    _ count: Int,
    in registry: ServiceRegistry,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let deadline = Date().addingTimeInterval(60)  // a guard: other tests may keep the global queues busy for seconds
    while registry.storage.withLock({ $0.pending.count }) < count {
        if Date() > deadline {
            Issue.record("timed out waiting for \(count) queued requests", sourceLocation: sourceLocation)
            return
        }
        usleep(100)
    }
}

@Suite(.onThreadsOfTheirOwn) struct ServiceRegistryDeliveryTests {
    private let log = EventLog()

    @Test func anEventSentFromAHookIsDeliveredAfterTheCurrentOne() {
        let first = RecordingService(name: "first", log: log), second = RecordingService(name: "second", log: log)
        let registry = ServiceRegistry()
        let innerResult = LockedBox<[ServiceFailure]?>(nil)
        first.onReceive { event in
            if case .didFinishLaunching = event { innerResult.withLock { $0 = registry.send(.didBecomeActive) } }
        }
        registry.register(first)
        registry.register(second)
        #expect(registry.send(.didFinishLaunching([:])).isEmpty)
        #expect(innerResult.withLock { $0?.isEmpty } == true)
        #expect(
            log.entries.map(\.description) == [
                "first: didFinishLaunching([:])", "second: didFinishLaunching([:])",
                "first: didBecomeActive", "second: didBecomeActive",
            ]
        )
        #expect(registry.state == .active)
    }

    @Test func failuresOfAReentrantSendComeBackFromTheOutermostSend() {
        let sender = RecordingService(name: "sender"), failing = RecordingService(name: "failing")
        let registry = registry(in: .inactive, with: [sender, failing])
        failing.fail(on: .didBecomeActive)
        sender.onReceive { event in
            if event == .didReceiveMemoryWarning {
                registry.send(.didBecomeActive)
                registry.send(.didFinishLaunching([:]))  // out of order: refused later
            }
        }
        let failures = registry.send(.didReceiveMemoryWarning)
        #expect(failures.map(\.event) == [.didBecomeActive, .didFinishLaunching([:])])
        #expect(failures[0].service === failing)
        #expect(failures[1].service == nil)
        #expect((failures[1].error as? LifecycleError)?.code == .eventOutOfOrder)
    }

    @Test func aServiceRegisteredFromAHookIsCaughtUpAfterTheCurrentDelivery() {
        let registrar = RecordingService(name: "registrar", log: log), other = RecordingService(name: "other", log: log)
        let late = RecordingService(name: "late", log: log)
        let registry = ServiceRegistry()
        registrar.onReceive { event in
            if event == .didBecomeActive { registry.register(late) }
        }
        registry.register(registrar)
        registry.register(other)
        registry.send(.didFinishLaunching([:]))
        registry.send(.didBecomeActive)
        #expect(
            log.entries.suffix(4).map(\.description) == [
                "registrar: didBecomeActive", "other: didBecomeActive",
                "late: didFinishLaunching([:])", "late: didBecomeActive",
            ]
        )
    }

    @Test func aServiceUnregisteredFromAHookHearsTheCurrentEventAndNothingMore() {
        let remover = RecordingService(name: "remover"), removed = RecordingService(name: "removed")
        let registry = registry(in: .active, with: [remover, removed])
        remover.onReceive { event in
            if event == .didReceiveMemoryWarning { registry.unregister(removed) }
        }
        registry.send(.didReceiveMemoryWarning)
        registry.send(.didReceiveMemoryWarning)
        #expect(removed.events.last == .didReceiveMemoryWarning)
        #expect(removed.events.filter { $0 == .didReceiveMemoryWarning }.count == 1)
        #expect(remover.events.filter { $0 == .didReceiveMemoryWarning }.count == 2)
    }

    @Test func aSendFromAnotherThreadWaitsForTheDeliveryInProgressAndGetsItsOwnFailures() {
        let blocker = RecordingService(name: "blocker", log: log), failing = RecordingService(name: "failing", log: log)
        failing.fail(on: .didBecomeActive)
        let registry = ServiceRegistry()
        registry.register(blocker)
        registry.register(failing)
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        blocker.onReceive { event in
            guard case .didFinishLaunching = event else { return }
            entered.signal()
            release.wait()
        }
        let launchFailures = LockedBox<[ServiceFailure]>([])
        let launched = onAnotherThread { launchFailures.withLock { $0 = registry.send(.didFinishLaunching([:])) } }
        wait(for: entered, "the launch hook")
        let activeFailures = LockedBox<[ServiceFailure]>([])
        let activated = onAnotherThread { activeFailures.withLock { $0 = registry.send(.didBecomeActive) } }
        waitUntilQueued(1, in: registry)
        #expect(log.entries.count == 1)  // didBecomeActive waits for the launch to finish
        release.signal()
        wait(for: launched, "the launch")
        wait(for: activated, "the activation")
        #expect(launchFailures.withLock { $0.isEmpty })
        #expect(activeFailures.withLock { $0.map(\.event) } == [.didBecomeActive])
        #expect(
            log.entries.map(\.event) == [
                .didFinishLaunching([:]), .didFinishLaunching([:]), .didBecomeActive, .didBecomeActive,
            ]
        )
    }

    @Test func aHooksRequestQueuedBehindAnotherThreadsRunsAfterItAndReportsToTheHooksCaller() {
        let blocker = RecordingService(name: "blocker", log: log), failing = RecordingService(name: "failing", log: log)
        failing.fail(on: .didReceiveMemoryWarning)
        let registry = registry(in: .inactive, with: [blocker, failing])
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let hookThread = LockedBox<Thread?>(nil)
        let warningThreads = LockedBox<[Thread]>([])
        blocker.onReceive { event in
            if event == .didReceiveMemoryWarning { warningThreads.withLock { $0.append(Thread.current) } }
            guard event == .didBecomeActive else { return }
            hookThread.withLock { $0 = Thread.current }
            entered.signal()
            release.wait()
            registry.send(.didReceiveMemoryWarning)  // queued behind the other thread's willResignActive
        }
        let outer = LockedBox<[ServiceFailure]>([])
        let activated = onAnotherThread { outer.withLock { $0 = registry.send(.didBecomeActive) } }
        wait(for: entered, "the activation hook")
        let other = LockedBox<[ServiceFailure]>([])
        let resigned = onAnotherThread { other.withLock { $0 = registry.send(.willResignActive) } }
        waitUntilQueued(1, in: registry)
        release.signal()
        wait(for: activated, "the activation")
        wait(for: resigned, "the resignation")
        #expect(
            log.entries.map(\.event).suffix(6) == [
                .didBecomeActive, .didBecomeActive, .willResignActive, .willResignActive,
                .didReceiveMemoryWarning, .didReceiveMemoryWarning,
            ]
        )
        #expect(outer.withLock { $0.map(\.event) } == [.didReceiveMemoryWarning])
        #expect(other.withLock { $0.isEmpty })
        #expect(warningThreads.withLock { $0 } == [hookThread.withLock { $0! }])
    }

    @Test func aSendFromAnotherThreadWaitsForTheWholeShutDown() {
        let blocker = RecordingService(name: "blocker", log: log), other = RecordingService(name: "other", log: log)
        let registry = registry(in: .active, with: [other, blocker])
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        blocker.onReceive { event in
            guard event == .willResignActive else { return }
            entered.signal()
            release.wait()
        }
        let shutDownFailures = LockedBox<[ServiceFailure]>([])
        let shutDown = onAnotherThread { shutDownFailures.withLock { $0 = registry.shutDown() } }
        wait(for: entered, "the first tear-down hook")
        let sendFailures = LockedBox<[ServiceFailure]>([])
        let sent = onAnotherThread { sendFailures.withLock { $0 = registry.send(.didBecomeActive) } }
        waitUntilQueued(1, in: registry)
        release.signal()
        wait(for: shutDown, "the shut-down")
        wait(for: sent, "the concurrent send")
        #expect(shutDownFailures.withLock { $0.isEmpty })
        #expect(
            log.entries.map(\.event).suffix(6) == [
                .willResignActive, .willResignActive, .didEnterBackground, .didEnterBackground,
                .willTerminate, .willTerminate,
            ]
        )
        // The send ran after the tear-down, so it is refused rather than delivered in the middle of it.
        #expect(sendFailures.withLock { $0.map { ($0.error as? LifecycleError)?.code } } == [.eventOutOfOrder])
        #expect(registry.state == .terminated)
    }

    @Test func anEventSentFromATearDownHookIsDeliveredAfterTheWholeShutDown() {
        let sender = RecordingService(name: "sender")
        let registry = registry(in: .active, with: [sender])
        sender.onReceive { event in
            if event == .willResignActive { registry.send(.didBecomeActive) }
        }
        let failures = registry.shutDown()
        #expect(sender.events.suffix(3) == [.willResignActive, .didEnterBackground, .willTerminate])
        #expect(failures.map(\.event) == [.didBecomeActive])
        #expect(failures.map { ($0.error as? LifecycleError)?.code } == [.eventOutOfOrder])
    }

    @Test func aShutDownRequestedFromAHookTearsDownFromTheStateItFindsWhenItRuns() {
        let requester = RecordingService(name: "requester")
        let registry = registry(in: .inactive, with: [requester])
        requester.onReceive { event in
            guard event == .didReceiveMemoryWarning else { return }
            registry.send(.didBecomeActive)
            registry.shutDown()  // runs once the registry is active, so it starts with willResignActive
        }
        #expect(registry.send(.didReceiveMemoryWarning).isEmpty)
        #expect(
            requester.events.suffix(5) == [
                .didReceiveMemoryWarning, .didBecomeActive, .willResignActive, .didEnterBackground, .willTerminate,
            ]
        )
        #expect(registry.state == .terminated)
    }

    @Test func concurrentRequestsAreDeliveredOneAtATime() {
        let inHook = Atomic<Int>(0), overlaps = Atomic<Int>(0)
        let recorder = RecordingService()
        recorder.onReceive { _ in
            if inHook.add(1, ordering: .relaxed).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
            inHook.subtract(1, ordering: .relaxed)
        }
        let registry = registry(in: .active, with: [recorder])
        let threads = 8, eventsPerThread = 200
        let lateServices = (0..<threads).map { _ in RecordingService() }
        let done = (0..<threads).map { index in
            onAnotherThread {
                registry.register(lateServices[index])
                for _ in 0..<eventsPerThread { #expect(registry.send(.didReceiveMemoryWarning).isEmpty) }
                registry.unregister(lateServices[index])
            }
        }
        for semaphore in done { wait(for: semaphore, "a sending thread") }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.events.count == 2 + threads * eventsPerThread)
        #expect(registry.services.count == 1)
        for late in lateServices {
            #expect(Array(late.events.prefix(2)) == [.didFinishLaunching([:]), .didBecomeActive])
        }
    }
}
