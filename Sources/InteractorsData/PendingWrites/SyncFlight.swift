import Foundation
import Interactors

/// The syncs of pending writes under way in this process, one per store (by its ``PendingWritesSyncKey``): a
/// second ``CacheRepository/sync()`` of a store joins the one under way and answers its report.
final class SyncFlights: Sendable {
    static let shared = SyncFlights()

    private let flights = LockedBox<[PendingWritesSyncKey: AnyObject]>([:])

    /// The flight under way for `key`, or a new one (`isNew`) that `make` made, registered until ``finished(_:_:)``.
    func flight<Flight: AnyObject>(for key: PendingWritesSyncKey, make: () -> Flight) -> (Flight, isNew: Bool) {
        flights.withLock { flights in
            if let running = flights[key] {
                // Another value type on the same store cannot be joined; its own flight waits for the lock file.
                guard let running = running as? Flight else { return (make(), true) }
                return (running, false)
            }
            let flight = make()
            flights[key] = flight
            return (flight, true)
        }
    }

    /// The flight under way for `key`, if any.
    func running(_ key: PendingWritesSyncKey) -> AnyObject? {
        flights.withLock { $0[key] }
    }

    /// `flight` ended: the next sync of `key` starts a new one.
    func finished(_ key: PendingWritesSyncKey, _ flight: AnyObject) {
        flights.withLock { flights in
            if flights[key] === flight { flights[key] = nil }
        }
    }
}

/// One sync of a store's pending writes, and the callers waiting for its report: the one that started it (whose
/// cancellation stops it after the write in flight) and those that joined it.
final class SyncFlight<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    typealias Report = SyncReport<Value.ID>

    private struct State {
        var callers: [Resolver<Report>] = []
        var outcome: Result<Report, any Error>?
        var isStopping = false
    }

    private let state = LockedBox(State())

    /// A caller's response to the flight's report; cancelling it stops the flight if `stopsWhenCancelled` (the
    /// caller that started it), and lets this caller go otherwise.
    func caller(stopsWhenCancelled: Bool) -> Response<Report> {
        let (response, resolver) = Response<Report>.makePending()
        if stopsWhenCancelled { resolver.onCancel { [weak self] in self?.stop() } }
        let outcome = state.withLock { state -> Result<Report, any Error>? in
            if let outcome = state.outcome { return outcome }
            state.callers.append(resolver)
            return nil
        }
        if let outcome { resolver.resolve(outcome) }
        return response
    }

    /// Asks the flight to stop after the write in flight.
    func stop() {
        state.withLock { $0.isStopping = true }
    }

    var isStopping: Bool { state.withLock { $0.isStopping } }

    /// Answers every caller with `outcome`: called once the flight's bookkeeping is over (the lock released, the
    /// flight unregistered), since answering runs the callers' code.
    func finish(_ outcome: Result<Report, any Error>) {
        let callers = state.withLock { state in
            state.outcome = outcome
            defer { state.callers = [] }
            return state.callers
        }
        for caller in callers { caller.resolve(outcome) }
    }
}

