#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import Testing

/// The article's async server block compiles as top-level code (Tests/TopLevelServer/main.swift is that block,
/// verbatim) and behaves as the article says: it launches, waits for SIGTERM, tears down, and exits with status
/// 0, or 1 when a tear-down hook threw.
@Suite struct TopLevelServerTests {
    @Test func theTopLevelServerTearsDownOnSIGTERMAndExitsWithStatusZero() throws {
        let server = try TopLevelServer(arguments: [])
        try #require(server.waitForLine("pool: didBecomeActive"))
        kill(server.process.processIdentifier, SIGTERM)
        let status = try #require(server.waitForExit())
        #expect(status == 0)
        let tearDown = ["pool: willResignActive", "pool: didEnterBackground", "pool: willTerminate"]
        #expect(server.lines.suffix(3) == tearDown)
    }

    @Test func theTopLevelServerExitsWithStatusOneWhenATearDownHookThrows() throws {
        let server = try TopLevelServer(arguments: ["fail-tear-down"])
        try #require(server.waitForLine("pool: didBecomeActive"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try #require(server.waitForExit()) == 1)
        // The host reports the failure on standard error, taken here so that a passing run prints nothing.
        #expect(
            server.errorOutput.wait(for: "MetricsExporter failed on willTerminate: FlushFailed()", guardSeconds: 10)
        )
    }
}

/// The executable, running in a child process.
private final class TopLevelServer: Sendable {
    /// How long a step may take before the test gives up: a guard for a loaded machine, not a synchronisation.
    static let guardSeconds = 60.0

    let process = Process()
    private let output = OutputLines()
    /// What the server writes to standard error: the library's reports, which the tests read instead of printing.
    let errorOutput = OutputLines()
    private let exited = DispatchSemaphore(value: 0)

    init(arguments: [String]) throws {
        process.executableURL = Self.executableURL
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        for (pipe, lines) in [(stdout, output), (stderr, errorOutput)] {
            Thread.detachNewThread {
                while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                    lines.append(String(decoding: data, as: UTF8.self))
                }
            }
        }
    }

    static var executableURL: URL {
        executableBuiltWithTheTests(named: "TopLevelServer")
    }

    var lines: [String] { output.lines }

    /// Waits until the server printed `line`; kills it and returns false if it did not in time.
    func waitForLine(_ line: String) -> Bool {
        guard output.wait(for: line, guardSeconds: Self.guardSeconds) else {
            Issue.record("the server never printed \"\(line)\"; output: \(lines)")
            kill(process.processIdentifier, SIGKILL)
            return false
        }
        return true
    }

    /// The exit status once the server exits; nil (and the server killed) if it did not in time.
    func waitForExit() -> Int32? {
        guard exited.wait(timeout: .now() + Self.guardSeconds) == .success else {
            Issue.record("the server did not exit; output: \(lines)")
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Text a child process writes, split into lines, with a wait for one of them.
private final class OutputLines: Sendable {
    private let text = LockedBox("")
    private let changed = DispatchSemaphore(value: 0)

    func append(_ more: String) {
        text.withLock { $0 += more }
        changed.signal()
    }

    var lines: [String] {
        text.withLock { $0 }.split(separator: "\n").map(String.init)
    }

    func wait(for line: String, guardSeconds: Double) -> Bool {
        let deadline = DispatchTime.now() + guardSeconds
        while !lines.contains(line) {
            if changed.wait(timeout: deadline) == .timedOut { return false }
        }
        return true
    }
}
#endif
