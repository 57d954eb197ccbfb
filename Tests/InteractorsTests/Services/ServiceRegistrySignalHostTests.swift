#if os(Linux) || os(macOS)
import Dispatch
import Foundation
import Interactors
import Testing

/// The fixture server (Tests/ServiceHostFixture), running in a child process.
private final class HostedServer: Sendable {
    let process = Process()
    private let output = LockedBox("")
    private let errors = LockedBox("")
    private let ready = DispatchSemaphore(value: 0)
    private let outputClosed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(arguments: [String] = []) throws {
        process.executableURL = Self.fixtureURL
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        // Read on a thread of its own, so the test can wait on the ready line with a guard timeout.
        Thread.detachNewThread { [self] in
            while true {
                let data = stdout.fileHandleForReading.availableData
                if data.isEmpty { break }
                let becameReady = output.withLock { output in
                    let wasReady = output.contains("ready\n")
                    output += String(decoding: data, as: UTF8.self)
                    return !wasReady && output.contains("ready\n")
                }
                if becameReady { ready.signal() }
            }
            errors.withLock { $0 = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            outputClosed.signal()
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

    /// Waits for the ready line, sends `signal`, and waits for the process to exit; nil when it hung.
    func signal(_ signal: Int32) -> (lines: [String], errors: String, status: Int32)? {
        guard ready.wait(timeout: .now() + 30) == .success else {
            Issue.record("the fixture never got ready; output: \(output.withLock { $0 })")
            process.terminate()
            return nil
        }
        kill(process.processIdentifier, signal)
        let didExit = exited.wait(timeout: .now() + 30) == .success
        guard didExit, outputClosed.wait(timeout: .now() + 30) == .success else {
            let outcome = didExit ? "closed no output" : "did not exit"
            let output = output.withLock { $0 }
            Issue.record("the fixture \(outcome) after signal \(signal); output: \(output)")
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        let lines = output.withLock { $0 }.split(separator: "\n").map(String.init)
        return (lines, errors.withLock { $0 }, process.terminationStatus)
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

@Suite(.serialized) struct ServiceRegistrySignalHostTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aTerminationSignalTearsTheServicesDownInReverseOrderAndExitsCleanly(signal: Int32) throws {
        let server = try HostedServer()
        let result = try #require(server.signal(signal))
        #expect(result.lines == launchLines + tearDownLines)
        #expect(result.status == 0)
        #expect(server.process.terminationReason == .exit)
        #expect(result.errors.isEmpty)
    }

    @Test func aTearDownHookThatThrowsMakesTheExitStatusOneAndIsReported() throws {
        let server = try HostedServer(arguments: ["fail-on-terminate"])
        let result = try #require(server.signal(SIGTERM))
        #expect(result.lines == launchLines + tearDownLines)
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("Printer failed on willTerminate: "))
    }
}
#endif
