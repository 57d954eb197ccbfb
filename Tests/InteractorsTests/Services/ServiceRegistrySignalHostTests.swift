#if os(Linux) || os(macOS)
import Dispatch
import Foundation
import Interactors
import Testing
import TestThreads

/// The fixture server (Tests/ServiceHostFixture), running in a child process.
private final class HostedServer: Sendable {
    /// How the process ended.
    struct Outcome {
        let lines: [String]
        let errors: String
        let status: Int32
        let reason: Process.TerminationReason
    }

    /// How long any step may take before the test gives up on it: a guard, not a synchronisation. Generous: the
    /// fixture starts, and under ThreadSanitizer ends, slowly on a loaded machine.
    static let guardTimeout = 90.0

    let process = Process()
    private let input: FileHandle
    private let output = LockedBox("")
    private let errors = LockedBox("")
    private let outputChanged = DispatchSemaphore(value: 0)
    private let outputClosed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the fixture with `arguments`. One that `crashesOnPurpose` (a refused misuse that traps) runs
    /// without Swift's crash backtracer: under ThreadSanitizer the backtracer's helper, cloned from the crashing
    /// process, trips the sanitizer's own checks and can leave the fixture hung instead of ended by its signal.
    init(arguments: [String] = [], crashesOnPurpose: Bool = false) throws {
        process.executableURL = Self.fixtureURL
        process.arguments = arguments
        if crashesOnPurpose {
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
        }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        // Read on a thread of its own, so the test can wait for a line with a guard timeout.
        Thread.detachNewThread { [self] in
            while true {
                let data = stdout.fileHandleForReading.availableData
                if data.isEmpty { break }
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
                outputChanged.signal()
            }
            errors.withLock { $0 = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            outputClosed.signal()
            outputChanged.signal()
        }
    }

    static var fixtureURL: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("ServiceHostFixture")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("ServiceHostFixture")
    }

    private var lines: [String] {
        output.withLock { $0 }.split(separator: "\n").map(String.init)
    }

