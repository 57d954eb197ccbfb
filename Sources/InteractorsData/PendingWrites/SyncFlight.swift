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
