/// Something that happened to the app, delivered to every registered ``Service``.
///
/// Start-up events (``didFinishLaunching(_:)``, ``willEnterForeground``, ``didBecomeActive``) and
/// ``didReceiveMemoryWarning`` reach services in registration order. Tear-down events (``willResignActive``,
/// ``didEnterBackground``, ``willTerminate``) reach them in reverse order, so the first service registered (a
/// crash reporter, say) is the first to start and the last to stop.
///
/// Not every event makes sense in every ``LifecycleState``; the registry refuses the ones that do not and
/// reports a ``LifecycleError`` instead of delivering them.
///
/// The cases are complete, and a `switch` over them may list them all: they are the alphabet of the registry's
/// state machine, each with its hook on ``Service`` and its transitions between ``LifecycleState``s. An event
/// that does not fit them (a URL to open, say) comes through its own API (``ServiceRegistry/open(_:options:)``), not as a
/// new case; a new case would change the state machine, which is a new major version.
public enum LifecycleEvent: Sendable, Hashable {
    /// The app finished launching with the given options. Sent once, first.
    case didFinishLaunching(LaunchOptions)
    /// The app is leaving the background and about to become visible.
    case willEnterForeground
    /// The app became active: visible and receiving input, or, for a server, serving.
    case didBecomeActive
    /// The app is about to stop being active (a call came in, the user switched apps, a shutdown began).
    case willResignActive
    /// The app moved to the background.
    case didEnterBackground
    /// The system is low on memory; free what can be rebuilt.
    case didReceiveMemoryWarning
    /// The app is about to terminate. Sent at most once, last.
    case willTerminate

    /// Whether services hear this event in reverse registration order.
    var isTearDown: Bool {
        switch self {
        case .willResignActive, .didEnterBackground, .willTerminate: true
        case .didFinishLaunching, .willEnterForeground, .didBecomeActive, .didReceiveMemoryWarning: false
        }
    }
}

extension LifecycleEvent: CustomStringConvertible {
    /// The event's name, as the hook that receives it is named.
    public var description: String {
        switch self {
        case .didFinishLaunching(let options): "didFinishLaunching(\(options))"
        case .willEnterForeground: "willEnterForeground"
        case .didBecomeActive: "didBecomeActive"
        case .willResignActive: "willResignActive"
        case .didEnterBackground: "didEnterBackground"
        case .didReceiveMemoryWarning: "didReceiveMemoryWarning"
        case .willTerminate: "willTerminate"
        }
    }
}
