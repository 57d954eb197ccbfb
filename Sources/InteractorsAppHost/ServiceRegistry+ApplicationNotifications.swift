#if (canImport(UIKit) && !os(watchOS)) || (canImport(AppKit) && !targetEnvironment(macCatalyst))
public import Foundation
public import Interactors

// The host for apps on Apple's platforms but watchOS: it observes the application object's lifecycle notifications
// (ServiceRegistry+UIKit.swift and ServiceRegistry+AppKit.swift say which, and what each means) and follows them.
// Its public interface needs only Foundation: UIKit and AppKit stay internal imports of the two tables.

extension ServiceRegistry {
    /// Follows the application's lifecycle notifications, sending the registry the `LifecycleEvent`s they call
    /// for: the host for apps that use scenes, SwiftUI or AppKit, with no app delegate to forward from.
    ///
    /// On iOS, iPadOS, tvOS, visionOS and Mac Catalyst it follows `UIApplication`; on macOS, `NSApplication`
    /// (hiding the app is `LifecycleEvent.didEnterBackground`, unhiding it `LifecycleEvent.willEnterForeground`;
    /// a Mac gets no memory warnings).
    ///
    /// Start observing before the app finishes launching (in `App.init` or `main`) so the launch is heard; a
    /// notification heard before any launch launches the services first, with no launch options.
    ///
    /// The events always come in an order the registry accepts. A scene-based app launches in the background
    /// (the application's `applicationState` is `.background` when it finishes launching) and then enters the
    /// foreground as its scenes do, so the launch is followed by `LifecycleEvent.didEnterBackground`; an app
    /// launched for a silent push or a background task then stays in `LifecycleState.background` until the user
    /// opens it. A notification that skips a state gets the events in between, and quitting tears the services
    /// down from where the app is, so they hear `LifecycleEvent.didEnterBackground` before
    /// `LifecycleEvent.willTerminate`.
    ///
    /// In a scene-based app the launch options carry no URL or shortcut: those arrive through the scene
    /// (`onOpenURL`, `scene(_:openURLContexts:)`), so forward them with `ServiceRegistry.open(_:options:)`. A
    /// suspended app that the system ends, or a Mac app that opts into sudden termination, hears nothing more:
    /// services must save their state on `LifecycleEvent.didEnterBackground`.
    ///
    /// The host never reads `UIApplication.shared`, which app extensions may not use: the application's state
    /// comes with each notification, whose object is the application.
    ///
    /// - Parameters:
    ///   - center: The notification center the application object posts to.
    ///   - onFailure: Called on the main thread with each failure a delivery reports. By default each is a
    ///     diagnostic (see `Diagnostics`: standard error unless the app set a handler).
    /// - Returns: The observation; call ``ApplicationNotificationObservation/stop()`` to stop forwarding.
    @MainActor
    @discardableResult
    public func observeApplicationNotifications(
        from center: NotificationCenter = .default,
        onFailure: (@Sendable (ServiceFailure) -> Void)? = nil
    ) -> ApplicationNotificationObservation {
        let report = onFailure ?? { diagnose("\($0)") }
        let tokens = Self.applicationNotifications.map { name, notification in
            // Queue `.main`: the center calls the block on the main thread, so on the main actor.
            center.addObserver(forName: name, object: nil, queue: .main) { [self] posted in
                let posted = OnTheMainThread(notification: posted)
                MainActor.assumeIsolated { follow(notification(posted.notification), report: report) }
            }
        }
        return ApplicationNotificationObservation(center: center, tokens: tokens)
    }
}

/// A notification that the center handed to a block on the main queue, read on the main actor there.
/// `@unchecked Sendable`: it never leaves the main thread, and is read before the block returns (a `Notification`
/// holds a user info of `Any` values, so it is not `Sendable` itself).
private struct OnTheMainThread: @unchecked Sendable {
    let notification: Notification
}
#endif
