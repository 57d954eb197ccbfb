#if canImport(UIKit) && !os(watchOS)
public import UIKit

// The host for iOS, tvOS and visionOS apps that use scenes: UIApplication posts a notification for every
// lifecycle event, so the registry can follow the app without any app-delegate code.

extension ServiceRegistry {
    /// Sends each UIApplication lifecycle notification to the registry as its ``LifecycleEvent``, for apps that
    /// use scenes or SwiftUI and have no app delegate to forward from.
    ///
    /// Start observing before the app finishes launching (in `App.init` or `main`) so the launch is heard.
    /// The launch options are taken from the launch notification: URLs, strings, booleans and integers as
    /// they are, anything else as its description.
    ///
    /// - Parameters:
    ///   - center: The notification center UIApplication posts to.
    ///   - onFailure: Called on the main thread with each failure a delivery reports. By default each is
    ///     printed.
    /// - Returns: The observation; call ``ApplicationNotificationObservation/stop()`` to stop forwarding.
    @MainActor
    @discardableResult
    public func observeApplicationNotifications(
        from center: NotificationCenter = .default,
        onFailure: (@Sendable (ServiceFailure) -> Void)? = nil
    ) -> ApplicationNotificationObservation {
        let report = onFailure ?? { print("\($0)") }
        let events: [(Notification.Name, @Sendable (Notification) -> LifecycleEvent)] = [
            (UIApplication.didFinishLaunchingNotification, { .didFinishLaunching(launchOptions(from: $0.userInfo)) }),
            (UIApplication.willEnterForegroundNotification, { _ in .willEnterForeground }),
            (UIApplication.didBecomeActiveNotification, { _ in .didBecomeActive }),
            (UIApplication.willResignActiveNotification, { _ in .willResignActive }),
            (UIApplication.didEnterBackgroundNotification, { _ in .didEnterBackground }),
            (UIApplication.didReceiveMemoryWarningNotification, { _ in .didReceiveMemoryWarning }),
            (UIApplication.willTerminateNotification, { _ in .willTerminate }),
        ]
        let tokens = events.map { name, event in
            center.addObserver(forName: name, object: nil, queue: .main) { [self] notification in
                for failure in send(event(notification)) { report(failure) }
            }
        }
        return ApplicationNotificationObservation(center: center, tokens: tokens)
    }
}

/// Forwarding of UIApplication notifications to a ``ServiceRegistry``, made by
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

private func launchOptions(from userInfo: [AnyHashable: Any]?) -> LaunchOptions {
    var options = LaunchOptions()
    for (key, value) in userInfo ?? [:] {
        let name = (key.base as? UIApplication.LaunchOptionsKey)?.rawValue ?? (key.base as? String) ?? "\(key)"
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
