// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import Dispatch
package import Foundation
import Interactors

/// The executable target `name` of this package, built next to the tests that run it: beside the `.xctest`
/// bundle on macOS, beside the test runner elsewhere.
package func executableBuiltWithTheTests(named name: String) -> URL {
    #if os(macOS)
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
    }
    #endif
    return Bundle.main.bundleURL.appendingPathComponent(name)
}

/// A child process whose standard output the test reads line by line: the REST fixture server and the store
/// fixtures.
///
/// Stopping closes its standard input (the fixtures exit when it closes) and then, if needed, sends SIGKILL: a
/// child started from a Dispatch thread can have SIGTERM blocked. Waits are bounded by guard timeouts; a passing
/// test never reaches them.
package final class ChildProcess: Sendable {
    package let process = Process()
    private let input = Pipe()
    private let lines = LockedBox((lines: [String](), closed: false))
    private let lineArrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let errors = LockedBox("")
    private let errorsClosed = DispatchSemaphore(value: 0)

    package init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), errorOutput = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        Thread.detachNewThread { [lines, lineArrived] in
            var pending = ""
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    lines.withLock { $0.lines.append(line) }
                    lineArrived.signal()
                }
            }
            lines.withLock { $0.closed = true }
            lineArrived.signal()
        }
        Thread.detachNewThread { [errors, errorsClosed] in
            let data = errorOutput.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = String(decoding: data, as: UTF8.self) }
            errorsClosed.signal()
        }
    }

    /// Every line printed so far.
    package var output: [String] { lines.withLock { $0.lines } }

    /// What the child printed on standard error (complete once it has exited).
    package var errorOutput: String { errors.withLock { $0 } }

    /// Waits for the child's standard error to close (it has exited) and answers everything printed there.
    package func completeErrorOutput(guardSeconds: Double = 30) -> String {
        if errorsClosed.wait(timeout: .now() + guardSeconds) == .success { errorsClosed.signal() }
        return errorOutput
    }

    /// Waits for a line that `matches`; returns it, or nil if the guard ran out or the output closed first.
    package func waitForLine(guardSeconds: Double = 30, where matches: (String) -> Bool) -> String? {
        let deadline = DispatchTime.now() + guardSeconds
        var seen = 0
        while true {
            let (current, closed) = lines.withLock { ($0.lines, $0.closed) }
            if let line = current[seen...].first(where: matches) { return line }
            if closed { return nil }
            seen = current.count
            if lineArrived.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Waits for the child to exit by itself; false if the guard ran out.
    package func waitForExit(guardSeconds: Double = 30) -> Bool {
        guard exited.wait(timeout: .now() + guardSeconds) == .success else { return false }
        exited.signal()  // so that later waits, a second stop() among them, return at once too
        return true
    }

    /// Writes `line` and a newline to the child's standard input (the REST fixture's "down" and "up").
    package func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Kills the child at once (SIGKILL) and waits for it.
    package func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        _ = waitForExit()
    }

    /// Closes the child's standard input, its cue to exit, and kills it if it has not exited within the guard.
    package func stop() {
        try? input.fileHandleForWriting.close()
        if !waitForExit(guardSeconds: 10) { kill() }
    }
}
#endif
