public import Interactors

/// Drives a `ServiceRegistry` through the lifecycle a real app goes through, one named step at a time.
///
/// ```swift
/// let driver = LifecycleDriver(services: [MyService()])
/// #expect(driver.launch().isEmpty)       // didFinishLaunching, didBecomeActive
/// #expect(driver.background().isEmpty)   // willResignActive, didEnterBackground
/// #expect(driver.terminate().isEmpty)    // willTerminate
/// ```
///
/// Every step returns the failures of the events it sent, including refusals of events that make no sense in
/// the registry's state.
public struct LifecycleDriver: Sendable {
    /// The registry the driver sends events to.
    public let registry: ServiceRegistry

    /// Creates a driver for `registry`, a new one by default.
    public init(registry: ServiceRegistry = ServiceRegistry()) {
        self.registry = registry
    }

    /// Creates a driver for a new registry with `services` registered in order.
    public init(services: [any Service]) {
        self.init()
        for service in services { registry.register(service) }
    }

    /// Launches the app to active: `didFinishLaunching(options)`, then `didBecomeActive`.
    @discardableResult
    public func launch(options: LaunchOptions = [:]) -> [ServiceFailure] {
        send(.didFinishLaunching(options), .didBecomeActive)
    }

    /// Launches the app into the background, as a background fetch or a push does:
    /// `didFinishLaunching(options)`, then `didEnterBackground`.
    @discardableResult
    public func launchInBackground(options: LaunchOptions = [:]) -> [ServiceFailure] {
        send(.didFinishLaunching(options), .didEnterBackground)
    }

    /// Makes an active app inactive, as an incoming call does: `willResignActive`.
    @discardableResult
    public func deactivate() -> [ServiceFailure] {
        send(.willResignActive)
    }

    /// Makes an inactive app active again: `didBecomeActive`.
    @discardableResult
    public func activate() -> [ServiceFailure] {
        send(.didBecomeActive)
    }

    /// Moves the app to the background: `willResignActive` (when active), then `didEnterBackground`.
    @discardableResult
    public func background() -> [ServiceFailure] {
        registry.state == .active ? send(.willResignActive, .didEnterBackground) : send(.didEnterBackground)
    }

    /// Brings a background app back: `willEnterForeground`, then `didBecomeActive`.
    @discardableResult
    public func foreground() -> [ServiceFailure] {
        send(.willEnterForeground, .didBecomeActive)
    }

    /// Warns about memory: `didReceiveMemoryWarning`.
    @discardableResult
    public func memoryWarning() -> [ServiceFailure] {
        send(.didReceiveMemoryWarning)
    }

    /// Terminates the app with the tear-down events its state needs; see `ServiceRegistry.shutDown()`.
    @discardableResult
    public func terminate() -> [ServiceFailure] {
        registry.shutDown()
    }

    /// Sends `events` in order and returns all their failures.
    @discardableResult
    public func send(_ events: LifecycleEvent...) -> [ServiceFailure] {
        events.flatMap { registry.send($0) }
    }
}
