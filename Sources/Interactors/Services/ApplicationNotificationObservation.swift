#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

// What the UIKit and AppKit hosts share: observing the application's notifications and following them.

/// Forwarding of the application's lifecycle notifications to a ``ServiceRegistry``, made by
/// ``ServiceRegistry/observeApplicationNotifications(from:onFailure:)``.
@MainActor
public final class ApplicationNotificationObservation {
    private let center: NotificationCenter
    private var tokens: [any NSObjectProtocol]

    init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
        self.center = center
        self.tokens = tokens
    }

    /// Stops forwarding notifications. Calling it again does nothing.
    public func stop() {
        for token in tokens { center.removeObserver(token) }
        tokens = []
    }
}

extension ServiceRegistry {
    /// Observes each notification name on `center`, on the main queue, and follows what it says.
    @MainActor
    func observe(
        _ notifications: [(Notification.Name, @Sendable (Notification) -> ApplicationNotification)],
        on center: NotificationCenter,
        onFailure: (@Sendable (ServiceFailure) -> Void)?
    ) -> ApplicationNotificationObservation {
        let report = onFailure ?? { print("\($0)") }
        let tokens = notifications.map { name, notification in
            center.addObserver(forName: name, object: nil, queue: .main) { [self] posted in
                follow(notification(posted), report: report)
            }
        }
        return ApplicationNotificationObservation(center: center, tokens: tokens)
    }
}

/// The launch options of a launch notification's user info: keys by their string (a launch-options key by its
/// raw value), URLs, strings, booleans and integers as they are, anything else as its description.
func launchOptions(from userInfo: [AnyHashable: Any]?) -> LaunchOptions {
    var options = LaunchOptions()
    for (key, value) in userInfo ?? [:] {
        let name = (key.base as? any RawRepresentable<String>)?.rawValue ?? (key.base as? String) ?? "\(key)"
        switch value {
        case let value as URL: options[name] = value
        case let value as String: options[name] = value
        case let value as Bool: options[name] = value
        case let value as Int: options[name] = value
        default: options[name] = String(describing: value)
        }
    }
    return options
}
#endif
