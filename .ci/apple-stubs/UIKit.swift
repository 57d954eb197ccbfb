// Stand-ins for the UIKit declarations the package's `#if canImport(UIKit)` branches and the documentation's
// UIKit snippets use, shaped as the SDKs shape them. Type-checked against by .ci/apple-typecheck, never run.
//
// - iOS, iPadOS, tvOS, visionOS, Mac Catalyst: `UIApplication` is `@MainActor`, its notification names are
//   `nonisolated`, and `shared` is unavailable in app extensions (`@available(iOSApplicationExtension,
//   unavailable)`). A package's libraries are compiled extension-safe when an app extension (a widget, a share
//   extension) links them, where using `shared` fails ("'shared' is unavailable in application extensions for
//   iOS"). The compiler here ignores availability for iOS, so the stand-in makes `shared` unavailable everywhere:
//   nothing in the package may use it.
// - watchOS (compiled with -D WATCHOS): UIKit is importable, with colours, fonts and images but no application
//   object: the app is a `WKApplication`.
@_exported import Darwin
@_exported import Foundation

#if WATCHOS
open class UIColor: NSObject, @unchecked Sendable {}
open class UIImage: NSObject, @unchecked Sendable {}
#else
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

    @available(iOSApplicationExtension, unavailable, message: "Use view controller based solutions where appropriate instead.")
    @available(*, unavailable, message: "'shared' is unavailable in application extensions for iOS, which link this package's libraries")
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
#endif
