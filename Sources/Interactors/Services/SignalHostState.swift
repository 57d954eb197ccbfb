import Dispatch

// The signal host's state machine: what a termination signal does depends on who hosts the registry and on
// whether the tear-down has begun. It lives in the registry's `Storage`, under the registry's lock; the
// effects (tearing down, waking async hosts, ending the process) happen after the lock is released.

extension ServiceRegistry {
    struct SignalHostState {
        /// How an async host's wait for termination ended.
        enum Wake: Sendable {
            case signal
            case cancelled
        }

        /// An async host suspended until a signal or its cancellation.
        typealias Waiter = CheckedContinuation<Wake, Never>

        /// What a termination signal does, decided under the lock.
        enum SignalAction {
            /// Nobody waits in `await runUntilTerminated()`: tear down on `queue` (`nil`: one of the host's
            /// own), report the failures (`nil`: to standard error) and exit.
            case tearDownAndExit(
                on: DispatchQueue?,
                report: (@Sendable (ServiceFailure) -> Void)?,
                deadline: Duration?
            )
            /// Wake the async hosts; the first to wake tears down.
            case wake([Waiter], deadline: Duration?)
            /// The tear-down has already begun (a hook may hang): end the process at once.
            case endProcess
        }

        /// Whether the signal sources are (being) installed.
        var isInstalled = false
        /// The signal sources, kept alive for as long as the registry.
        var sources: [any DispatchSourceSignal] = []
        /// Where a signal that no async host waits for runs the tear-down, and who hears its failures. Set by
        /// the synchronous hosts; `nil` means a queue of the host's own, and standard error.
        var tearDownQueue: DispatchQueue?
        var report: (@Sendable (ServiceFailure) -> Void)?
        /// How long a tear-down started by a signal may take before the process exits anyway.
        var deadline: Duration?
        /// Async hosts between their launch and the end of their tear-down.
        var asyncHosts = 0
        /// Async hosts waiting for a signal, by waiter number.
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var signalReceived = false
        /// Set once a signal or a cancelled async host has begun the tear-down; a signal after that ends the
        /// process, since the serial tear-down it would ask for is already running (or hanging).
        var tearDownBegun = false
        /// Set once the tear-down begun by a signal has returned, so its deadline no longer applies.
        var tearDownFinished = false

        mutating func receiveSignal() -> SignalAction {
            if signalReceived || tearDownBegun { return .endProcess }
            signalReceived = true
            if asyncHosts > 0 {
                // A host that has not registered its waiter yet finds `signalReceived` when it does.
                let woken = Array(waiters.values)
                waiters = [:]
                return .wake(woken, deadline: deadline)
            }
            tearDownBegun = true
            return .tearDownAndExit(on: tearDownQueue, report: report, deadline: deadline)
        }

        /// Registers an async host's waiter, or answers how its wait ends at once.
        mutating func register(_ waiter: Waiter, number: Int, isCancelled: Bool) -> Wake? {
            if signalReceived { return .signal }
            if isCancelled { return .cancelled }
            waiters[number] = waiter
            return nil
        }

        /// Claims the tear-down for a woken async host; false when another host or a signal has claimed it.
        mutating func claimTearDown() -> Bool {
            defer { tearDownBegun = true }
            return !tearDownBegun
        }
    }
}
