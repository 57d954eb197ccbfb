import Interactors
import InteractorsTestKit
import TestThreads
import Testing

@Suite(.onThreadsOfTheirOwn) struct LifecycleStateTests {
    /// The table in LifecycleState.swift, written out: (from, event, to).
    static let transitions: [(LifecycleState, LifecycleEvent, LifecycleState)] = [
        (.notRunning, .didFinishLaunching([:]), .inactive),
        (.inactive, .didBecomeActive, .active),
        (.inactive, .didEnterBackground, .background),
        (.active, .willResignActive, .inactive),
        (.background, .willEnterForeground, .inactive),
        (.inactive, .didReceiveMemoryWarning, .inactive),
        (.active, .didReceiveMemoryWarning, .active),
        (.background, .didReceiveMemoryWarning, .background),
        (.inactive, .willTerminate, .terminated),
        (.active, .willTerminate, .terminated),
        (.background, .willTerminate, .terminated),
    ]

    static let states: [LifecycleState] = [.notRunning, .inactive, .active, .background, .terminated]

    @Test(arguments: transitions)
    func eachValidEventIsDeliveredAndMovesToItsState(from: LifecycleState, event: LifecycleEvent, to: LifecycleState) {
        let recorder = RecordingService()
        let registry = registry(in: from, with: [recorder])
        let before = recorder.events.count
        #expect(registry.send(event).isEmpty)
        #expect(registry.state == to)
        #expect(recorder.events.dropFirst(before) == [event])
    }

    @Test(arguments: states)
    func eachEventOutsideTheTableIsRefusedAndNotDelivered(in state: LifecycleState) throws {
        let refused = allEvents.filter { event in
            !Self.transitions.contains { $0.0 == state && $0.1 == event }
        }
        for event in refused {
            let recorder = RecordingService()
            let registry = registry(in: state, with: [recorder])
            let before = recorder.events
            let failures = registry.send(event)
            try #require(failures.count == 1, "\(event) in \(state)")
            #expect(failures[0].service == nil)
            #expect(failures[0].event == event)
            let error = try #require(failures[0].error as? LifecycleError)
            #expect(error.code == .eventOutOfOrder)
            #expect(error.state == state)
            #expect(error.event == event)
            #expect(registry.state == state)
            #expect(recorder.events == before)
        }
    }

    @Test func aSecondLaunchIsRefused() {
        let registry = registry(in: .active)
        let failures = registry.send(.didFinishLaunching([:]))
        #expect((failures.first?.error as? LifecycleError)?.code == .eventOutOfOrder)
    }

    @Test func nothingIsDeliveredAfterTermination() {
        let recorder = RecordingService()
        let registry = registry(in: .terminated, with: [recorder])
        for event in allEvents { #expect(registry.send(event).count == 1) }
        #expect(recorder.events == [.didFinishLaunching([:]), .willTerminate])
    }

    @Test(arguments: [
        [LifecycleEvent](),
        [.didFinishLaunching(["from": "test"])],
        [.didFinishLaunching(["from": "test"]), .didBecomeActive],
        [.didFinishLaunching(["from": "test"]), .didEnterBackground],
    ])
    func aLateRegistrantIsCaughtUpWithTheEventsLeadingToTheCurrentState(path: [LifecycleEvent]) {
        let registry = ServiceRegistry()
        for event in path { registry.send(event) }
        let late = RecordingService()
        #expect(registry.register(late).isEmpty)
        #expect(late.events == path)
    }

    @Test func aServiceRegisteredAfterResigningHearsLaunchOnly() {
        let registry = registry(in: .active)
        registry.send(.willResignActive)
        let late = RecordingService()
        registry.register(late)
        #expect(late.events == [.didFinishLaunching([:])])
    }

    @Test func onlyLaunchedAndUnterminatedStatesAreRunning() {
        #expect(Self.states.filter(\.isRunning) == [.inactive, .active, .background])
        #expect(Self.states.map(\.description) == ["notRunning", "inactive", "active", "background", "terminated"])
    }
}
