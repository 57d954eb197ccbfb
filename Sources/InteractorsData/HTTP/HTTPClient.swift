public import Foundation
public import Interactors

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends ``Endpoint``s to one server and answers with their decoded outputs: the provider that speaks to the
/// outside world.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Accept-Language": "en"])
/// let note = try await client.send(.get("notes/n1", as: Note.self)).value
/// ```
///
/// - A status outside 200...299 fails the response with ``HTTPError``: status, headers, body, and the request the
///   server answered. A 401 with a challenge (`WWW-Authenticate: Basic realm="…"`) is such an answer, on
///   every platform: it is not sent again with a credential of the system's.
/// - A body the endpoint cannot decode (an empty one included) fails it with ``DataError/Code/mappingFailed``,
///   quoting the start of the body.
/// - Transport failures come through as they are (a `URLError`: no connection, a timeout).
/// - **Every call ends by its timeout**: when the endpoint's ``Endpoint/timeout`` (else the session's
///   `timeoutIntervalForRequest`) passes with nothing sent or received, the send fails with
///   `URLError(.timedOut)` and its task is cancelled, whatever the session does: a watchdog of the library's own,
///   on its timer thread.
/// - Answers settle, and are decoded, on the library's own threads (`ix.http.decode`, shared by every client),
///   never on the session's delegate queue, nor on Dispatch's global pool: a stage after a call (a `map`, a
///   `flatMap`, an interceptor's step) may wait for another call of the same client, and a slow decode never
///   delays other requests' answers.
/// - Redirects are followed by the client itself (``Redirects-swift.struct``), as RFC 9110 §15.4 says: 307 and
///   308 resend the same method, body and headers; 301 and 302 turn a POST into a GET without a body, and 303
///   every method but GET and HEAD; every other method is resent as it was. A hop to another origin (scheme, host
///   name or port) carries none of the app's own headers but those it lists, the session's
///   `httpAdditionalHeaders` included, and never `Authorization`, `Proxy-Authorization` or `Cookie`. After 10
///   redirects the response fails with `URLError(.httpTooManyRedirects)`, naming the last URL.
/// - ``HTTPInterceptor``s adapt every send and may send a failed one again (a token refresh), at most
///   `maxRetries` times per call; ``TokenRefreshInterceptor`` is the one most apps need.
/// - An ``HTTPRetryPolicy`` given to ``send(_:retry:)`` sends the request again after the failures it names,
///   waiting as it says (and as the server's `Retry-After` says); a POST or a PATCH only when it never left, or,
///   when it carries an `Idempotency-Key` (`idempotencyKeys: true`), after a transport failure.
/// - Cancelling the response cancels the URL task, or the pending interceptor step or wait, and sends nothing
///   more; ``cancelAll()`` does so for every call in flight. A ``RESTDataSource``'s `PUT` or `DELETE` is the
///   exception once handed to the session: the call then answers what the server did, and cancelling it is
///   ignored (see `Resolver.commitToOutcome()`).
///
/// Safe to use from any thread or queue.
public final class HTTPClient: Sendable {
    /// The most redirects one send follows.
    static let redirectLimit = 10

    /// The URL every endpoint's path is appended to.
    public let baseURL: URL
    /// Headers sent with every request; an endpoint's own header of the same name, whatever its case, wins.
    public let headers: [String: String]
    /// The interceptors every request goes through, in order.
    public let interceptors: [any HTTPInterceptor]
    /// What the client does with redirects.
    public let redirects: Redirects
    /// How many times at most a call sends its request again because an interceptor's `retry` said so.
    public let maxRetries: Int
    /// Whether every POST and PATCH carries an `Idempotency-Key`, one per call (see
    /// ``init(baseURL:session:headers:interceptors:redirects:maxRetries:idempotencyKeys:)``).
    public let idempotencyKeys: Bool

    let session: URLSession
    /// The delegate of the client's own session; nil for a session passed in.
    let events: SessionEvents?
    /// The session's `timeoutIntervalForRequest`, read once.
    let sessionTimeout: TimeInterval
    /// The session's `httpAdditionalHeaders`, which the client puts on each request itself.
    let sessionHeaders: [String: String]
    private let ownsSession: Bool
    private let inFlight = CallsInFlight()

