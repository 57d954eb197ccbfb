public import Interactors

#if canImport(FoundationNetworking)
public import FoundationNetworking
#else
public import Foundation
#endif

/// Adds a credential (a token) to every request and refreshes it when it has expired or the server refused it:
/// once, however many requests fail at once.
///
/// ```swift
/// let auth = TokenRefreshInterceptor(
///     credential: session.token,
///     apply: { token, request in request.setValue("Bearer \(token.access)", forHTTPHeaderField: "Authorization") },
///     needsRefresh: { token in token.expires < .now },
///     refresh: { token in authClient.send(try! .post("token", body: ["refresh": token.refresh], as: Token.self)) }
/// )
/// let client = HTTPClient(baseURL: api, interceptors: [auth])
/// ```
///
/// - Every request gets the current credential through `apply`, called once per send. One whose credential
///   `needsRefresh` first waits for a refresh.
/// - A request that fails as `refreshesAfter` says (by default, a 401) from the client's own origin (see
///   ``HTTPClient/Redirects-swift.struct``) is sent again with a new credential. The interceptor knows which
///   credential each send carried, since it put it there: one that carried an older credential than the current
///   one is sent again with the current one, without a refresh, whatever else `apply` puts on a request (a nonce,
///   a timestamp). (Asked directly, outside an ``HTTPClient``'s send, about a request it did not adapt there, it
///   tells by applying the current credential to a copy and comparing URL and header fields.)
/// - **Single flight.** While a refresh is under way, every request that needs the credential waits for it and
///   every refused request joins it: twenty requests refused at once cause one refresh, then each is sent once
///   more with the new credential.
/// - A refresh that fails fails every request waiting on it with the refresh's error, and is not tried again by
///   the interceptor; the credential stays as it was, and the next request that needs a new one starts another
///   refresh. A server that refuses every credential costs at most ``HTTPClient/maxRetries`` refreshes per call.
/// - Cancelling one call does not cancel the refresh others wait on; when every call waiting on it is cancelled,
///   the refresh's response is cancelled.
/// - **A refresh never waits for itself.** Send the refresh through a client without this interceptor
///   (`authClient` above). A request sent through a client that uses it from inside the refresh's own work (from
///   `refresh` itself, or from a stage that runs as the refresh's own responses settle, however many `flatMap`s
///   deep, as in `authClient.send(token).flatMap { _ in client.send(me) }`) would wait for the refresh under way,
///   its own: it fails at once with ``DataError/Code-swift.struct/invalidQuery``, saying so, the refresh ends
///   with that failure for every request waiting on it, and the next request that needs a new credential starts
///   another. The library follows the refresh's work through the responses of ``HTTPClient``s (and of
///   `URLSession.response(for:)`); work that waits elsewhere first (a `delay`, a queue of the app's) is out of its
///   sight.
///
/// The credential is read and replaced under a lock: safe from any thread.
public final class TokenRefreshInterceptor<Credential: Sendable>: HTTPInterceptor {
    private let apply: @Sendable (Credential, inout URLRequest) -> Void
    private let needsRefresh: @Sendable (Credential) -> Bool
    private let refresh: @Sendable (Credential) -> Response<Credential>
    private let refreshesAfter: @Sendable (any Error) -> Bool
    private let state: LockedBox<State>

    /// An interceptor that starts with `credential`.
    ///
    /// - Parameters:
    ///   - credential: The credential to send until it is refreshed.
    ///   - apply: Puts a credential on a request, e.g. as `Authorization: Bearer …`.
    ///   - needsRefresh: Whether a credential must be refreshed before it is sent, e.g. because it has expired.
    ///   - refresh: Asks for a new credential, given the current one; its failure fails the requests waiting.
    ///   - refreshesAfter: Which failures mean the server refused the credential; by default, a 401.
    public init(
        credential: Credential,
        apply: @escaping @Sendable (Credential, inout URLRequest) -> Void,
        needsRefresh: @escaping @Sendable (Credential) -> Bool = { _ in false },
        refresh: @escaping @Sendable (Credential) -> Response<Credential>,
        refreshesAfter: @escaping @Sendable (any Error) -> Bool = { ($0 as? HTTPError)?.status == 401 }
    ) {
        self.apply = apply
        self.needsRefresh = needsRefresh
        self.refresh = refresh
        self.refreshesAfter = refreshesAfter
        self.state = LockedBox(State(credential: credential))
    }

    /// The credential requests are sent with now.
    public var credential: Credential {
        state.withLock { $0.credential }
    }

    /// `request` with the current credential, after a refresh if one is under way or the credential needs one.
    public func adapt(_ request: URLRequest) -> Response<URLRequest> {
        let scope = HTTPCallScope.current
        let (credential, generation, refreshing) = state.withLock { ($0.credential, $0.generation, $0.flight != nil) }
        let expired = !refreshing && needsRefresh(credential)
        guard refreshing || expired else {
            scope?.send?.note(generation, by: self)
            return Response(value: applied(credential, to: request))
        }
        let refreshes = scope?.refreshes ?? []
        return credentialAfterRefresh(since: generation, startingOne: expired, within: refreshes).map { [self] in
            scope?.send?.note($0.generation, by: self)
            return applied($0.credential, to: request)
        }
    }

