import Interactors

/// A crash reporter: registered first, so it starts first and stops last.
private final class CrashReporter: Service {
    func didFinishLaunching(options: LaunchOptions) throws { print("  CrashReporter: installed (options: \(options))") }
    func willTerminate() throws { print("  CrashReporter: flushed reports, last to stop") }
}

/// Analytics that hears everything in one place, and fails once to show how failures come back.
private final class Analytics: Service {
    struct UploadFailed: Error {}

    func receive(_ event: LifecycleEvent) throws {
        print("  Analytics: \(event)")
        if event == .didEnterBackground { throw UploadFailed() }
    }

    func open(_ request: URLOpenRequest) -> Bool { request.url.hasPrefix("tour://campaign") }
}

/// Two services hearing a simulated lifecycle: launch, a late registrant caught up, a trip to the
/// background, a URL, a refused event and termination.
func servicesTour() {
    print("\n== Services: app-lifetime services hearing a simulated app lifecycle ==")
    print("(an app adds the InteractorsAppHost product and calls registry.observeApplicationNotifications(), so")
    print(" UIKit or AppKit sends these events; a server or CLI calls registry.runUntilTerminated() in Interactors)")
    let registry = ServiceRegistry()
    registry.register(CrashReporter())
    for event in [LifecycleEvent.didFinishLaunching(["user": "guest"]), .didBecomeActive] {
        print("send \(event)")
        registry.send(event)
    }
    print("register Analytics late: it is caught up")
    registry.register(Analytics())
    print("send willResignActive")
    registry.send(.willResignActive)
    print("send didEnterBackground")
    for failure in registry.send(.didEnterBackground) { print("  failure: \(failure)") }
    print("open tour://campaign/7")
    print(
        "  did a service claim the URL (Analytics claims tour://campaign/...)? \((try? registry.open("tour://campaign/7")) ?? false)"
    )
    for event in [LifecycleEvent.willEnterForeground, .didBecomeActive] {
        print("send \(event)")
        registry.send(event)
    }

    print("send didFinishLaunching again: out of order, so it is refused, not delivered")
    for failure in registry.send(.didFinishLaunching([:])) { print("  refused: \(failure.error)") }

    print("shut down from state \(registry.state): services hear the tear-down in reverse registration order")
    registry.shutDown()
    print("state after shutting down: \(registry.state)")
}
