#if !os(Windows) && !os(WASI)
import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The host for Linux servers and command-line tools: there is no app delegate, so the process's
// lifecycle is launch at start and the termination signals at the end.

extension ServiceRegistry {
    /// Launches and activates the registry, then turns SIGTERM and SIGINT into an orderly shutdown; returns
    /// at once so a command-line tool can go on with its work.
    ///
    /// Sends ``LifecycleEvent/didFinishLaunching(_:)`` and ``LifecycleEvent/didBecomeActive``. When the
    /// process then receives SIGTERM or SIGINT, it sends the tear-down events (``shutDown()``:
    /// ``LifecycleEvent/willResignActive``, ``LifecycleEvent/didEnterBackground``,
    /// ``LifecycleEvent/willTerminate``) and exits the process with status 0, or 1 when any tear-down hook
    /// threw. The tear-down runs on a dispatch queue of the host's own, since the thread that launched is
    /// busy with the tool's work.
    ///
    /// A second SIGTERM or SIGINT during the tear-down (a hook that hangs) ends the process at once, as the
    /// signal does by default. With a `shutDownDeadline`, a tear-down that takes longer ends the process with
    /// status 1 and a line on standard error. Either way the process ends without running `atexit` handlers or
    /// flushing C's standard output buffers, since the hung hook may hold their locks.
    ///
    /// The signals' default actions are replaced for the rest of the process; calling this again installs
    /// nothing more (and its launch is refused as a second launch). A tool that finishes on its own should
    /// call ``shutDown()`` before it exits, so its services hear the same tear-down.
    ///
    /// - Parameters:
    ///   - launchOptions: The options for ``LifecycleEvent/didFinishLaunching(_:)``.
    ///   - shutDownDeadline: How long the tear-down may take after the signal; `nil`, the default, waits for
    ///     it however long it takes.
    ///   - onFailure: Called with each tear-down failure before the process exits. By default each is
    ///     written to standard error, one line each.
    /// - Returns: The failures of the launch events.
    @available(iOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(tvOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(watchOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(visionOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @discardableResult
    public func startHosting(
        launchOptions: LaunchOptions = [:],
        shutDownDeadline: Duration? = nil,
        onFailure: (@Sendable (ServiceFailure) -> Void)? = nil
    ) -> [ServiceFailure] {
        installTerminationHandlers { host in
            host.tearDownQueue = nil
            host.report = onFailure
            host.deadline = shutDownDeadline
        }
        return launch(launchOptions)
    }

    /// Hosts the registry for a server from synchronous top-level code: launches and activates it, and parks
    /// the main thread with `dispatchMain()` until SIGTERM or SIGINT shuts it down and exits the process.
    ///
    /// The tear-down hooks run on the main queue, like work scheduled there, which keeps running while the
    /// main thread is parked. (On Linux, `dispatchMain()` hands the main queue to a worker thread.) Otherwise
    /// it behaves as ``startHosting(launchOptions:shutDownDeadline:onFailure:)`` does: a second signal ends
    /// the process at once, and `shutDownDeadline` bounds the tear-down. Launch failures and tear-down
    /// failures are written to standard error.
    ///
    /// - Precondition: Called on the main thread, which it parks. Anywhere else it stops the process with a
    ///   message: from async code (an async `main` after an `await` runs on another thread), call
    ///   ``runUntilTerminated(launchOptions:shutDownDeadline:isolation:)`` with `try await` instead.
    /// - Parameters:
    ///   - launchOptions: The options for ``LifecycleEvent/didFinishLaunching(_:)``.
    ///   - shutDownDeadline: How long the tear-down may take after the signal; `nil`, the default, waits for
    ///     it however long it takes.
    @available(iOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(tvOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(watchOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(visionOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(
        *,
        noasync,
        message:
            "it parks the main thread; use 'try await registry.runUntilTerminated()' (at top level, give the result its type: 'let failures: [ServiceFailure] = try await registry.runUntilTerminated()')"
    )
    public func runUntilTerminated(launchOptions: LaunchOptions = [:], shutDownDeadline: Duration? = nil) -> Never {
        // Where there is no telling, `dispatchMain()` decides.
        guard callingThreadIsMain() ?? true else {
            // `dispatchMain()` traps without a word anywhere else; say why instead.
            fatalError(
                "ServiceRegistry.runUntilTerminated() must be called on the main thread, which it parks; "
                    + "from async code, call 'try await registry.runUntilTerminated()' instead"
            )
        }
        installTerminationHandlers { host in
            host.tearDownQueue = .main
            host.report = nil
            host.deadline = shutDownDeadline
        }
        for failure in launch(launchOptions) { writeToStandardError("\(failure)") }
        dispatchMain()
    }

    /// Hosts the registry from async code: launches and activates it, suspends until SIGTERM or SIGINT, then
    /// sends the tear-down events and returns; the process does not exit, so `main` can finish its own way.
    ///
    /// ```swift
    /// @main struct Server {
    ///     static func main() async throws {
    ///         let registry = ServiceRegistry.shared
    ///         registry.register(ConnectionPool())
    ///         try await loadConfiguration()
    ///         let failures = try await registry.runUntilTerminated()
    ///         if !failures.isEmpty { exit(1) }
    ///     }
    /// }
    /// ```
    ///
    /// The launch and the tear-down hooks both run in the caller's isolation (the main actor, for an async
    /// `main`). A second signal during the tear-down ends the process at once, as the signal does by default;
    /// with a `shutDownDeadline`, a tear-down that takes longer ends the process with status 1 and a line on
    /// standard error. Launch failures and tear-down failures are written to standard error.
    ///
    /// Cancelling the task ends the wait as a signal would: the services hear the tear-down, then this throws.
    /// A task already cancelled when this is called launches nothing.
    ///
    /// - Parameters:
    ///   - launchOptions: The options for ``LifecycleEvent/didFinishLaunching(_:)``.
    ///   - shutDownDeadline: How long the tear-down may take after the signal; `nil`, the default, waits for
    ///     it however long it takes.
    ///   - isolation: Where the hooks run; leave it to the default, the caller's isolation.
    /// - Returns: The failures of the tear-down events, so the caller can choose its exit status.
    /// - Throws: `CancellationError` when the task was cancelled before a signal arrived.
    @available(iOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(tvOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(watchOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @available(visionOS, unavailable, message: "apps end with an uncatchable SIGKILL; forward the lifecycle instead")
    @discardableResult
    public func runUntilTerminated(
        launchOptions: LaunchOptions = [:],
        shutDownDeadline: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(CancellationError) -> [ServiceFailure] {
        if Task.isCancelled { throw CancellationError() }
        installTerminationHandlers { host in
            host.asyncHosts += 1
            host.deadline = shutDownDeadline
        }
        for failure in launch(launchOptions) { writeToStandardError("\(failure)") }
        let wake = await waitForTermination()
        // With several async hosts, one tears down; the others return with no failures.
        let tearsDown = storage.withLock { $0.signalHost.claimTearDown() }
        let failures = tearsDown ? shutDown() : []
        storage.withLock { storage in
            if tearsDown { storage.signalHost.tearDownFinished = true }
            storage.signalHost.asyncHosts -= 1
        }
        for failure in failures { writeToStandardError("\(failure)") }
        if wake == .cancelled { throw CancellationError() }
        return failures
    }
}

// MARK: - Signals

extension ServiceRegistry {
    private func launch(_ options: LaunchOptions) -> [ServiceFailure] {
        send(.didFinishLaunching(options)) + send(.didBecomeActive)
    }

    /// Suspends until a termination signal arrives or the task is cancelled.
    private func waitForTermination(isolation: isolated (any Actor)? = #isolation) async -> SignalHostState.Wake {
        let waiter = storage.withLock { storage in
            defer { storage.signalHost.nextWaiter += 1 }
            return storage.signalHost.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock the cancellation handler takes: a cancellation that comes before the
                // registration is seen here, one that comes after finds the waiter.
                let now = storage.withLock { storage in
                    storage.signalHost.register(continuation, number: waiter, isCancelled: Task.isCancelled)
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = storage.withLock { $0.signalHost.waiters.removeValue(forKey: waiter) }
            continuation?.resume(returning: .cancelled)
        }
    }

    /// Configures the host and, the first time, installs the handlers for SIGTERM and SIGINT.
    private func installTerminationHandlers(configure: (inout SignalHostState) -> Void) {
        let installed = storage.withLock { storage in
            configure(&storage.signalHost)
            defer { storage.signalHost.isInstalled = true }
            return storage.signalHost.isInstalled
        }
        guard !installed else { return }
        // Only signal handling runs here, so a second signal is heard while a tear-down hook hangs.
        let queue = DispatchQueue(label: "Interactors.ServiceRegistry.signals")
        let registered = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { signalNumber in
            // Ignored first so the default action (exiting at once) does not race the dispatch source.
            _ = signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [self] in receiveTerminationSignal(signalNumber, on: queue) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // `resume` arms a source later, on a dispatch thread; a signal arriving before that is ignored and lost.
        // Waiting here means a signal sent once this call returns is always heard.
        for _ in sources { registered.wait() }
        storage.withLock { $0.signalHost.sources = sources }
    }

    private func receiveTerminationSignal(_ signalNumber: Int32, on signalQueue: DispatchQueue) {
        switch storage.withLock({ $0.signalHost.receiveSignal() }) {
        case .endProcess:
            writeToStandardError(
                "Interactors: termination signal \(signalNumber) after the services' tear-down began; ending the process"
            )
            endProcess(asSignal: signalNumber)
        case .wake(let waiters, let deadline):
            if let deadline { enforce(deadline, on: signalQueue) }
            for waiter in waiters { waiter.resume(returning: .signal) }
        case .tearDownAndExit(let queue, let report, let deadline):
            if let deadline { enforce(deadline, on: signalQueue) }
            let queue = queue ?? DispatchQueue(label: "Interactors.ServiceRegistry.tearDown")
            let report = report ?? { writeToStandardError("\($0)") }
            queue.async { [self] in
                let failures = shutDown()
                storage.withLock { $0.signalHost.tearDownFinished = true }
                for failure in failures { report(failure) }
                exit(failures.isEmpty ? EXIT_SUCCESS : EXIT_FAILURE)
            }
        }
    }

    /// Ends the process with status 1 if the tear-down has not finished `deadline` from now.
    private func enforce(_ deadline: Duration, on queue: DispatchQueue) {
        let (seconds, attoseconds) = deadline.components
        // `DispatchTime + Double` saturates instead of overflowing on huge deadlines.
        let interval = max(0, Double(seconds) + Double(attoseconds) / 1e18)
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            guard !storage.withLock({ $0.signalHost.tearDownFinished }) else { return }
            writeToStandardError("Interactors: the services' tear-down did not finish within \(deadline); exiting")
            // `_exit`, not `exit`: `atexit` handlers could wait for a lock the hung hook holds.
            _exit(EXIT_FAILURE)
        }
    }
}

/// Ends the process as `signalNumber` does by default, from any thread; with the status a shell reports for
/// that signal if it cannot be delivered.
private func endProcess(asSignal signalNumber: Int32) -> Never {
    _ = signal(signalNumber, SIG_DFL)
    // Dispatch's threads may block the signal; unblock it here so that raising it reaches this thread.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, signalNumber)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    raise(signalNumber)
    _exit(128 + signalNumber)
}
#endif
