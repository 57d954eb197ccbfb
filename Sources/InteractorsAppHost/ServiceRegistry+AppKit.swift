#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation
import Interactors

extension ServiceRegistry {
    /// NSApplication's lifecycle notifications, and what each says about the app (macOS, AppKit or SwiftUI):
    /// hidden is the background, so a Mac app goes through the same states as an iOS app. An app launched
    /// hidden finishes launching in the background (the notification's object is the application).
    ///
    /// On the main actor: the SDK isolates `NSApplication`'s notification names to it (UIKit's are
    /// `nonisolated`), and the application's state lives there.
    @MainActor
    static var applicationNotifications:
        [(Notification.Name, @MainActor @Sendable (Notification) -> ApplicationNotification)]
    {
        [
            (
                NSApplication.didFinishLaunchingNotification,
                { posted in
                    let hidden = (posted.object as? NSApplication)?.isHidden ?? false
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
