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
/// - Every request gets the current credential through `apply`. One whose credential `needsRefresh` first waits
///   for a refresh.
/// - A request that fails as `refreshesAfter` says (by default, a 401) from the client's own origin (see
///   ``HTTPClient/Redirects-swift.struct``) is sent again with a new credential. The interceptor tells which
///   credential it carried by applying the current one to a copy and comparing URL and header fields: one that
///   carried an older credential is sent again with the current one, without a refresh.
/// - **Single flight.** While a refresh is under way, every request that needs the credential waits for it and
///   every refused request joins it: twenty requests refused at once cause one refresh, then each is sent once
///   more with the new credential.
/// - A refresh that fails fails every request waiting on it with the refresh's error, and is not tried again by
///   the interceptor; the credential stays as it was, and the next request that needs a new one starts another
///   refresh. A server that refuses every credential costs at most ``HTTPClient/maxRetries`` refreshes per call.
/// - Cancelling one call does not cancel the refresh others wait on; when every call waiting on it is cancelled,
///   the refresh's response is cancelled.
/// - Send the refresh through a client without this interceptor (`authClient` above): a refresh request that went
///   through it would wait for the refresh under way, its own, and never be sent. One sent through it from
///   `refresh` itself fails at once with ``DataError/Code-swift.struct/invalidQuery``, saying so, instead of
///   hanging.
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
        let (credential, generation, refreshing, startingOn) = state.withLock {
            ($0.credential, $0.generation, $0.flight != nil, $0.refreshStartingOnThread)
        }
        if startingOn == currentThreadID() {
            return Response(error: DataError(code: .invalidQuery, message: Self.refreshThroughItself))
        }
        let expired = !refreshing && needsRefresh(credential)
        guard refreshing || expired else { return Response(value: applied(credential, to: request)) }
        return credentialAfterRefresh(since: generation, startingOne: expired).map { [self] credential in
            applied(credential, to: request)
        }
    }

    /// `true` once a new credential is there, for a request refused as `refreshesAfter` says: at once if the
    /// request carried an older credential than the current one, otherwise after the refresh under way or one
    /// started now.
    public func retry(_ request: URLRequest, after error: any Error, attempt: Int) -> Response<Bool> {
        guard refreshesAfter(error) else { return Response(value: false) }
        let (credential, generation) = state.withLock { ($0.credential, $0.generation) }
        let current = applied(credential, to: request)
        guard current.url == request.url, current.allHTTPHeaderFields ?? [:] == request.allHTTPHeaderFields ?? [:]
        else { return Response(value: true) }
        return credentialAfterRefresh(since: generation, startingOne: true).map { _ in true }
    }

    private func applied(_ credential: Credential, to request: URLRequest) -> URLRequest {
        var request = request
        apply(credential, &request)
        return request
    }

    /// Why a request sent from `refresh` through a client that uses this interceptor fails.
    private static var refreshThroughItself: String {
        "TokenRefreshInterceptor: `refresh` sent a request through a client that uses this interceptor; it would "
            + "wait for the refresh under way, its own, and never be sent. Send the refresh through a client "
            + "without this interceptor."
    }

    // MARK: One refresh at a time

    /// What the lock guards.
    private struct State {
        var credential: Credential
        /// Counts the refreshes that succeeded: a request read it with the credential it carried.
        var generation = 0
        /// The refresh under way, if any.
        var flight: Flight?
        /// The thread calling `refresh` now, if any: a request adapted on it comes from the refresh itself.
        var refreshStartingOnThread: UInt?
        var flights = 0
    }

    /// What a request does for a credential: take the current one, or wait on a refresh (and start it).
    private enum Next {
        case current(Credential)
        case wait(flight: Int, waiter: Int, startFrom: Credential?)
    }

    /// A refresh under way and the requests waiting on it.
    private struct Flight {
        let id: Int
        var waiters: [Int: Resolver<Credential>] = [:]
        var nextWaiter = 0
        /// Set as soon as `refresh` has answered.
        var refresh: Response<Credential>?
    }

    /// The credential after a refresh: the one under way, or, if none is and `startingOne` says so, one started
    /// now. If a refresh has succeeded since `generation` was read, or none is needed, the current credential.
    private func credentialAfterRefresh(since generation: Int, startingOne: Bool) -> Response<Credential> {
        let (response, resolver) = Response<Credential>.makePending()
        let next = state.withLock { state -> Next in
            var starts = false
            if state.flight == nil {
                guard state.generation == generation, startingOne else { return .current(state.credential) }
                state.flights += 1
                state.flight = Flight(id: state.flights)
                starts = true
            }
            let waiter = state.flight!.nextWaiter
            state.flight!.nextWaiter += 1
            state.flight!.waiters[waiter] = resolver
            return .wait(flight: state.flight!.id, waiter: waiter, startFrom: starts ? state.credential : nil)
        }
        switch next {
        case .current(let credential):
            resolver.succeed(credential)
        case .wait(let flight, let waiter, let startFrom):
            resolver.onCancel { [self] in leave(flight, waiter: waiter) }
            if let startFrom { start(flight, from: startFrom) }
        }
        return response
    }

    /// Asks for a new credential for `flight`; cancels the request at once if every waiter has left already.
    private func start(_ flight: Int, from credential: Credential) {
        state.withLock { $0.refreshStartingOnThread = currentThreadID() }
        let refreshing = refresh(credential)
        let abandoned = state.withLock { state -> Bool in
            state.refreshStartingOnThread = nil
            guard state.flight?.id == flight else { return true }
            state.flight!.refresh = refreshing
            return false
        }
        if abandoned { return refreshing.cancel() }
        refreshing.onResult(on: .immediate) { [self] outcome in finish(flight, with: outcome) }
    }

    /// Takes `outcome` as the credential if it succeeded, and hands it to every request waiting on `flight`.
    private func finish(_ flight: Int, with outcome: Result<Credential, any Error>) {
        let waiters = state.withLock { state -> [Resolver<Credential>] in
            guard let current = state.flight, current.id == flight else { return [] }
            state.flight = nil
            if case .success(let credential) = outcome {
                state.credential = credential
                state.generation += 1
            }
            return Array(current.waiters.values)
        }
        for waiter in waiters { waiter.resolve(outcome) }
    }

    /// A waiter of `flight` was cancelled: the refresh is cancelled too if no other waits on it.
    private func leave(_ flight: Int, waiter: Int) {
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
