#if canImport(UIKit) && !os(watchOS)
import Foundation
import Interactors
import UIKit

extension ServiceRegistry {
    /// UIApplication's lifecycle notifications, and what each says about the app (iOS, iPadOS, tvOS, visionOS,
    /// Mac Catalyst). A scene-based app finishes launching in the background: the application's state tells,
    /// read from the notification's object, which is the application (`UIApplication.shared` is unavailable in
    /// app extensions, and a widget or a share extension may link this module).
    ///
    /// On the main actor, where the host reads it and the application's state lives.
    @MainActor
    static var applicationNotifications:
        [(Notification.Name, @MainActor @Sendable (Notification) -> ApplicationNotification)]
    {
        [
            (
                UIApplication.didFinishLaunchingNotification,
                { posted in
                    let application = posted.object as? UIApplication
                    return .didFinishLaunching(
                        launchOptions(from: posted.userInfo),
                        inBackground: application?.applicationState == .background
                    )
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
