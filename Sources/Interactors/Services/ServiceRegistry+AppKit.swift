#if canImport(AppKit) && !targetEnvironment(macCatalyst)
public import AppKit

// The host for macOS apps, AppKit or SwiftUI: NSApplication posts a notification for its launch, activation,
// hiding and termination, which map to the same lifecycle as an iOS app's: hidden is the background.

extension ServiceRegistry {
    /// Follows NSApplication's lifecycle notifications, sending the registry the ``LifecycleEvent``s they
    /// call for: launching, becoming active, resigning active, hiding (``LifecycleEvent/didEnterBackground``),
    /// unhiding (``LifecycleEvent/willEnterForeground``) and terminating.
    ///
    /// Start observing before the app finishes launching (in `App.init`, `main`, or
    /// `applicationWillFinishLaunching(_:)`) so the launch is heard; a notification heard before any launch
    /// launches the services first, with no launch options. A Mac app gets no memory warnings, so services
    /// hear none. Quitting tears the services down from where the app is: an active app's services hear
    /// ``LifecycleEvent/willResignActive`` and ``LifecycleEvent/didEnterBackground`` before
    /// ``LifecycleEvent/willTerminate``. An app that opts into sudden termination may be ended without any
    /// of them: save state when it changes.
    ///
    /// - Parameters:
    ///   - center: The notification center NSApplication posts to.
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
                NSApplication.didFinishLaunchingNotification,
                { posted in
                    let hidden = MainActor.assumeIsolated { NSApplication.shared.isHidden }
                    return .didFinishLaunching(launchOptions(from: posted.userInfo), inBackground: hidden)
                }
            ),
            (NSApplication.didBecomeActiveNotification, { _ in .didBecomeActive }),
            (NSApplication.willResignActiveNotification, { _ in .willResignActive }),
            (NSApplication.didHideNotification, { _ in .didEnterBackground }),
            (NSApplication.willUnhideNotification, { _ in .willEnterForeground }),
            (NSApplication.willTerminateNotification, { _ in .willTerminate }),
        ]
    }
}
#endif
