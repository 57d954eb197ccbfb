// Stand-ins for the UIKit declarations the package's `#if canImport(UIKit)` branches and the documentation's
// UIKit snippets use, shaped as the iOS SDK shapes them: `UIApplication` is `@MainActor`, its notification
// names are `nonisolated`. Type-checked against by .ci/apple-typecheck, never run.
@_exported import Darwin
@_exported import Foundation

@MainActor
open class UIResponder {
    public nonisolated init() {}
}

@MainActor
open class UIApplication: UIResponder {
    public enum State: Int, Sendable {
        case active, inactive, background
    }

    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
    }

    public struct OpenURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let sourceApplication = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsSourceApplicationKey")
    }

    open class var shared: UIApplication { fatalError("a stand-in for type-checking only") }
    open var applicationState: State { fatalError("a stand-in for type-checking only") }

    public nonisolated static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    public nonisolated static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    public nonisolated static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    public nonisolated static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    public nonisolated static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    public nonisolated static let didReceiveMemoryWarningNotification = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    public nonisolated static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
}

/// Its methods are all optional (Objective-C), so the stand-in requires none.
@MainActor
public protocol UIApplicationDelegate: AnyObject {}
