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
///   server answered.
/// - A body the endpoint cannot decode (an empty one included) fails it with ``DataError/Code/mappingFailed``,
///   quoting the start of the body. Decoding runs on the library's own threads (`ix.http.decode`, at most
///   four, shared by every client), off the session's delegate queue and off Dispatch's global pool, so a slow
///   decode never delays other requests' answers, and an app whose blocking work fills the pool still gets its
///   answers decoded.
/// - Transport failures come through as they are (a `URLError`: no connection, a timeout).
/// - Redirects are followed by the client itself (``Redirects-swift.struct``), as RFC 9110 §15.4 says: 307 and
///   308 resend the same method, body and headers; 301 and 302 turn a POST into a GET without a body, and 303
///   every method but GET and HEAD; every other method is resent as it was. A hop to another origin (scheme, host
///   name or port) carries none of the app's own headers but those it lists, and never `Authorization`,
///   `Proxy-Authorization` or `Cookie`. After 10 redirects the response fails with
///   `URLError(.httpTooManyRedirects)`, naming the last URL.
/// - ``HTTPInterceptor``s adapt every send and may send a failed one again (a token refresh), at most
///   `maxRetries` times per call; ``TokenRefreshInterceptor`` is the one most apps need.
/// - An ``HTTPRetryPolicy`` given to ``send(_:retry:)`` sends the request again after the failures it names,
///   waiting as it says (and as the server's `Retry-After` says); a POST or a PATCH only when it never left.
/// - Cancelling the response cancels the URL task, or the pending interceptor step or wait, and sends nothing
///   more. A ``RESTDataSource``'s `PUT` or `DELETE` is the exception once handed to the session: the call then
///   answers what the server did, and cancelling it is ignored (see `Resolver.commitToOutcome()`).
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
    private let session: URLSession
    private let ownsSession: Bool

    /// A client for the server at `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: What endpoint paths are appended to.
    ///   - session: The session to send with; `nil` for one of the client's own: ephemeral, with no URL cache.
    ///     (With a URL cache, FoundationNetworking on Linux can crash when tasks are cancelled at a high rate.)
    ///     The client follows redirects itself, whatever the session's delegate would do.
    ///   - headers: Headers sent with every request.
    ///   - interceptors: What adapts every request and decides whether a failed one is sent again, in order.
    ///   - redirects: Whether redirects are followed, and which of the app's headers follow one to another
    ///     origin.
    ///   - maxRetries: How many times at most one call is sent again because an interceptor's `retry` answered
    ///     `true` (a negative number counts as 0): a call sends at most `1 + maxRetries` times, then fails with
    ///     the last send's error, asking no interceptor. Each send of an ``HTTPRetryPolicy`` has its own count.
    public init(
        baseURL: URL,
        session: URLSession? = nil,
        headers: [String: String] = [:],
        interceptors: [any HTTPInterceptor] = [],
        redirects: Redirects = .follow,
        maxRetries: Int = 3
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.interceptors = interceptors
        self.redirects = redirects
        self.maxRetries = max(0, maxRetries)
        self.session = session ?? Self.makeSession()
        self.ownsSession = session == nil
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
        return retry.send(endpoint.method) { [self] in
            exchange(request, sends: 1, commits: endpoint.commitsWhenSent).flatMap { data, response in
                Self.decoded(data, response, for: request, with: endpoint)
            }
        }
    }

    /// The request ``send(_:retry:)`` sends for `endpoint`, before the interceptors adapt it. It does not check
    /// the path's segments; ``send(_:retry:)`` does.
    public func request<Output>(for endpoint: Endpoint<Output>) -> URLRequest {
        let encodedPath = URLEncoding.path(endpoint.pathForm)
        var request = URLRequest(
            url: URLEncoding.url(base: baseURL, encodedPath: encodedPath, query: endpoint.query) ?? baseURL
        )
        request.httpMethod = endpoint.method.rawValue
        for (name, value) in Self.merge(headers, endpoint.headers) {
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

    // MARK: Sending, through the interceptors

    /// Adapts `request`, sends it, and asks the interceptors whether to send it again if it failed at its own
    /// origin; `sends` counts this send.
    private func exchange(
        _ request: URLRequest,
        sends: Int,
        commits: Bool = false
    ) -> Response<(Data, HTTPURLResponse)> {
        adapt(request, from: 0).flatMap { [self] adapted in
            transfer(adapted, original: adapted, redirectsFollowed: 0, commits: commits).flatRecover { [self] failure in
                // Another origin answered: it never saw what the interceptors added, so they have nothing to fix.
                if let elsewhere = failure as? AnsweredElsewhere { throw elsewhere.error }
                guard !interceptors.isEmpty, sends <= maxRetries, !Self.isCancellation(failure) else { throw failure }
                return shouldRetry(adapted, after: failure, attempt: sends, from: 0).flatMap { [self] again in
                    guard again else { throw failure }
                    return exchange(request, sends: sends + 1, commits: commits)
                }
            }
        }
    }

    private func adapt(_ request: URLRequest, from index: Int) -> Response<URLRequest> {
        guard index < interceptors.count else { return Response(value: request) }
        return interceptors[index].adapt(request).flatMap { [self] in adapt($0, from: index + 1) }
    }

    /// The first `true` wins; a failed `retry` fails the call with its error.
    private func shouldRetry(
        _ request: URLRequest,
        after error: any Error,
        attempt: Int,
        from index: Int
    ) -> Response<Bool> {
        guard index < interceptors.count else { return Response(value: false) }
        return interceptors[index].retry(request, after: error, attempt: attempt).flatMap { [self] again in
            again ? Response(value: true) : shouldRetry(request, after: error, attempt: attempt, from: index + 1)
        }
    }

    // MARK: One send, its redirects followed

    /// A failure another origin than the original request's answered (a redirect led there): the interceptors
    /// are not asked about it.
    private struct AnsweredElsewhere: Error {
        let error: any Error
    }

    /// Sends `request` and follows its redirects; a final status outside 2xx fails with ``HTTPError``, wrapped in
    /// ``AnsweredElsewhere`` when a hop to another origin than `original`'s failed.
    private func transfer(
        _ request: URLRequest,
        original: URLRequest,
        redirectsFollowed: Int,
        commits: Bool
    ) -> Response<(Data, HTTPURLResponse)> {
        let elsewhere = original.url.flatMap { first in request.url.map { !Self.isSameOrigin(first, $0) } } ?? false
        // A data source's write commits its call to the server's answer once handed to the session: a caller who
        // cancels then still learns what it did.
        var answer = session.responseRefusingRedirects(for: request, committing: commits)
        if elsewhere {
            answer = answer.mapError { Self.isCancellation($0) ? $0 : AnsweredElsewhere(error: $0) }
        }
        return answer.flatMap { [self] data, response in
            if (200...299).contains(response.statusCode) { return Response(value: (data, response)) }
            let error = HTTPError(
                status: response.statusCode,
                body: data,
                headers: HTTPHeaders(response),
                method: request.httpMethod ?? "GET",
                url: request.url
            )
            guard redirects.isFollowing, let next = redirection(of: request, original: original, by: response) else {
                throw elsewhere ? AnsweredElsewhere(error: error) : error
            }
            guard redirectsFollowed < Self.redirectLimit else {
                let tooMany = URLError(
                    .httpTooManyRedirects,
                    userInfo: [
                        NSURLErrorFailingURLErrorKey: request.url as Any,
                        NSLocalizedDescriptionKey:
                            "more than \(Self.redirectLimit) redirects; the last from "
                            + (request.url.map { "\(RedactedURL($0))" } ?? ""),
                    ]
                )
                throw elsewhere ? AnsweredElsewhere(error: tooMany) : tooMany
            }
            return transfer(next, original: original, redirectsFollowed: redirectsFollowed + 1, commits: commits)
        }
    }

    // MARK: Decoding

    /// The threads that decode answers: off the session's delegate queue, where the answer arrived, so other
    /// requests' answers go on arriving during a slow decode; and off Dispatch's global pool, which the app's own
    /// blocking work can fill. Started on demand, shared by every client, never one per request.
    static let decoders = WorkerPool(name: "ix.http.decode", threads: 4)

    /// A response that decodes `data` on one of the ``decoders`` threads; one cancelled before then never decodes.
    private static func decoded<Output>(
        _ data: Data,
        _ response: HTTPURLResponse,
        for request: URLRequest,
        with endpoint: Endpoint<Output>
    ) -> Response<Output> {
        Response { resolver in
            decoders.submit {
                guard !resolver.isDone else { return }
                resolver.resolve(Result { try decode(data, response, for: request, with: endpoint) })
            }
        }
    }

    private static func decode<Output>(
        _ data: Data,
        _ response: HTTPURLResponse,
        for request: URLRequest,
        with endpoint: Endpoint<Output>
    ) throws -> Output {
        do {
            return try endpoint.decode(data, response)
        } catch let error as DataError {
            throw error
        } catch {
            let what = data.isEmpty ? "the body was empty" : "\(BodyExcerpt(data))"
            throw DataError(
                code: .mappingFailed,
                message: "cannot read the answer to \(request.httpMethod ?? "") "
                    + "\(request.url.map { "\(RedactedURL($0))" } ?? "") "
                    + "as \(Output.self): \(what)",
                underlying: error
            )
        }
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
    /// A session made without a delegate queue delivers its answers on an `OperationQueue` that, in
    /// FoundationNetworking, runs on Dispatch's global pool: with the pool filled by the app's blocking work, an
    /// answer the server sent in a millisecond waited 14 s on a 2-core machine. A serial queue is served even then
    /// (Dispatch starts threads for serial queues as they need them), and delivering only settles the response:
    /// decoding goes on to ``decoders``.
    private static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: nil, delegateQueue: DeliveryQueue())
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