    /// A client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: What endpoint paths are appended to.
    ///   - session: The session to send with; `nil` for one of the client's own: ephemeral, with no URL cache.
    ///     (With a URL cache, FoundationNetworking on Linux can crash when tasks are cancelled at a high rate.)
    ///     The client follows redirects itself, whatever the session's delegate would do. The session's
    ///     `httpAdditionalHeaders` go on each request as the client's own `headers` do (under them), so that a
    ///     redirect to another origin leaves them behind: the client then sends on a session of its own, made
    ///     from a copy of the configuration without them, with the same delegate and delegate queue. A passed
    ///     session's tasks report through completion handlers: the answer of a 401 with a challenge then
    ///     arrives without its body on Linux.
    ///   - headers: Headers sent with every request.
    ///   - interceptors: What adapts every request and decides whether a failed one is sent again, in order.
    ///   - redirects: Whether redirects are followed, and which of the app's headers follow one to another
    ///     origin.
    ///   - maxRetries: How many times at most one call is sent again because an interceptor's `retry` answered
    ///     `true` (a negative number counts as 0): a call sends at most `1 + maxRetries` times, then fails with
    ///     the last send's error, asking no interceptor. Each send of an ``HTTPRetryPolicy`` has its own count.
    ///   - idempotencyKeys: When `true`, every POST and PATCH carries an `Idempotency-Key` header
    ///     (draft-ietf-httpapi-idempotency-key-header) with a new random value per call, the same on every send
    ///     of that call (an ``HTTPRetryPolicy``'s, an interceptor's, a resend below the library), so that a
    ///     server can tell a repeat from a new request; an ``HTTPRetryPolicy`` may then send them again after a
    ///     transport failure. A key the request already carries, from the endpoint's headers or an interceptor's
    ///     `adapt` on the first send, is kept, and reused on every send of that call.
    public init(
        baseURL: URL,
        session: URLSession? = nil,
        headers: [String: String] = [:],
        interceptors: [any HTTPInterceptor] = [],
        redirects: Redirects = .follow,
        maxRetries: Int = 3,
        idempotencyKeys: Bool = false
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.interceptors = interceptors
        self.redirects = redirects
        self.maxRetries = max(0, maxRetries)
        self.idempotencyKeys = idempotencyKeys
        guard let session else {
            let events = SessionEvents()
            self.session = Self.makeSession(delegate: events)
            self.events = events
            self.sessionTimeout = self.session.configuration.timeoutIntervalForRequest
            self.sessionHeaders = [:]
            self.ownsSession = true
            return
        }
        let configuration = session.configuration
        self.events = nil
        self.sessionTimeout = configuration.timeoutIntervalForRequest
        let additional = configuration.httpAdditionalHeaders ?? [:]
        guard !additional.isEmpty else {
            self.session = session
            self.sessionHeaders = [:]
            self.ownsSession = false
            return
        }
        var moved: [String: String] = [:]
        for (name, value) in additional { moved["\(name)"] = "\(value)" }
        configuration.httpAdditionalHeaders = nil
        self.session = URLSession(
            configuration: configuration,
            delegate: session.delegate,
            delegateQueue: session.delegateQueue
        )
        self.sessionHeaders = moved
        self.ownsSession = true
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Sends `endpoint` now, and again as `retry` says, and returns its response at once.
    ///
    /// ```swift
    /// let notes = client.send(.get("notes", as: [Note].self), retry: HTTPRetryPolicy(times: 2, delay: .seconds(1)))
    /// ```
    ///
    /// An endpoint with a path segment that is empty, `"."` or `".."` fails with
    /// ``DataError/Code/invalidQuery``, and nothing is sent.
    public func send<Output>(_ endpoint: Endpoint<Output>, retry: HTTPRetryPolicy = .none) -> Response<Output> {
        if case .segments(let segments) = endpoint.pathForm,
            let unsafe = segments.first(where: URLEncoding.isUnsafeSegment)
        {
            return Response(
                error: DataError(
                    code: .invalidQuery,
                    message: "the path segment \"\(unsafe)\" of \(segments) would name another resource; "
                        + "nothing was sent"
                )
            )
        }
        let request = self.request(for: endpoint)
        let call = Call(
            key: endpoint.method.takesIdempotencyKey ? IdempotencyKey(generatesOne: idempotencyKeys) : nil,
            refreshes: HTTPCallScope.current?.refreshes ?? [],
            timeout: endpoint.timeout,
            commits: endpoint.commitsWhenSent
        )
        let response = retry.send(endpoint.method, carriesKey: { call.key?.keysSends ?? false }) { [self] in
            exchange(request, call, sends: 1).flatMap { data, response in
                Self.decoded(data, response, for: request, with: endpoint, in: call)
            }
        }
        return inFlight.track(response)
    }

    /// The request ``send(_:retry:)`` sends for `endpoint`, before the interceptors adapt it: the session's
    /// additional headers, under the client's, under the endpoint's. It does not check the path's segments;
    /// ``send(_:retry:)`` does.
    public func request<Output>(for endpoint: Endpoint<Output>) -> URLRequest {
        let encodedPath = URLEncoding.path(endpoint.pathForm)
        var request = URLRequest(
            url: URLEncoding.url(base: baseURL, encodedPath: encodedPath, query: endpoint.query) ?? baseURL
        )
        request.httpMethod = endpoint.method.rawValue
        for (name, value) in Self.merge(Self.merge(sessionHeaders, headers), endpoint.headers) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = endpoint.body
        if let timeout = endpoint.timeout {
            // FoundationNetworking keeps whole seconds only: round up, so a short timeout never becomes none.
            let components = timeout.components
            let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
            request.timeoutInterval = max(1, seconds.rounded(.up))
        }
        return request
    }

    /// Cancels every call of this client in flight, as if its caller had called `cancel()` on the response
    /// ``send(_:retry:)`` returned (Alamofire's `cancelAllRequests`): each fails with `CancellationError`, and
    /// nothing more is sent for it, whether it was waiting for its answer, a refresh, an interceptor or a retry's
    /// delay. Calls made after it returns are sent as usual.
    public func cancelAll() {
        inFlight.cancelAll()
    }

    // MARK: Helpers

    /// The client's headers with the endpoint's over them: a name matches whatever its case.
    static func merge(_ base: [String: String], _ own: [String: String]) -> [String: String] {
        var merged = base
        for (name, value) in own {
            let lowered = name.lowercased()
            for existing in merged.keys where existing.lowercased() == lowered { merged[existing] = nil }
            merged[name] = value
        }
        return merged
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    /// The client's own session: ephemeral, without a URL cache, delivering on a serial queue of its own.
    ///
    /// A session made without a delegate queue delivers its events on an `OperationQueue` that, in
    /// FoundationNetworking, runs on Dispatch's global pool: with the pool filled by the app's blocking work, an
    /// answer the server sent in a millisecond waited 14 s on a 2-core machine. A serial queue is served even then
    /// (Dispatch starts threads for serial queues as they need them), and it only records events: the answer
    /// settles on ``decoders``.
    private static func makeSession(delegate: SessionEvents) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: DeliveryQueue())
    }
}

/// An operation queue that runs its operations, one at a time, on a serial queue it keeps alive: FoundationNetworking
/// holds `underlyingQueue` unowned, and the session holds its delegate queue as long as it may deliver.
private final class DeliveryQueue: OperationQueue, @unchecked Sendable {
    private let serial = DispatchQueue(label: "ix.http.delivery")

    override init() {
        super.init()
        name = "ix.http.delivery"
        maxConcurrentOperationCount = 1
        underlyingQueue = serial
    }
}

extension HTTPHeaders {
    /// The header fields of `response`.
    init(_ response: HTTPURLResponse) {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            fields["\(name)"] = "\(value)"
        }
        self.init(fields)
    }
}
