#if canImport(UIKit) && !os(watchOS)
import UIKit

extension ServiceRegistry {
    /// UIApplication's lifecycle notifications, and what each says about the app (iOS, iPadOS, tvOS, visionOS,
    /// Mac Catalyst). A scene-based app finishes launching in the background: `applicationState` tells.
    nonisolated static var applicationNotifications:
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
