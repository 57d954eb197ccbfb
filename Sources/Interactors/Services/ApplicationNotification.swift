/// A lifecycle notification of the platform's application object (`UIApplication`, `NSApplication`), as a host
/// hears it, before it becomes the registry's ``LifecycleEvent``s.
///
/// The platforms' notifications do not always come in an order the registry accepts. A scene-based or SwiftUI
/// app launches in the background, and `willEnterForegroundNotification` then follows its scenes; an app
/// launched for a silent push or a background task finishes launching and stays in the background; a Mac app
/// is hidden without entering any background. So a host does not forward a notification as an event: it asks
/// ``events(from:)`` for the events that bring the registry to where the notification says the app now is.
/// This type is the same on every platform, so its mapping is tested on Linux; the hosts that hear the
/// notifications are in `InteractorsAppHost` (hence `package`).
package enum ApplicationNotification: Sendable, Hashable {
    /// The launch finished; `inBackground` when the app was then in the background (a scene-based app's cold
    /// launch, a launch for a silent push or a background task, a Mac app launched hidden).
    case didFinishLaunching(LaunchOptions, inBackground: Bool)
    /// The app is leaving the background.
    case willEnterForeground
    /// The app became active.
    case didBecomeActive
    /// The app is about to stop being active.
    case willResignActive
    /// The app is in the background (on a Mac: hidden).
    case didEnterBackground
    /// The system is low on memory.
    case didReceiveMemoryWarning
    /// The app is about to terminate.
    case willTerminate

    /// The events, in an order the registry accepts, that take a registry in `state` to where this
    /// notification says the app is; none when it is there already.
    ///
    /// - A launch in the background is followed by ``LifecycleEvent/didEnterBackground``, so that the
    ///   `willEnterForeground` of a scene-based app's launch, or the opening of an app launched for a push, is
    ///   legal. A second launch is ignored.
    /// - A notification that skips a state gets the events in between: becoming active from the background
    ///   is ``LifecycleEvent/willEnterForeground`` then ``LifecycleEvent/didBecomeActive``.
    /// - Termination is the tear-down from the current state (``LifecycleState/shutDownEvents``), so every
    ///   service hears ``LifecycleEvent/didEnterBackground`` before ``LifecycleEvent/willTerminate``.
    /// - A notification heard before any launch (observing began too late) first launches the services with
    ///   no launch options. Nothing follows termination.
    package func events(from state: LifecycleState) -> [LifecycleEvent] {
        if case .didFinishLaunching(let options, let inBackground) = self {
            guard state == .notRunning else { return [] }
            return [.didFinishLaunching(options)] + (inBackground ? [.didEnterBackground] : [])
        }
        guard state != .terminated else { return [] }
        let launch: [LifecycleEvent] = state == .notRunning ? [.didFinishLaunching([:])] : []
        let current = state == .notRunning ? LifecycleState.inactive : state
        switch self {
        case .didFinishLaunching:
            return []
        case .willEnterForeground:
            return launch + (current == .background ? [.willEnterForeground] : [])
        case .didBecomeActive:
            return launch + Self.path(from: current, to: .active)
        case .willResignActive:
            return launch + (current == .active ? [.willResignActive] : [])
        case .didEnterBackground:
            return launch + Self.path(from: current, to: .background)
        case .didReceiveMemoryWarning:
            return launch + [.didReceiveMemoryWarning]
        case .willTerminate:
            return launch + current.shutDownEvents
        }
    }

    /// The running states from the background up, and the events that move one step up or down between them.
    private static let levels: [LifecycleState] = [.background, .inactive, .active]
    private static let stepsUp: [LifecycleEvent] = [.willEnterForeground, .didBecomeActive]
    private static let stepsDown: [LifecycleEvent] = [.didEnterBackground, .willResignActive]

    /// The events that move a running registry from `start` to `end`, one state at a time.
    private static func path(from start: LifecycleState, to end: LifecycleState) -> [LifecycleEvent] {
        guard let from = levels.firstIndex(of: start), let to = levels.firstIndex(of: end) else { return [] }
        if from < to { return Array(stepsUp[from..<to]) }
        return Array(stepsDown[to..<from].reversed())
    }
}

extension ServiceRegistry {
    /// Sends the events `notification` calls for in the registry's current state (see
    /// ``ApplicationNotification/events(from:)``), reporting each failure a delivery returns.
    package func follow(_ notification: ApplicationNotification, report: (ServiceFailure) -> Void) {
        for event in notification.events(from: state) {
            for failure in send(event) { report(failure) }
        }
    }
}
