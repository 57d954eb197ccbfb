#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit

extension ServiceRegistry {
    /// NSApplication's lifecycle notifications, and what each says about the app (macOS, AppKit or SwiftUI):
    /// hidden is the background, so a Mac app goes through the same states as an iOS app. An app launched
    /// hidden finishes launching in the background.
    nonisolated static var applicationNotifications:
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