/// The work of a ``SyncFlight``: takes the store's sync lock, then sends the pending writes in order, one at a
/// time, each through the main source as the call that made it would have been, and records each outcome in the
/// store; then releases the lock and answers the callers.
///
/// A state machine driven by the responses it waits for, without a thread of its own: each step starts one piece
/// of the library's work (a read of the store, a send, a wait for the lock) and the next step runs when it
/// settles, inline when it settled at once. It runs no code of the app's.
///
/// The outcomes of the writes taken are recorded without waiting for them before the next send (the store commits
/// them in order, several together when they queue up); the flight waits for all of them before it releases the
/// lock, so a sync in another process never sends what this one sent.
final class SyncRun<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    /// How many pending writes are read at a time.
    static var batchSize: Int { 64 }
    /// How long a sync that finds the lock file held waits before it tries again.
    static var lockRetryDelay: Duration { .milliseconds(20) }

    private enum Phase {
        case locking
        case reading
        case sending([PendingWrite<Value>], Int)
        case finishing
        case done
    }

    private struct State {
        var phase = Phase.locking
        var lock: SyncLockFile?
        /// The position of the last write sent: the next read starts after it.
        var last: CacheWritePosition?
        var sent: [Value.ID] = []
        var rejected: [Value.ID: DataError] = [:]
        /// The changes recording the outcomes, each answering its failure (nil when it was recorded).
        var recorded: [Response<DataError?>] = []
        /// Why the sync fails: the store could not be read, or the lock file could not be taken.
        var failure: DataError?
    }

    private let repository: CacheRepository<Value>
    private let store: any PendingWriteStore<Value>
    private let key: PendingWritesSyncKey
    private let flight: SyncFlight<Value>
    private let state = LockedBox(State())

    init(
        _ repository: CacheRepository<Value>,
        _ store: any PendingWriteStore<Value>,
        _ key: PendingWritesSyncKey,
        _ flight: SyncFlight<Value>
    ) {
        self.repository = repository
        self.store = store
        self.key = key
        self.flight = flight
    }

    /// Runs steps until one has to wait, then again when it has settled.
    func run() {
        while let wait = step() {
            guard wait.isDone else {
                wait.onResult(on: .immediate) { [self] _ in run() }
                return
            }
        }
    }

    private func moveTo(_ phase: Phase) {
        state.withLock { $0.phase = phase }
    }

    /// Starts the next step; answers what it waits for, nil once the sync is over.
    private func step() -> Response<Void>? {
        var phase = state.withLock { $0.phase }
        if flight.isStopping {  // stopped: the write in flight, if any, has been answered
            switch phase {
            case .locking, .reading, .sending:
                phase = .finishing
            case .finishing, .done:
                break
            }
        }
        switch phase {
        case .locking:
            return lock()
        case .reading:
            let last = state.withLock { $0.last }
            return store.pendingWrites(after: last, limit: Self.batchSize).then { [self] result in
                switch result {
                case .success(let batch): moveTo(batch.isEmpty ? .finishing : .sending(batch, 0))
                case .failure(let error): failAndFinish(error)
                }
                return Response(value: ())
            }
        case .sending(let batch, let index):
            guard index < batch.count else {
                moveTo(.reading)
                return Response(value: ())
            }
            let write = batch[index]
            return send(write).then { [self] result in outcome(of: write, result) }.map { [self] goesOn in
                moveTo(goesOn ? .sending(batch, index + 1) : .finishing)
            }
        case .finishing:
            moveTo(.done)
            return finish()
        case .done:
            return nil
        }
    }

    // MARK: Steps

    private func lock() -> Response<Void> {
        guard let url = key.lockFile else {
            moveTo(.reading)
            return Response(value: ())
        }
        do {
            switch try SyncLockFile.attempt(url) {
            case .taken(let lock):
                state.withLock { $0.lock = lock }
                moveTo(.reading)
                return Response(value: ())
            case .busy:
                return Response(value: ()).delay(by: Self.lockRetryDelay)  // another process syncs: again, later
            }
        } catch {
            failAndFinish(error)
            return Response(value: ())
        }
    }

    /// `write`, sent as the call that made it would have sent it: what the main source stored (nil for a delete).
    private func send(_ write: PendingWrite<Value>) -> Response<Value?> {
        if let value = write.value { return repository.main.put(value).map { Optional($0) } }
        return repository.main.delete(IdQuery(write.id)).map { nil }
    }

    /// Records what became of `write`; answers whether the sync goes on.
    private func outcome(of write: PendingWrite<Value>, _ result: Result<Value?, any Error>) -> Response<Bool> {
        let id = write.id
        switch result {
        case .success(let stored):
            taken(write, stored: stored)
            return Response(value: true)
        case .failure(let error) where write.isDeletion && error.isDataError(.notFound):
            taken(write, stored: nil)  // gone either way
            return Response(value: true)
        case .failure(let error) where HTTPClient.isCancellation(error) || repository.fallback(error):
            // Unavailable again: this write (one more attempt, its error) and those after it stay pending.
            let lastError = CacheRepository<Value>.pendingError(error)
            PendingErrorMemory.shared.remember(lastError, of: id, in: key)
            record(CacheChange(date: Date(), pendingWrites: .failedAgain(at: write.position, lastError: lastError)))
            return Response(value: false)
        case .failure(let error):
            // Refused: it leaves the pending writes, and the cache holds what the main source has for the id now.
            state.withLock { state in
                state.rejected[id] = CacheRepository<Value>.pendingError(error, unavailable: false)
                state.last = write.position
            }
            return repository.main.get(IdQuery(id)).then { [self] current in
                var change = CacheChange<Value>(date: Date(), pendingWrites: .settle(upTo: write.position))
                if case .success(let value) = current {
                    change.values = [value]
                    change.extendedListKeys = [AllObjectsQuery().cacheKey]
                } else {
                    change.removal = .ids([id])
                }
                record(change)
                return Response(value: true)
            }
        }
    }

    /// The main source took `write`: it leaves the pending writes, and the cache keeps what the source answered.
    private func taken(_ write: PendingWrite<Value>, stored: Value?) {
        state.withLock { state in
            state.sent.append(write.id)
            state.last = write.position
        }
        var change = CacheChange<Value>(date: Date(), pendingWrites: .settle(upTo: write.position))
        if let stored {
            change.values = [stored]
            change.extendedListKeys = [AllObjectsQuery().cacheKey]
        } else {
            change.removal = .ids([write.id])
        }
        record(change)
    }

    /// Applies `change` to the store, without waiting for it before the next step.
    private func record(_ change: CacheChange<Value>) {
        let recorded = store.applyCacheChange(change).then { result in
            Response<DataError?>(value: result.failure.map(Self.storeError))
        }
        state.withLock { $0.recorded.append(recorded) }
    }

    private func failAndFinish(_ error: any Error) {
        state.withLock { state in
            if state.failure == nil { state.failure = Self.storeError(error) }
        }
        moveTo(.finishing)
    }

    /// Waits for every outcome to be recorded, counts what is still pending, releases the lock and answers.
    private func finish() -> Response<Void> {
        let recorded = state.withLock { $0.recorded }
        return Response<[DataError?]>.all(recorded).flatMap { [self] failures -> Response<SyncReport<Value.ID>> in
            let (failure, sent, rejected) = state.withLock { ($0.failure, $0.sent, $0.rejected) }
            if let failure = failure ?? failures.compactMap({ $0 }).first { return Response(error: failure) }
            return store.pendingWrites(after: nil, limit: nil).map { remaining in
                SyncReport(sent: sent, rejected: rejected, remaining: remaining.count)
            }.mapError(Self.storeError)
        }.then { [self] outcome in
            state.withLock { $0.lock }?.release()
            SyncFlights.shared.finished(key, flight)
            flight.finish(outcome)
            return Response(value: ())
        }
    }

    /// A store's failure as the sync reports it: its ``DataError``, or `storageFailed`.
    private static func storeError(_ error: any Error) -> DataError {
        (error as? DataError)
            ?? DataError(code: .storageFailed, message: "the cache failed during a sync: \(error)", underlying: error)
    }
}

extension Result {
    /// The failure, if it is one.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