    /// Waits until the fixture has printed a line starting with `line`; records an issue, kills the fixture
    /// and returns false when it does not in time.
    func waitForLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = DispatchTime.now() + Self.guardTimeout
        while !lines.contains(where: { $0.hasPrefix(line) }) {
            if outputChanged.wait(timeout: deadline) == .timedOut {
                Issue.record("the fixture never printed \"\(line)\"; output: \(lines)", sourceLocation: sourceLocation)
                kill(process.processIdentifier, SIGKILL)
                return false
            }
        }
        return true
    }

    /// Writes `line` to the fixture's standard input.
    func write(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Sends `signal` to the fixture.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and its output to close; nil, with an issue recorded, when it hung.
    func waitForExit(after what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome? {
        let didExit = exited.wait(timeout: .now() + Self.guardTimeout) == .success
        guard didExit, outputClosed.wait(timeout: .now() + Self.guardTimeout) == .success else {
            let outcome = didExit ? "closed no output" : "did not exit"
            Issue.record("the fixture \(outcome) after \(what); output: \(lines)", sourceLocation: sourceLocation)
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return Outcome(
            lines: lines,
            errors: errors.withLock { $0 },
            status: process.terminationStatus,
            reason: process.terminationReason
        )
    }

    /// Waits for the ready line, sends `signal`, and waits for the process to exit; nil when it hung.
    func signal(_ signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome? {
        guard waitForLine("ready", sourceLocation: sourceLocation) else { return nil }
        send(signal)
        return waitForExit(after: "signal \(signal)", sourceLocation: sourceLocation)
    }
}

private let launchLines = [
    "first: didFinishLaunching([:])", "second: didFinishLaunching([:])",
    "first: didBecomeActive", "second: didBecomeActive",
    "ready",
]

private let tearDownLines = [
    "second: willResignActive", "first: willResignActive",
    "second: didEnterBackground", "first: didEnterBackground",
    "second: willTerminate", "first: willTerminate",
]

/// The fixture's arguments for each way of hosting.
private let hosts: [String: [String]] = ["synchronous": [], "async": ["async"]]

@Suite(.serialized, .onThreadsOfTheirOwn) struct ServiceRegistrySignalHostTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aTerminationSignalTearsTheServicesDownInReverseOrderOnTheMainQueueAndExitsCleanly(signal: Int32) throws {
        let server = try HostedServer()
        let result = try #require(server.signal(signal))
        // A hook run anywhere but on the main queue, where the launch ran, would say so in its line.
        #expect(result.lines == launchLines + tearDownLines)
        #expect(result.status == 0)
        #expect(result.reason == .exit)
        #expect(result.errors.isEmpty)
    }

    @Test func aTearDownHookThatThrowsMakesTheExitStatusOneAndIsReported() throws {
        let server = try HostedServer(arguments: ["fail-on-terminate"])
        let result = try #require(server.signal(SIGTERM))
        #expect(result.lines == launchLines + tearDownLines)
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("Printer failed on willTerminate: "))
    }

    @Test func aTearDownFailureGoesToTheDiagnosticsHandlerTheAppSet() throws {
        let server = try HostedServer(arguments: ["fail-on-terminate", "diagnostics-handler"])
        let result = try #require(server.signal(SIGTERM))
        #expect(result.status == 1)
        #expect(
            result.lines.contains { $0.hasPrefix("diagnostic from Interactors: Printer failed on willTerminate: ") }
        )
        #expect(result.errors.isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT], hosts.keys.sorted())
    func aSecondSignalEndsTheProcessWhileATearDownHookHangs(signal: Int32, host: String) throws {
        let server = try HostedServer(arguments: ["hang-on-tear-down"] + hosts[host]!)
        try #require(server.waitForLine("ready"))
        server.send(signal)
        try #require(server.waitForLine("second: willResignActive"))
        server.send(signal)
        let result = try #require(server.waitForExit(after: "the second signal"))
        #expect(result.reason == .uncaughtSignal)
        #expect(result.status == signal)
        #expect(result.lines.last?.hasPrefix("second: willResignActive") == true)
        #expect(result.errors.contains("termination signal \(signal) after the services' tear-down began"))
    }

    @Test(arguments: hosts.keys.sorted())
    func aTearDownThatOverrunsTheDeadlineEndsTheProcessWithStatusOne(host: String) throws {
        let server = try HostedServer(arguments: ["hang-on-tear-down", "deadline"] + hosts[host]!)
        let result = try #require(server.signal(SIGTERM))
        #expect(result.reason == .exit)
        #expect(result.status == 1)
        #expect(result.lines.last?.hasPrefix("second: willResignActive") == true)
        #expect(result.errors.contains("tear-down did not finish within 1.0 seconds"))
    }

    @Test(arguments: hosts.keys.sorted())
    func aTearDownWithinTheDeadlineEndsAsUsual(host: String) throws {
        let server = try HostedServer(arguments: ["deadline"] + hosts[host]!)
        let result = try #require(server.signal(SIGTERM))
        let returned = host == "async" ? ["returned with 0 failures"] : []
        #expect(result.lines == launchLines + tearDownLines + returned)
        #expect(result.reason == .exit)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func theAsyncHostCalledAfterAnAwaitTearsDownOnTheMainActorAndReturns(signal: Int32) throws {
        let server = try HostedServer(arguments: ["async"])
        let result = try #require(server.signal(signal))
        // Launch and tear-down both run on the async main's main actor, so no line says "off the main queue".
        #expect(result.lines == launchLines + tearDownLines + ["returned with 0 failures"])
        #expect(result.reason == .exit)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    @Test func theAsyncHostReportsTearDownFailuresAndReturnsThem() throws {
        let server = try HostedServer(arguments: ["async", "fail-on-terminate"])
        let result = try #require(server.signal(SIGTERM))
        #expect(result.lines == launchLines + tearDownLines + ["returned with 1 failures"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("Printer failed on willTerminate: "))
    }

    @Test func cancellingTheAsyncHostTearsTheServicesDownAndThrowsCancellationError() throws {
        let server = try HostedServer(arguments: ["async-cancel"])
        try #require(server.waitForLine("ready"))
        server.write("cancel")
        let result = try #require(server.waitForExit(after: "the cancellation"))
        #expect(result.lines == launchLines + tearDownLines + ["cancelled"])
        #expect(result.reason == .exit)
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
    }

    #if os(Linux)
    // On Linux, code after an `await` in an async main runs on a worker thread, where `dispatchMain()` traps.
    @Test func theSynchronousHostRefusesWithAMessageWhenCalledOffTheMainThread() throws {
        let server = try HostedServer(arguments: ["sync-after-await"], crashesOnPurpose: true)
        let result = try #require(server.waitForExit(after: "the refusal"))
        #expect(result.reason == .uncaughtSignal)
        #expect(!result.lines.contains("ready"))
        #expect(result.errors.contains("runUntilTerminated() must be called on the main thread"))
        #expect(result.errors.contains("try await registry.runUntilTerminated()"))
    }
    #endif
}
#endif
