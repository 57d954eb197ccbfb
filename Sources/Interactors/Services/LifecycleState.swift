/// Where the app is in its lifecycle, as the ``ServiceRegistry`` has been told by the events it delivered.
///
/// The registry starts ``notRunning`` and moves along this table; an event with no entry for the current
/// state is refused with ``LifecycleError/Code/eventOutOfOrder`` and not delivered:
///
/// | State        | Event                       | Next state   |
/// |--------------|-----------------------------|--------------|
/// | notRunning   | didFinishLaunching          | inactive     |
/// | inactive     | didBecomeActive             | active       |
/// | inactive     | didEnterBackground          | background   |
/// | active       | willResignActive            | inactive     |
/// | background   | willEnterForeground         | inactive     |
/// | any running  | didReceiveMemoryWarning     | (unchanged)  |
/// | any running  | willTerminate               | terminated   |
/// | terminated   | (none)                      |              |
///
/// "Running" means inactive, active or background: an app may be terminated, or warned about memory, in any
/// of them.
public struct LifecycleState: Hashable, Sendable {
    private enum Backing: Hashable, Sendable {
        case notRunning, inactive, active, background, terminated
    }

    private let backing: Backing

    private init(_ backing: Backing) { self.backing = backing }

    /// The app has not finished launching.
    public static let notRunning = LifecycleState(.notRunning)
    /// The app launched, or is moving between foreground and background, and is not active.
    public static let inactive = LifecycleState(.inactive)
    /// The app is active.
    public static let active = LifecycleState(.active)
    /// The app is in the background.
    public static let background = LifecycleState(.background)
    /// The app was told it will terminate. No event is delivered after this.
    public static let terminated = LifecycleState(.terminated)

    /// Whether the app has launched and not terminated.
    public var isRunning: Bool {
        switch backing {
        case .inactive, .active, .background: true
        case .notRunning, .terminated: false
        }
    }

    /// The state `event` leads to from this one, or `nil` when the event makes no sense here.
    func next(after event: LifecycleEvent) -> LifecycleState? {
        switch (backing, event) {
        case (.notRunning, .didFinishLaunching): .inactive
        case (.inactive, .didBecomeActive): .active
        case (.inactive, .didEnterBackground): .background
        case (.active, .willResignActive): .inactive
        case (.background, .willEnterForeground): .inactive
        case (_, .didReceiveMemoryWarning) where isRunning: self
        case (_, .willTerminate) where isRunning: .terminated
        default: nil
        }
    }

    /// The events a service registered in this state has missed: the shortest path from ``notRunning``.
    func catchUpEvents(launchOptions: LaunchOptions) -> [LifecycleEvent] {
        switch backing {
        case .notRunning, .terminated: []
        case .inactive: [.didFinishLaunching(launchOptions)]
        case .active: [.didFinishLaunching(launchOptions), .didBecomeActive]
        case .background: [.didFinishLaunching(launchOptions), .didEnterBackground]
        }
    }

    /// The tear-down events that take an app from this state to ``terminated``, in order.
    var shutDownEvents: [LifecycleEvent] {
        switch backing {
        case .active: [.willResignActive, .didEnterBackground, .willTerminate]
        case .inactive: [.didEnterBackground, .willTerminate]
        // Outside a running state the registry refuses willTerminate, and that refusal is the report.
        case .background, .notRunning, .terminated: [.willTerminate]
        }
    }
}

extension LifecycleState: CustomStringConvertible {
    /// The state's name.
    public var description: String {
        switch backing {
        case .notRunning: "notRunning"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .terminated: "terminated"
        }
    }
}
