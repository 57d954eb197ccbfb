// Stand-ins for the AppKit declarations the package's `#if canImport(AppKit)` branches use, shaped as the SDKs
// shape them. Type-checked against by .ci/apple-typecheck, never run.
//
// - macOS: `NSApplication` is `@MainActor`, and so are its notification names: Apple's SDK declares them as plain
//   `class let` on the class (UIKit's are `nonisolated`), so only the main actor may read them.
// - Mac Catalyst (compiled with -D MAC_CATALYST): AppKit is importable, but its application object is unavailable
//   to a Catalyst app (`API_UNAVAILABLE(macCatalyst)`), which has `UIApplication` instead.
@_exported import Darwin
@_exported import Foundation

@MainActor
open class NSResponder {
    public nonisolated init() {}
}

/// The application object, under its SDK name below (a type alias, so that Mac Catalyst's can be unavailable).
@MainActor
open class _NSApplication: NSResponder {
    open class var shared: _NSApplication { fatalError("a stand-in for type-checking only") }
    open var isHidden: Bool { fatalError("a stand-in for type-checking only") }

    public static let didFinishLaunchingNotification = Notification.Name("NSApplicationDidFinishLaunchingNotification")
    public static let didBecomeActiveNotification = Notification.Name("NSApplicationDidBecomeActiveNotification")
    public static let willResignActiveNotification = Notification.Name("NSApplicationWillResignActiveNotification")
    public static let didHideNotification = Notification.Name("NSApplicationDidHideNotification")
    public static let willUnhideNotification = Notification.Name("NSApplicationWillUnhideNotification")
    public static let willTerminateNotification = Notification.Name("NSApplicationWillTerminateNotification")
}

#if MAC_CATALYST
@available(*, unavailable, message: "NSApplication is unavailable in Mac Catalyst")
public typealias NSApplication = _NSApplication
#else
public typealias NSApplication = _NSApplication
#endif
