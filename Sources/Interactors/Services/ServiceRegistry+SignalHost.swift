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
    /// threw. The signals' default actions are replaced for the rest of the process; calling this again
    /// installs nothing more (and its launch is refused as a second launch).
    ///
    /// A tool that finishes on its own should call ``shutDown()`` before it exits, so its services hear the
    /// same tear-down.
    ///
    /// - Parameters:
    ///   - launchOptions: The options for ``LifecycleEvent/didFinishLaunching(_:)``.
    ///   - onFailure: Called with each tear-down failure before the process exits. By default each is
    ///     written to standard error, one line each.
    /// - Returns: The failures of the launch events.
    @discardableResult
    public func startHosting(
        launchOptions: LaunchOptions = [:],
        onFailure: (@Sendable (ServiceFailure) -> Void)? = nil
    ) -> [ServiceFailure] {
        let report = onFailure ?? { writeToStandardError("\($0)") }
        installTerminationHandlers(report: report)
        return send(.didFinishLaunching(launchOptions)) + send(.didBecomeActive)
    }

    /// Hosts the registry for a server: launches and activates it, and parks the main thread until SIGTERM or
    /// SIGINT shuts it down and exits the process (see ``startHosting(launchOptions:onFailure:)``).
    ///
    /// Launch failures and tear-down failures are written to standard error. Work scheduled on the main
    /// dispatch queue keeps running.
    public func runUntilTerminated(launchOptions: LaunchOptions = [:]) -> Never {
        for failure in startHosting(launchOptions: launchOptions) { writeToStandardError("\(failure)") }
        dispatchMain()
    }

    private func installTerminationHandlers(report: @escaping @Sendable (ServiceFailure) -> Void) {
        let installed = storage.withLock { storage in
            defer { storage.signalSources = storage.signalSources ?? [] }
            return storage.signalSources != nil
        }
        guard !installed else { return }
        let queue = DispatchQueue(label: "Interactors.ServiceRegistry.signals")
        let registered = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { signalNumber in
            // Ignored first so the default action (exiting at once) does not race the dispatch source.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [self] in
                let failures = shutDown()
                for failure in failures { report(failure) }
                exit(failures.isEmpty ? EXIT_SUCCESS : EXIT_FAILURE)
            }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // `resume` arms a source later, on a dispatch thread; a signal arriving before that is ignored and lost.
        // Waiting here means a signal sent once this call returns is always heard.
        for _ in sources { registered.wait() }
        storage.withLock { $0.signalSources = sources }
    }
}

private func writeToStandardError(_ line: String) {
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
#endif
