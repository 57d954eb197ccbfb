// Stand-ins for the AppKit declarations the package's `#if canImport(AppKit)` branches use, shaped as the macOS
// SDK shapes them: `NSApplication` is `@MainActor`, its notification names are `nonisolated`. Type-checked
// against by .ci/apple-typecheck, never run.
@_exported import Darwin
@_exported import Foundation

@MainActor
open class NSResponder {
    public nonisolated init() {}
}

@MainActor
open class NSApplication: NSResponder {
    open class var shared: NSApplication { fatalError("a stand-in for type-checking only") }
    open var isHidden: Bool { fatalError("a stand-in for type-checking only") }

    public nonisolated static let didFinishLaunchingNotification = Notification.Name("NSApplicationDidFinishLaunchingNotification")
    public nonisolated static let didBecomeActiveNotification = Notification.Name("NSApplicationDidBecomeActiveNotification")
    public nonisolated static let willResignActiveNotification = Notification.Name("NSApplicationWillResignActiveNotification")
    public nonisolated static let didHideNotification = Notification.Name("NSApplicationDidHideNotification")
    public nonisolated static let willUnhideNotification = Notification.Name("NSApplicationWillUnhideNotification")
    public nonisolated static let willTerminateNotification = Notification.Name("NSApplicationWillTerminateNotification")
}
