#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reports `line` as a diagnostic of the calling file's product (see ``Diagnostics``): standard error, unless the
/// app set a handler or a test captures it.
package func writeToStandardError(_ line: String, fileID: String = #fileID) {
    diagnose(line, fileID: fileID)
}

/// Writes `line` and a newline to standard error in one go, unbuffered and whole (a short write is continued),
/// without Foundation: diagnostics must get out even if the process ends next.
func writeLineToStandardError(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Takes the library's diagnostics instead of handing them to the handler, while at least one capture is open:
/// for tests that provoke a diagnostic and assert on it (the test kit's `withCapturedDiagnostics`).
///
/// Captures are process-wide, as standard error is: while one is open, a diagnostic written by any thread goes to
/// every open capture and not to standard error. A test asserts that what it provoked is among the lines, not that
/// the lines are only its own.
package final class DiagnosticCapture: Sendable {
    private static let open = LockedBox<[DiagnosticCapture]>([])
    private let captured = LockedBox<[String]>([])

    /// Opens a capture: from now on, the library's diagnostics are taken, until ``close()``.
    package init() {
        Self.open.withLock { $0.append(self) }
    }

    /// Closes the capture and returns the lines taken while it was open, oldest first.
    @discardableResult
    package func close() -> [String] {
        Self.open.withLock { captures in captures.removeAll { $0 === self } }
        return lines
    }

    /// The lines taken so far, oldest first.
    package var lines: [String] {
        captured.withLock { $0 }
    }

    /// Hands `line` to every open capture; `false` if none is open.
    static func take(_ line: String) -> Bool {
        let captures = open.withLock { $0 }
        for capture in captures { capture.captured.withLock { $0.append(line) } }
        return !captures.isEmpty
    }
}