    /// `true` once a new credential is there, for a request refused as `refreshesAfter` says: at once if the
    /// request carried an older credential than the current one, otherwise after the refresh under way or one
    /// started now.
    public func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
        guard refreshesAfter(error) else { return Response(value: false) }
        let scope = HTTPCallScope.current
        let carried: Int
        if let noted = scope?.send?.generation(notedBy: self) {
            carried = noted
        } else {
            // Not a send this interceptor adapted in a client: tell by what the current credential would look like.
            let (credential, generation) = state.withLock { ($0.credential, $0.generation) }
            let current = applied(credential, to: request)
            guard current.url == request.url, current.allHTTPHeaderFields ?? [:] == request.allHTTPHeaderFields ?? [:]
            else { return Response(value: true) }
            carried = generation
        }
        return credentialAfterRefresh(since: carried, startingOne: true, within: scope?.refreshes ?? []).map { _ in
            true
        }
    }

    private func applied(_ credential: Credential, to request: URLRequest) -> URLRequest {
        var request = request
        apply(credential, &request)
        return request
    }

    /// Why a request sent from inside the refresh's own work fails.
    private static var refreshThroughItself: String {
        "TokenRefreshInterceptor: a request was sent through a client that uses this interceptor from inside its "
            + "refresh (from `refresh`, or from a stage that runs as the refresh's responses settle); it would wait "
            + "for the refresh under way, its own, and never be sent, so the refresh fails with it. Send the "
            + "refresh's requests through a client without this interceptor."
    }

    // MARK: One refresh at a time

    /// What the lock guards.
    private struct State {
        var credential: Credential
        /// Counts the refreshes that succeeded: which credential a send carried.
        var generation = 0
        /// The refresh under way, if any.
        var flight: Flight?
    }

    /// A credential and its number.
    private typealias Numbered = (credential: Credential, generation: Int)

    /// What a request does for a credential: take the current one, wait on a refresh (and start it), or fail,
    /// being part of the refresh's own work.
    private enum Next {
        case current(Numbered)
        case wait(flight: UInt64, waiter: Int, startFrom: Credential?)
        case insideItsOwnRefresh(flight: UInt64)
    }

    /// A refresh under way and the requests waiting on it.
    private struct Flight {
        /// The process-wide token of this refresh (see ``HTTPCallScope``).
        let id: UInt64
        var waiters: [Int: Resolver<Numbered>] = [:]
        var nextWaiter = 0
        /// Set as soon as `refresh` has answered.
        var refresh: Response<Credential>?
    }

    /// The credential after a refresh: the one under way, or, if none is and `startingOne` says so, one started
    /// now. If a refresh has succeeded since `generation`, or none is needed, the current credential. A request
    /// that is part of the refresh under way's own work (`refreshes`) fails instead, and so does that refresh.
    private func credentialAfterRefresh(
        since generation: Int,
        startingOne: Bool,
        within refreshes: [UInt64]
    ) -> Response<Numbered> {
        let (response, resolver) = Response<Numbered>.makePending()
        let next = state.withLock { state -> Next in
            if let flight = state.flight, refreshes.contains(flight.id) {
                return .insideItsOwnRefresh(flight: flight.id)
            }
            var starts = false
            if state.flight == nil {
                guard state.generation == generation, startingOne else {
                    return .current((state.credential, state.generation))
                }
                state.flight = Flight(id: HTTPCallScope.newRefreshToken())
                starts = true
            }
            let waiter = state.flight!.nextWaiter
            state.flight!.nextWaiter += 1
            state.flight!.waiters[waiter] = resolver
            return .wait(flight: state.flight!.id, waiter: waiter, startFrom: starts ? state.credential : nil)
        }
        switch next {
        case .current(let numbered):
            resolver.succeed(numbered)
        case .wait(let flight, let waiter, let startFrom):
            resolver.onCancel { [self] in leave(flight, waiter: waiter) }
            if let startFrom { start(flight, from: startFrom, within: refreshes) }
        case .insideItsOwnRefresh(let flight):
            let error = DataError(code: .invalidQuery, message: Self.refreshThroughItself)
            finish(flight, with: .failure(error))
            resolver.fail(error)
        }
        return response
    }

    /// Asks for a new credential for `flight`, its work marked as the flight's (and as the work of `refreshes`,
    /// the refreshes the request that started it was part of); cancels the request at once if every waiter has
    /// left already.
    private func start(_ flight: UInt64, from credential: Credential, within refreshes: [UInt64]) {
        let refreshing = HTTPCallScope.with(HTTPCallScope(refreshes: refreshes + [flight])) { refresh(credential) }
        let abandoned = state.withLock { state -> Bool in
            guard state.flight?.id == flight else { return true }
            state.flight!.refresh = refreshing
            return false
        }
        if abandoned { return refreshing.cancel() }
        refreshing.onResult(on: .immediate) { [self] outcome in finish(flight, with: outcome) }
    }

    /// Takes `outcome` as the credential if it succeeded, and hands it to every request waiting on `flight`.
    private func finish(_ flight: UInt64, with outcome: Result<Credential, any Error>) {
        let (waiters, numbered) = state.withLock { state -> ([Resolver<Numbered>], Result<Numbered, any Error>) in
            guard let current = state.flight, current.id == flight else { return ([], outcome.map { ($0, 0) }) }
            state.flight = nil
            if case .success(let credential) = outcome {
                state.credential = credential
                state.generation += 1
            }
            let generation = state.generation
            return (Array(current.waiters.values), outcome.map { ($0, generation) })
        }
        for waiter in waiters { waiter.resolve(numbered) }
    }

    /// A waiter of `flight` was cancelled: the refresh is cancelled too if no other waits on it.
    private func leave(_ flight: UInt64, waiter: Int) {
        let abandoned = state.withLock { state -> Response<Credential>? in
            guard state.flight?.id == flight else { return nil }
            state.flight!.waiters[waiter] = nil
            guard state.flight!.waiters.isEmpty else { return nil }
            defer { state.flight = nil }
            return state.flight!.refresh
        }
        abandoned?.cancel()
    }
}
