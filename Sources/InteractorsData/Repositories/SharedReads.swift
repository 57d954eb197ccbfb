import Interactors

/// What a read of a repository's main source asks, for telling identical reads apart: the same ``IdQuery``, or the
/// same query type with the same ``CacheKeyQuery/cacheKey``.
struct ReadKey: Hashable, @unchecked Sendable {
    // @unchecked Sendable: `AnyHashable` is not `Sendable`; what it wraps is (an id, or a type and a key).
    private let key: AnyHashable

    /// A `get` of one id.
    static func id<ID: Hashable & Sendable>(_ id: ID) -> ReadKey {
        ReadKey(key: AnyHashable(ExactID(id)))
    }

    /// A `getAll` of a query with a cache key.
    static func list(_ query: any CacheKeyQuery) -> ReadKey {
        ReadKey(key: AnyHashable([AnyHashable(ObjectIdentifier(type(of: query))), AnyHashable(query.cacheKey)]))
    }
}

/// The reads of a main source under way, by what they ask (``ReadKey``): a caller asking what is being read joins
/// that read instead of sending another, as ``TokenRefreshInterceptor`` joins a refresh under way.
///
/// Each caller waits on a response of its own, so each keeps its own cancellation: cancelling one lets the read go on
/// while another still waits for it; when the last one cancels, the read is cancelled. A caller may also be answered
/// early (``answerEarly(_:with:)``: from the cache, by a deadline): it stops waiting, and the read goes on, since its
/// answer updates the cache.
final class SharedReads<Output: Sendable>: Sendable {
    /// A caller's place in a read, to answer it early.
    struct Ticket: Sendable {
        fileprivate let key: FlightKey
        fileprivate let flight: Int
        fileprivate let waiter: Int
    }

    /// A read in the table (`shared`), or one of a single caller's (a query without a key).
    fileprivate enum FlightKey: Hashable, Sendable {
        case shared(ReadKey)
        case alone(Int)
    }

    private struct Flight {
        let id: Int
        var waiters: [Int: Resolver<Output>] = [:]
        var nextWaiter = 0
        /// Set once the read has started.
        var read: Response<Output>?
        /// A caller was answered early: the read goes on whoever cancels.
        var keepsGoing = false
    }

    private struct State {
        var flights: [FlightKey: Flight] = [:]
        var counter = 0
    }

    private let state = LockedBox(State())

    /// The answer of the read `key` asks for: the one under way, joined, or one `start` starts now (a read of its
    /// own for a nil key).
    func read(_ key: ReadKey?, _ start: @escaping @Sendable () -> Response<Output>) -> (Response<Output>, Ticket) {
        let (answer, resolver) = Response<Output>.makePending()
        let (ticket, starts) = state.withLock { state -> (Ticket, Bool) in
            state.counter += 1
            let flightKey = key.map(FlightKey.shared) ?? .alone(state.counter)
            var starts = false
            if state.flights[flightKey] == nil {
                state.flights[flightKey] = Flight(id: state.counter)
                starts = true
            }
            let waiter = state.flights[flightKey]!.nextWaiter
            state.flights[flightKey]!.nextWaiter += 1
            state.flights[flightKey]!.waiters[waiter] = resolver
            return (Ticket(key: flightKey, flight: state.flights[flightKey]!.id, waiter: waiter), starts)
        }
        resolver.onCancel { [self] in leave(ticket) }
        if starts { begin(ticket, start()) }
        return (answer, ticket)
    }

    /// Answers `ticket`'s caller with `output` if it is still waiting; the read goes on.
    func answerEarly(_ ticket: Ticket, with output: Output) {
        let resolver = state.withLock { state -> Resolver<Output>? in
            guard state.flights[ticket.key]?.id == ticket.flight,
                let resolver = state.flights[ticket.key]!.waiters.removeValue(forKey: ticket.waiter)
            else { return nil }
            state.flights[ticket.key]!.keepsGoing = true
            return resolver
        }
        resolver?.succeed(output)
    }

    private func begin(_ ticket: Ticket, _ read: Response<Output>) {
        let abandoned = state.withLock { state -> Bool in
            guard state.flights[ticket.key]?.id == ticket.flight else { return true }
            state.flights[ticket.key]!.read = read
            return false
        }
        if abandoned { return read.cancel() }
        read.onResult(on: .immediate) { [self] outcome in finish(ticket, with: outcome) }
    }

    /// Hands the read's outcome to every caller still waiting on it.
    private func finish(_ ticket: Ticket, with outcome: Result<Output, any Error>) {
        let waiters = state.withLock { state -> [Resolver<Output>] in
            guard let flight = state.flights[ticket.key], flight.id == ticket.flight else { return [] }
            state.flights[ticket.key] = nil
            return flight.waiters.sorted { $0.key < $1.key }.map(\.value)
        }
        for waiter in waiters { waiter.resolve(outcome) }
    }

    /// A caller cancelled: the read is cancelled too if nobody waits for it any more and nobody was answered early.
    private func leave(_ ticket: Ticket) {
        let abandoned = state.withLock { state -> Response<Output>? in
            guard state.flights[ticket.key]?.id == ticket.flight else { return nil }
            state.flights[ticket.key]!.waiters[ticket.waiter] = nil
            let flight = state.flights[ticket.key]!
            guard flight.waiters.isEmpty, !flight.keepsGoing else { return nil }
            state.flights[ticket.key] = nil
            return flight.read
        }
        abandoned?.cancel()
    }
}
