import InteractorsTestKit
import TestThreads
import Testing

@testable import Interactors

/// The UIKit and AppKit hosts follow the platform's notifications through `ApplicationNotification`; these
/// feed it the sequences real apps post (Apple's documented launch sequences) and check that the registry
/// accepts every event it is sent, and what the services hear.
@Suite(.onThreadsOfTheirOwn) struct ApplicationNotificationTests {
    /// Follows each notification in turn; the events the service heard, and every failure.
    private func follow(_ notifications: [ApplicationNotification]) -> (heard: [LifecycleEvent], failures: [String]) {
        let recorder = RecordingService()
        let registry = ServiceRegistry()
        registry.register(recorder)
        var failures: [String] = []
        for notification in notifications {
            registry.follow(notification) { failures.append("\($0)") }
        }
        return (recorder.events, failures)
    }

    @Test func aSceneBasedColdLaunchEntersTheForegroundWithoutARefusedEvent() {
        // A scene-based or SwiftUI app launches in the background, then its scene enters the foreground.
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: true), .willEnterForeground, .didBecomeActive,
        ])
        #expect(failures.isEmpty)
        #expect(heard == [.didFinishLaunching([:]), .didEnterBackground, .willEnterForeground, .didBecomeActive])
    }

    @Test func aBackgroundLaunchLeavesTheRegistryInTheBackgroundUntilTheUserOpensTheApp() {
        let recorder = RecordingService()
        let registry = ServiceRegistry()
        registry.register(recorder)
        var failures: [ServiceFailure] = []
        // A silent push or a background task: the app finishes launching and stays in the background.
        registry.follow(.didFinishLaunching(["remote-notification": true], inBackground: true)) { failures.append($0) }
        #expect(registry.state == .background)
        registry.follow(.didEnterBackground) { failures.append($0) }
        #expect(registry.state == .background)
        // Later the user opens it.
        for notification: ApplicationNotification in [.willEnterForeground, .didBecomeActive] {
            registry.follow(notification) { failures.append($0) }
        }
        #expect(failures.isEmpty)
        #expect(registry.state == .active)
        #expect(
            recorder.events == [
                .didFinishLaunching(["remote-notification": true]), .didEnterBackground, .willEnterForeground,
                .didBecomeActive,
            ]
        )
    }

    @Test func aSceneLessLaunchBecomesActiveDirectly() {
        // An app without scenes launches inactive and becomes active, with no willEnterForeground.
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: false), .didBecomeActive, .willResignActive, .didEnterBackground,
            .willEnterForeground, .didBecomeActive,
        ])
        #expect(failures.isEmpty)
        #expect(
            heard == [
                .didFinishLaunching([:]), .didBecomeActive, .willResignActive, .didEnterBackground,
                .willEnterForeground, .didBecomeActive,
            ]
        )
    }

    @Test func aHiddenAndUnhiddenMacAppGoesThroughTheBackground() {
        // NSApplication: launch, activate, resign, hide (didEnterBackground), unhide (willEnterForeground).
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: false), .didBecomeActive, .willResignActive, .didEnterBackground,
            .willEnterForeground, .didBecomeActive, .willTerminate,
        ])
        #expect(failures.isEmpty)
        #expect(
            heard == [
                .didFinishLaunching([:]), .didBecomeActive, .willResignActive, .didEnterBackground,
                .willEnterForeground, .didBecomeActive, .willResignActive, .didEnterBackground, .willTerminate,
            ]
        )
    }

    @Test func aNotificationThatSkipsAStateGetsTheEventsInBetween() {
        // Hiding an active Mac app (no resign first), then activating it while hidden.
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: false), .didBecomeActive, .didEnterBackground, .didBecomeActive,
        ])
        #expect(failures.isEmpty)
        #expect(
            heard == [
                .didFinishLaunching([:]), .didBecomeActive, .willResignActive, .didEnterBackground,
                .willEnterForeground, .didBecomeActive,
            ]
        )
    }

    @Test func aRepeatedNotificationIsNotRefused() {
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: false), .didFinishLaunching([:], inBackground: false),
            .willEnterForeground, .didBecomeActive, .didBecomeActive, .willResignActive, .willResignActive,
        ])
        #expect(failures.isEmpty)
        #expect(heard == [.didFinishLaunching([:]), .didBecomeActive, .willResignActive])
    }

    @Test func observingThatBeganAfterTheLaunchLaunchesTheServicesFirst() {
        let (heard, failures) = follow([.didBecomeActive, .didReceiveMemoryWarning])
        #expect(failures.isEmpty)
        #expect(heard == [.didFinishLaunching([:]), .didBecomeActive, .didReceiveMemoryWarning])
    }

    @Test func terminationTearsDownFromWhereTheAppIsAndNothingFollowsIt() {
        let (heard, failures) = follow([
            .didFinishLaunching([:], inBackground: true), .willEnterForeground, .didBecomeActive, .willTerminate,
            .didBecomeActive, .didEnterBackground,
        ])
        #expect(failures.isEmpty)
        #expect(
            heard == [
                .didFinishLaunching([:]), .didEnterBackground, .willEnterForeground, .didBecomeActive,
                .willResignActive, .didEnterBackground, .willTerminate,
            ]
        )
    }
}
