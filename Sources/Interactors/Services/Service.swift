/// Something that lives as long as the app and needs to hear about its lifecycle: analytics, crash reporting,
/// sync, a connection pool.
///
/// Every requirement has a default, so a service implements only the hooks it cares about:
///
/// ```swift
/// final class Analytics: Service {
///     func didFinishLaunching(options: LaunchOptions) throws { try startSession() }
///     func didEnterBackground() throws { flush() }
/// }
/// ServiceRegistry.shared.register(Analytics())
/// ```
///
/// The registry calls ``receive(_:)`` for every event; its default calls the hook named for the event.
/// Implement ``receive(_:)`` instead to handle every event in one place. A hook that throws does not stop
/// the other services from hearing the event; its error comes back in ``ServiceRegistry/send(_:)``'s
/// failures.
///
/// Hooks run on the thread that sent the event, one event at a time. A hook may register, unregister or send
/// through the registry; what it asks for happens after the current delivery. See <doc:WritingAService>.
public protocol Service: AnyObject, Sendable {
    /// Handles one event. The default calls the hook named for the event.
    func receive(_ event: LifecycleEvent) throws
    /// The app finished launching. Default: nothing.
    func didFinishLaunching(options: LaunchOptions) throws
    /// The app is about to enter the foreground. Default: nothing.
    func willEnterForeground() throws
    /// The app became active. Default: nothing.
    func didBecomeActive() throws
    /// The app is about to stop being active. Default: nothing.
    func willResignActive() throws
    /// The app entered the background. Default: nothing.
    func didEnterBackground() throws
    /// The system is low on memory. Default: nothing.
    func didReceiveMemoryWarning() throws
    /// The app is about to terminate. Default: nothing.
    func willTerminate() throws
    /// Answers whether this service handles `request`, a URL the app was asked to open. Every service is
    /// asked, even after one claims it. Default: `false`.
    func open(_ request: URLOpenRequest) -> Bool
}

extension Service {
    /// Calls the hook named for `event`.
    public func receive(_ event: LifecycleEvent) throws {
        switch event {
        case .didFinishLaunching(let options): try didFinishLaunching(options: options)
        case .willEnterForeground: try willEnterForeground()
        case .didBecomeActive: try didBecomeActive()
        case .willResignActive: try willResignActive()
        case .didEnterBackground: try didEnterBackground()
        case .didReceiveMemoryWarning: try didReceiveMemoryWarning()
        case .willTerminate: try willTerminate()
        }
    }

    /// Does nothing.
    public func didFinishLaunching(options: LaunchOptions) throws {}
    /// Does nothing.
    public func willEnterForeground() throws {}
    /// Does nothing.
    public func didBecomeActive() throws {}
    /// Does nothing.
    public func willResignActive() throws {}
    /// Does nothing.
    public func didEnterBackground() throws {}
    /// Does nothing.
    public func didReceiveMemoryWarning() throws {}
    /// Does nothing.
    public func willTerminate() throws {}
    /// Claims no URL.
    public func open(_ request: URLOpenRequest) -> Bool { false }
}
