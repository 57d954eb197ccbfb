#if canImport(UIKit) && !os(watchOS)
public import UIKit

// The host for iOS, tvOS, visionOS and Mac Catalyst apps: UIApplication posts a notification for every lifecycle
// event, so the registry can follow the app without any app-delegate code.

extension ServiceRegistry {
    /// Follows UIApplication's lifecycle notifications, sending the registry the ``LifecycleEvent``s they call
    /// for: the host for apps that use scenes or SwiftUI, with no app delegate to forward from.
    ///
    /// Start observing before the app finishes launching (in `App.init` or `main`) so the launch is heard; a
    /// notification heard before any launch launches the services first, with no launch options.
    ///
    /// The events always come in an order the registry accepts. A scene-based app launches in the background
    /// (`applicationState` is `.background` when it finishes launching) and then enters the foreground as its
    /// scenes do, so the launch is followed by ``LifecycleEvent/didEnterBackground``; an app launched for a silent
    /// push or a background task then stays in ``LifecycleState/background`` until the user opens it.
    ///
    /// In a scene-based app the launch options carry no URL or shortcut: those arrive through the scene
    /// (`onOpenURL`, `scene(_:openURLContexts:)`), so forward them with ``open(_:options:)``. A suspended app
    /// that the system ends gets no `willTerminateNotification`: services must save their state on
    /// ``LifecycleEvent/didEnterBackground``.
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
        observe(Self.applicationNotifications, on: center, onFailure: onFailure)
    }

    /// Each notification this host observes, and what it says about the app.
    private nonisolated static var applicationNotifications:
        [(Notification.Name, @Sendable (Notification) -> ApplicationNotification)]
    {
        [
            (
                UIApplication.didFinishLaunchingNotification,
                { posted in
                    let inBackground = MainActor.assumeIsolated {
                        UIApplication.shared.applicationState == .background
                    }
                    return .didFinishLaunching(launchOptions(from: posted.userInfo), inBackground: inBackground)
                }
            ),
            (UIApplication.willEnterForegroundNotification, { _ in .willEnterForeground }),
            (UIApplication.didBecomeActiveNotification, { _ in .didBecomeActive }),
            (UIApplication.willResignActiveNotification, { _ in .willResignActive }),
            (UIApplication.didEnterBackgroundNotification, { _ in .didEnterBackground }),
            (UIApplication.didReceiveMemoryWarningNotification, { _ in .didReceiveMemoryWarning }),
            (UIApplication.willTerminateNotification, { _ in .willTerminate }),
        ]
    }
}
#endif
