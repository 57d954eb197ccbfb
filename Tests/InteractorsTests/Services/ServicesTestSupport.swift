import Dispatch
import Interactors
import InteractorsTestKit
import Testing

/// A registry with `services` registered in order, driven into `state` by the shortest path.
func registry(in state: LifecycleState, with services: [any Service] = []) -> ServiceRegistry {
    let registry = ServiceRegistry()
    for service in services { registry.register(service) }
    let path: [LifecycleEvent] =
        switch state {
        case .inactive: [.didFinishLaunching([:])]
        case .active: [.didFinishLaunching([:]), .didBecomeActive]
        case .background: [.didFinishLaunching([:]), .didEnterBackground]
        case .terminated: [.didFinishLaunching([:]), .willTerminate]
        default: []
        }
    for event in path { #expect(registry.send(event).isEmpty) }
    #expect(registry.state == state)
    return registry
}

/// Every lifecycle event, once.
let allEvents: [LifecycleEvent] = [
    .didFinishLaunching([:]), .willEnterForeground, .didBecomeActive, .willResignActive, .didEnterBackground,
    .didReceiveMemoryWarning, .willTerminate,
]

/// Runs `body` on a new thread; the returned semaphore is signalled when it returns.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done
}

/// Waits for `semaphore`, failing the test instead of hanging when it is not signalled in time.
func wait(for semaphore: DispatchSemaphore, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
    let result = semaphore.wait(timeout: .now() + 60)  // a guard, generous for a loaded machine
    #expect(result == .success, "timed out waiting: \(what)", sourceLocation: sourceLocation)
}
