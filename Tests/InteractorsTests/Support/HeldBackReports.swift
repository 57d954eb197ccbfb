import Dispatch
import Interactors

/// The lines the library reports about waits held back by a queue hierarchy (`HeldBackWorkReport`), taken from
/// now until this object is released instead of written to standard error (a `DiagnosticCapture`), so the tests
/// that provoke them on purpose assert on them and a passing run prints none.
final class HeldBackReports: Sendable {
    private let capture = DiagnosticCapture()
    private let arrived = DispatchSemaphore(value: 0)
    private let observer: UInt64

    init() {
        let arrived = self.arrived
        observer = HeldBackWorkReport.addObserver { _ in arrived.signal() }
    }

    deinit {
        HeldBackWorkReport.removeObserver(observer)
        capture.close()
    }

    /// The lines naming `label`.
    func lines(naming label: String) -> [String] {
        capture.lines.filter { $0.contains("\"\(label)\"") && $0.hasPrefix("Interactors: a blocking wait") }
    }

    /// Suspends until a line names `label`; `false` if none did within the guard. The wait (seconds: reports come
    /// 5 s after a wait began) blocks a thread of its own, not the test's.
    func line(naming label: String, guardSeconds: Double = 30) async -> Bool {
        await onAThreadOfItsOwn { self.waitForLine(naming: label, guardSeconds: guardSeconds) }
    }

    private func waitForLine(naming label: String, guardSeconds: Double) -> Bool {
        let deadline = DispatchTime.now() + guardSeconds
        while lines(naming: label).isEmpty {
            if arrived.wait(timeout: deadline) == .timedOut { return false }
        }
        return true
    }
}

/// A label no other test uses, for queues whose reports a test looks for.
func uniqueLabel(_ name: String) -> String {
    "\(name).\(UInt64.random(in: 0...UInt64.max))"
}
