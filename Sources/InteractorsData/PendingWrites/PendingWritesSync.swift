public import Interactors

/// A service that sends a ``CacheRepository``'s pending writes when the app comes back: on
/// `Service.didBecomeActive()` and `Service.willEnterForeground()`, then every `interval` while the app is
/// active.
///
/// ```swift
/// let notes = CacheRepository(main: remote, cache: cache, pendingWrites: .keep)
/// ServiceRegistry.shared.register(PendingWritesSync(repository: notes, every: .seconds(60)))
/// ```
///
/// It stops its timer on `Service.willResignActive()` and `Service.didEnterBackground()`, and on
/// `Service.willTerminate()` stops the sync in flight after the write it is sending (whose outcome is recorded).
/// A sync that fails (the cache could not be read or written) is a diagnostic (`Diagnostics`), not a failure of
/// the service: the next event or tick tries again. Its hooks return at once: a sync runs on the library's own
/// threads, never on the thread that sent the event.
public final class PendingWritesSync<Value: Identifiable & Sendable>: Service where Value.ID: Sendable {
    private struct State {
        var isActive = false
        /// Tells a tick of a stopped timer from one of the current timer.
        var timerGeneration = 0
        var timer: Response<Void>?
        var sync: Response<SyncReport<Value.ID>>?
    }

    private let repository: CacheRepository<Value>
    private let interval: Duration?
    private let state = LockedBox(State())

    /// A service that syncs `repository`'s pending writes as the app becomes active, and every `interval` while it
    /// is (nil: only then).
    public init(repository: CacheRepository<Value>, every interval: Duration? = nil) {
        precondition(
            interval.map { $0 > .zero } ?? true,
            "PendingWritesSync: the interval must be longer than zero, not \(interval.map { "\($0)" } ?? "")"
        )
        self.repository = repository
        self.interval = interval
    }

    /// Syncs, and starts the timer.
    public func didBecomeActive() throws {
        startSync()
        let generation = state.withLock { state -> Int? in
            guard !state.isActive else { return nil }
            state.isActive = true
            state.timerGeneration += 1
            return state.timerGeneration
        }
        if let generation { scheduleTick(generation) }
    }

    /// Syncs.
    public func willEnterForeground() throws {
        startSync()
    }

    /// Stops the timer.
    public func willResignActive() throws {
        stopTimer()
    }

    /// Stops the timer.
    public func didEnterBackground() throws {
        stopTimer()
    }

    /// Stops the timer, and the sync in flight after the write it is sending.
    public func willTerminate() throws {
        stopTimer()
        state.withLock { $0.sync }?.cancel()
        repository.stopSync()
    }

    // MARK: Syncing

    private func startSync() {
        let sync = repository.sync()
        state.withLock { $0.sync = sync }
        sync.onFailure(on: .immediate) { error in
            guard !(error is CancellationError) else { return }
            diagnose(
                "PendingWritesSync<\(Value.self)>: the sync failed, and is tried again on the next event: \(error)"
            )
        }
    }

    private func scheduleTick(_ generation: Int) {
        guard let interval else { return }
        let tick = Response(value: ()).delay(by: interval)
        let current = state.withLock { state -> Bool in
            guard state.isActive, state.timerGeneration == generation else { return false }
            state.timer = tick
            return true
        }
        guard current else { return tick.cancel() }
        tick.onCompletion(on: .immediate) { [weak self] in self?.tick(generation) }
    }

    private func tick(_ generation: Int) {
        let current = state.withLock { $0.isActive && $0.timerGeneration == generation }
        guard current else { return }
        startSync()
        scheduleTick(generation)
    }

    private func stopTimer() {
        let timer = state.withLock { state -> Response<Void>? in
            state.isActive = false
            state.timerGeneration += 1
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }
}
