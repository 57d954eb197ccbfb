import Interactors
import InteractorsTestKit
import Testing

// The code blocks of Sources/Interactors/Interactors.docc/WritingAService.md, in order, with the stand-ins they
// need. The tests among them run.

@Suite private struct WritingAServiceSnippets {
    // MARK: Stand-ins

    struct Logger { func error(_ message: String) {} }
    final class MyService: Service {}

    let registry = ServiceRegistry()
    let logger = Logger()

    // MARK: Overview

    final class CrashReporter: Service {
        func didFinishLaunching(options: LaunchOptions) throws {
            try installHandlers()
        }

        func willTerminate() throws {
            flushPendingReports()
        }
    }

    func register() {
        ServiceRegistry.shared.register(CrashReporter())
    }

    // MARK: Failing

    func failing() {
        for failure in registry.send(.didBecomeActive) {
            logger.error("\(failure)")
        }
    }

    // MARK: Handling every event in one place

    final class Telemetry: Service {
        func receive(_ event: LifecycleEvent) throws {
            record("lifecycle", "\(event)")
        }
    }

    // MARK: Claiming URLs

    final class Payments: Service {
        func open(_ request: URLOpenRequest) -> Bool {
            guard request.url.hasPrefix("myapp://payment") else { return false }
            completePayment(request.url)
            return true
        }
    }

    // MARK: Testing a service

    @Test func crashReporterFlushesOnTermination() {
        let reporter = CrashReporter()
        let driver = LifecycleDriver(services: [reporter])
        #expect(driver.launch().isEmpty)  // didFinishLaunching, didBecomeActive
        #expect(driver.terminate().isEmpty)  // willResignActive, didEnterBackground, willTerminate
        #expect(reporter.pendingReports.isEmpty)
    }

    @Test func anEventLogShowsTheOrder() {
        let log = EventLog()
        let driver = LifecycleDriver(services: [
            RecordingService(name: "first", log: log), MyService(), RecordingService(name: "last", log: log),
        ])
        driver.launch()
        driver.terminate()
        #expect(log.services(hearing: .willTerminate) == ["last", "first"])
    }
}

// Stand-ins for what the article's services call.

extension WritingAServiceSnippets.CrashReporter {
    var pendingReports: [String] { [] }
    func installHandlers() throws {}
    func flushPendingReports() {}
}

extension WritingAServiceSnippets.Telemetry {
    func record(_ category: String, _ message: String) {}
}

extension WritingAServiceSnippets.Payments {
    func completePayment(_ url: String) {}
}
