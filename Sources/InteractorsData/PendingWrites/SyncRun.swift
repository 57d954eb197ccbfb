import Foundation
import Interactors

/// The work of a ``SyncFlight``: takes the store's sync lock, then sends the pending writes in order, one at a time,
/// each through the main source as the call that made it would have been, and records each outcome in the store
/// (``SyncOutcomes``); then releases the lock and answers the callers.
///
/// A state machine driven by the responses it waits for, without a thread of its own: each step starts one piece
/// of the library's work (a read of the store, a send, a wait for the lock) and the next step runs on the thread
/// that settles it, as soon as it settles (an `.immediate` continuation: no hop to another thread between a send's
/// answer and the next send). One thread drives it at a time; a continuation that arrives while one drives (a
/// response settled at once) asks it to go round again, so the steps never nest on one stack. It runs no code of
/// the app's: the callers are answered once the lock is released and the flight unregistered.
final class SyncRun<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    /// How many pending writes are read at a time.
    static var batchSize: Int { 64 }
    /// How long a sync that finds the lock file held waits before it tries again.
    static var lockRetryDelay: Duration { .milliseconds(20) }

    private enum Phase {
        case locking
        case reading
        case sending([PendingWrite<Value>], Int)
        /// The main source refused the write at the index: its id is read again before the next one is sent.
        case rereading([PendingWrite<Value>], Int)
        case waitingForOutcomes
        case counting
        case answering(Result<SyncReport<Value.ID>, any Error>)
        case ended
    }

    private struct State {
        var phase = Phase.locking
        var lock: SyncLockFile?
        /// The position of the last write sent: the next read starts after it.
        var last: CacheWritePosition?
        var sent: [Value.ID] = []
        var rejected: [Value.ID: DataError] = [:]
        /// Why the sync fails: the store could not be read or written, or the lock file could not be taken.
        var failure: DataError?
        /// Whether a thread is driving the steps, and whether a continuation asked it to go round again.
        var isDriving = false
        var again = false
    }

    private let repository: CacheRepository<Value>
    private let store: any PendingWriteStore<Value>
    private let key: PendingWritesSyncKey
    private let flight: SyncFlight<Value>
    private let outcomes: SyncOutcomes<Value>
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
        self.outcomes = SyncOutcomes(store)
    }

    /// Runs steps until one has to wait; its continuation runs them again.
    func run() {
        let drives = state.withLock { state -> Bool in
            if state.isDriving {
                state.again = true
                return false
            }
            state.isDriving = true
            return true
        }
        guard drives else { return }
        repeat {
            while step() {}
        } while state.withLock { state -> Bool in
            if state.again {
                state.again = false
                return true
            }
            state.isDriving = false
            return false
        }
    }

    private func moveTo(_ phase: Phase) {
        state.withLock { $0.phase = phase }
    }

    /// Waits for `response`: `handle` gets its outcome on the thread that settles it, then the steps go on there.
    private func after<T: Sendable>(
        _ response: Response<T>,
        _ handle: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Bool {
        response.onResult(on: .immediate) { [self] result in
            handle(result)
            run()
        }
        return false
    }

    /// Takes the next step; true to take another at once, false when a continuation will (or the sync is over).
    private func step() -> Bool {
        var phase = state.withLock { $0.phase }
        if flight.isStopping {  // stopped: the write in flight, if any, has been answered and recorded
            switch phase {
            case .locking, .reading, .sending:
                phase = .waitingForOutcomes
                moveTo(phase)
            default:
                break
            }
        }
        switch phase {
        case .locking:
            return lock()
        case .reading:
            let last = state.withLock { $0.last }
            return after(store.pendingWrites(after: last, limit: Self.batchSize)) { [self] result in
                switch result {
                case .success(let batch): moveTo(batch.isEmpty ? .waitingForOutcomes : .sending(batch, 0))
                case .failure(let error): fail(error)
                }
            }
        case .sending(let batch, let index):
            guard index < batch.count else {
                moveTo(.reading)
                return true
            }
            let write = batch[index]
            return after(send(write)) { [self] result in moveTo(outcome(of: write, result, batch, index)) }
        case .rereading(let batch, let index):
            let write = batch[index]
            return after(repository.main.get(IdQuery(write.id))) { [self] current in
                // Refused: the cache holds what the main source has for the id now, or nothing.
                outcomes.record(write, stored: try? current.get(), deleted: (try? current.get()) == nil)
                moveTo(.sending(batch, index + 1))
            }
        case .waitingForOutcomes:
            return after(outcomes.recorded()) { [self] failure in
                if case .success(let failure?) = failure { fail(failure) }
                moveTo(state.withLock { $0.failure }.map { .answering(.failure($0)) } ?? .counting)
            }
        case .counting:
            return after(store.pendingWrites(after: nil, limit: nil)) { [self] remaining in
                let report = remaining.map { remaining in
                    state.withLock { SyncReport(sent: $0.sent, rejected: $0.rejected, remaining: remaining.count) }
                }
                moveTo(.answering(report.mapError(SyncOutcomes<Value>.storeError)))
            }
        case .answering(let outcome):
            moveTo(.ended)
            state.withLock { $0.lock }?.release()
            SyncFlights.shared.finished(key, flight)
            flight.finish(outcome)
            return false
        case .ended:
            return false
        }
    }

    // MARK: Steps

    private func lock() -> Bool {
        guard let url = key.lockFile else {
            moveTo(.reading)
            return true
        }
        do {
            switch try SyncLockFile.attempt(url) {
            case .taken(let lock):
                state.withLock { state in
                    state.lock = lock
                    state.phase = .reading
                }
                return true
            case .busy:
                // Another process syncs this store: try again a little later, holding no thread meanwhile.
                return after(Response(value: ()).delay(by: Self.lockRetryDelay)) { _ in }
            }
        } catch {
            fail(error)
            return true
        }
    }

    /// `write`, sent as the call that made it would have sent it: what the main source stored (nil for a delete).
    private func send(_ write: PendingWrite<Value>) -> Response<Value?> {
        if let value = write.value { return repository.main.put(value).map { Optional($0) } }
        return repository.main.delete(IdQuery(write.id)).map { nil }
    }

    /// Records what became of `write`, the one at `index` in `batch`; answers the next phase.
    private func outcome(
        of write: PendingWrite<Value>,
        _ result: Result<Value?, any Error>,
        _ batch: [PendingWrite<Value>],
        _ index: Int
    ) -> Phase {
        state.withLock { $0.last = write.position }
        switch result {
        case .success(let stored):
            taken(write, stored: stored)
            return .sending(batch, index + 1)
        case .failure(let error) where write.isDeletion && error.isDataError(.notFound):
            taken(write, stored: nil)  // gone either way
            return .sending(batch, index + 1)
        case .failure(let error) where HTTPClient.isCancellation(error) || repository.fallback(error):
            // Unavailable again: this write (one more attempt, its error) and those after it stay pending.
            let lastError = CacheRepository<Value>.pendingError(error)
            PendingErrorMemory.shared.remember(lastError, of: write.id, in: key)
            outcomes.record(
                CacheChange(date: Date(), pendingWrites: .failedAgain(at: write.position, lastError: lastError))
            )
            return .waitingForOutcomes
        case .failure(let error):
            state.withLock { $0.rejected[write.id] = CacheRepository<Value>.pendingError(error, unavailable: false) }
            return .rereading(batch, index)
        }
    }

    /// The main source took `write`: it leaves the pending writes, and the cache keeps what the source answered.
    private func taken(_ write: PendingWrite<Value>, stored: Value?) {
        state.withLock { $0.sent.append(write.id) }
        outcomes.record(write, stored: stored, deleted: stored == nil)
    }

    private func fail(_ error: any Error) {
        state.withLock { state in
            if state.failure == nil { state.failure = SyncOutcomes<Value>.storeError(error) }
            state.phase = .waitingForOutcomes
        }
    }
}
