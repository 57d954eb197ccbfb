import Dispatch
import Interactors
import TestThreads
import Testing

/// A hook that waits, through the library, for work on another thread that calls the registry does not hang: the
/// nested request is refused with `calledFromWorkAHookWaitsFor` (an unregistration is carried out after the
/// delivery), the hook goes on, and the outer call returns. Each scenario runs under a guard.
@Suite(.onThreadsOfTheirOwn) struct ServiceRegistryCycleTests {
    @Test func aHookThatWaitsForWorkRegisteringAServiceGetsARefusal() throws {
        let registry = ServiceRegistry()
        let nested = Box<[ServiceFailure]>([])
        let hook = HookService { event in
            guard case .didFinishLaunching = event else { return }
            nested.value = try Response(on: DispatchQueue(label: "other")) { registry.register(HookService()) }.get()
        }
        registry.register(hook)
        let failures = try #require(finishing(guardSeconds: 30) { registry.send(.didFinishLaunching([:])) })
        #expect(try failures.get().isEmpty)
        #expect(nested.value.count == 1)
        let refusal = try #require(nested.value.first?.error as? LifecycleError)
        #expect(refusal.code == .calledFromWorkAHookWaitsFor)
        #expect(registry.services.count == 1)
        #expect(registry.state == .inactive)
    }

    @Test func aHookThatWaitsForWorkSendingAnEventGetsARefusal() throws {
        let registry = ServiceRegistry()
        let nested = Box<[ServiceFailure]>([])
        registry.register(
            HookService { event in
                guard case .didFinishLaunching = event else { return }
                nested.value = try Response(on: DispatchQueue(label: "other")) { registry.send(.didBecomeActive) }.get()
            }
        )
        let failures = try #require(finishing(guardSeconds: 30) { registry.send(.didFinishLaunching([:])) })
        #expect(try failures.get().isEmpty)
        #expect((nested.value.first?.error as? LifecycleError)?.code == .calledFromWorkAHookWaitsFor)
        #expect(nested.value.first?.event == .didBecomeActive)
    }

    @Test func aHookThatWaitsForWorkOpeningAURLGetsTheRefusalThrown() throws {
        let registry = ServiceRegistry()
        registry.send(.didFinishLaunching([:]))
        let nested = Box<(any Error)?>(nil)
        registry.register(
            HookService { event in
                guard case .didBecomeActive = event else { return }
                nested.value = Response(on: DispatchQueue(label: "other")) { try registry.open("app://x") }.error
            }
        )
        _ = try #require(finishing(guardSeconds: 30) { registry.send(.didBecomeActive) })
        #expect((nested.value as? LifecycleError)?.code == .calledFromWorkAHookWaitsFor)
    }

    @Test func anUnregistrationFromWorkAHookWaitsForHappensAfterTheDelivery() throws {
        let registry = ServiceRegistry()
        let leaving = HookService()
        registry.register(leaving)
        registry.register(
            HookService { event in
                guard case .didFinishLaunching = event else { return }
                try Response(on: DispatchQueue(label: "other")) { registry.unregister(leaving) }.get()
            }
        )
        _ = try #require(finishing(guardSeconds: 30) { registry.send(.didFinishLaunching([:])) })
        #expect(!registry.services.contains { $0 === leaving })
        #expect(registry.services.count == 1)
    }

    @Test func aCallTheHookDoesNotWaitForWaitsItsTurn() throws {
        let registry = ServiceRegistry()
        let inHook = Gate()
        let leaveHook = Gate()
        registry.register(
            HookService { event in
                guard case .didFinishLaunching = event else { return }
                inHook.open()
                // Blocks through the library on work that does not call the registry.
                _ = try Response(on: DispatchQueue(label: "other")) { leaveHook.wait(guardSeconds: 30) }.get()
            }
        )
        let launch = Gate()
        DispatchQueue.global().async {
            registry.send(.didFinishLaunching([:]))
            launch.open()
        }
        #expect(inHook.wait())
        let activation = Box<[ServiceFailure]?>(nil)
        let activated = Gate()
        DispatchQueue.global().async {
            activation.value = registry.send(.didBecomeActive)
            activated.open()
        }
        leaveHook.open()
        #expect(launch.wait(guardSeconds: 30))
        #expect(activated.wait(guardSeconds: 30))
        #expect(activation.value?.isEmpty == true)
        #expect(registry.state == .active)
    }
}

/// A service that runs `body` for each event it hears.
private final class HookService: Service {
    let body: @Sendable (LifecycleEvent) throws -> Void

    init(_ body: @escaping @Sendable (LifecycleEvent) throws -> Void = { _ in }) {
        self.body = body
    }

    func receive(_ event: LifecycleEvent) throws {
        try body(event)
    }
}
