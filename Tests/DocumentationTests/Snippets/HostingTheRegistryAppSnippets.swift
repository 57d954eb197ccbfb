// The app hosts of Sources/Interactors/Interactors.docc/HostingTheRegistry.md. Linux has no UIKit, AppKit or
// SwiftUI, so these compile only where those frameworks exist: on a Mac, and in CI's type-check against stand-ins
// for Apple's SDKs (.ci/apple-typecheck). CodeBlockTests checks their text everywhere. The blocks' `@main`
// attributes are left out: a test target has a `main` of its own.
#if canImport(SwiftUI) || (canImport(UIKit) && !os(watchOS))
import Interactors

private final class CrashReporter: Service {}
private final class Analytics: Service {}
#endif

#if canImport(SwiftUI)
import SwiftUI
#if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit)
import InteractorsAppHost
#endif

private struct ContentView: View {
    var body: some View { Text("Books") }
}

#if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit)
struct MyApp: App {
    /// Forwards the notifications for as long as it is kept.
    private let lifecycle: ApplicationNotificationObservation

    init() {
        ServiceRegistry.shared.register(CrashReporter())
        lifecycle = ServiceRegistry.shared.observeApplicationNotifications()
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
                .onOpenURL { url in _ = try? ServiceRegistry.shared.open(url.absoluteString) }
        }
    }
}
#endif

struct WatchApp: App {
    @Environment(\.scenePhase) private var phase

    init() {
        ServiceRegistry.shared.register(CrashReporter())
        report(ServiceRegistry.shared.send(.didFinishLaunching([:])))
    }

    var body: some Scene {
        WindowGroup { ContentView() }
            .onChange(of: phase, initial: true) { _, phase in
                let registry = ServiceRegistry.shared
                let events: [LifecycleEvent] =
                    switch (registry.state, phase) {
                    case (.background, .inactive): [.willEnterForeground]
                    case (.background, .active): [.willEnterForeground, .didBecomeActive]
                    case (.inactive, .active): [.didBecomeActive]
                    case (.active, .inactive): [.willResignActive]
                    case (.active, .background): [.willResignActive, .didEnterBackground]
                    case (.inactive, .background): [.didEnterBackground]
                    default: []
                    }
                for event in events { report(registry.send(event)) }
            }
    }
}

func report(_ failures: [ServiceFailure]) {
    for failure in failures { print(failure) }
}
#endif

#if canImport(UIKit) && !os(watchOS)
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    let registry = ServiceRegistry.shared

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        registry.register(CrashReporter())
        registry.register(Analytics())
        var options = LaunchOptions()
        if let url = launchOptions?[.url] as? URL { options["url"] = url }
        report(registry.send(.didFinishLaunching(options)))
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) { report(registry.send(.willEnterForeground)) }
    func applicationDidBecomeActive(_ application: UIApplication) { report(registry.send(.didBecomeActive)) }
    func applicationWillResignActive(_ application: UIApplication) { report(registry.send(.willResignActive)) }
    func applicationDidEnterBackground(_ application: UIApplication) { report(registry.send(.didEnterBackground)) }
    func applicationDidReceiveMemoryWarning(_ application: UIApplication) {
        report(registry.send(.didReceiveMemoryWarning))
    }
    func applicationWillTerminate(_ application: UIApplication) { report(registry.send(.willTerminate)) }

    func application(
        _ app: UIApplication,
        open url: URL,
        options: [UIApplication.OpenURLOptionsKey: Any] = [:]
    ) -> Bool {
        var requestOptions = LaunchOptions()
        if let source = options[.sourceApplication] as? String { requestOptions["sourceApplication"] = source }
        return (try? registry.open(url.absoluteString, options: requestOptions)) ?? false
    }

    private func report(_ failures: [ServiceFailure]) {
        for failure in failures { print(failure) }
    }
}
#endif
