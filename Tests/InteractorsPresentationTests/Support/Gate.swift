import Dispatch

/// A one-shot gate: threads wait until a test opens it. The timeout is a guard against a hung test, not a
/// synchronisation device: a passing test never reaches it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func open(count: Int = 1) {
        for _ in 0..<count { semaphore.signal() }
    }

    /// Waits for the gate; `false` if the guard timeout ran out first.
    @discardableResult
    func wait(guardSeconds: Double = 10) -> Bool {
        semaphore.wait(timeout: .now() + guardSeconds) == .success
    }
}
