public import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When an ``HTTPClient`` sends a request again after it failed, and how long it waits first: given to a
/// ``RESTDataSource`` or to ``HTTPClient/send(_:retry:)``.
///
/// ```swift
/// let retry = HTTPRetryPolicy(times: 3, delay: .milliseconds(200), backoff: 2, maxDelay: .seconds(5), jitter: 0.2)
/// let notes = RESTDataSource<Note>(client: client, path: "notes", retry: retry, timeout: .seconds(10))
/// ```
///
/// - **What is retried**: the failures `while:` accepts, by default those a moment may mend: the transport
///   failures of ``retryableURLErrorCodes`` (no connection, a timeout, a lost connection; not a bad URL, an
///   untrusted certificate nor a cancellation), a 5xx, 408 or 429, and a `timeout(after:)` that fired
///   (`ResponseError.timedOut`); never a cancellation.
/// - **Never a creation twice**: GET, HEAD, PUT, DELETE, OPTIONS and TRACE are idempotent and are retried so. A
///   POST or a PATCH (or another method) is sent again only when it never reached the server: after
///   `URLError.cannotConnectToHost`, `.cannotFindHost`, `.dnsLookupFailed` or `.notConnectedToInternet`; never
///   after a timeout or a lost connection (the server may have acted on it) nor after any status, 429 and 503
///   included. One exception: a call whose sends carry an `Idempotency-Key` (``HTTPClient``'s `idempotencyKeys:
///   true`, or a key of the endpoint's or an interceptor's) is sent again after any failure of
///   ``retryableURLErrorCodes``, since the server can tell the repeat; still never after a status.
/// - **How long it waits**: before retry *n*, `delay × backoff^(n−1)`, capped at `maxDelay`, then multiplied by
///   a random factor in `1 − jitter ... 1 + jitter`, as `Response.retry` does. On a 429 or a 503 whose
///   `Retry-After` says how long (seconds, or an HTTP date: the time until it, zero if past), that wait replaces
///   the computed one, without jitter; one longer than `maxDelay` fails the call at once with that
///   ``HTTPError``, and without a `maxDelay` it is always waited. Other statuses' `Retry-After` is ignored.
/// - **Where it waits**: on `clock` when one is given (a test passes the test kit's `TestClock`), otherwise where
///   `Response.delay(by:)` without a clock waits.
///
/// The policy lives inside the source it is given to, so a ``CacheRepository`` over that source sees only the
/// last failure: the cache stands in once the retries are spent, not after the first one. Each send has its
/// own ``HTTPClient/maxRetries`` for the interceptors' retries. Cancelling the call cancels the send or the wait
/// under way, and nothing more is sent.
public struct HTTPRetryPolicy: Sendable {
    /// Sends once, retrying nothing.
    public static let none = HTTPRetryPolicy(times: 0)

    /// How many times at most a request is sent again: `times: 2` sends at most three times.
    public let times: Int
    /// The wait before the first retry.
    public let delay: Duration
    /// What each wait is multiplied by for the next: 1 waits `delay` every time, 2 doubles it.
    public let backoff: Double
    /// The longest wait, the computed ones' cap; a server's `Retry-After` asking for longer fails the call.
    public let maxDelay: Duration?
    /// How far each computed wait is spread at random: 0.2 waits between 80% and 120% of it.
    public let jitter: Double
    /// The clock the waits sleep on; `nil` to wait as `Response.delay(by:)` does without one.
    public let clock: (any Clock<Duration>)?
    /// Which failures are retried (a POST's or a PATCH's only among those that never reached the server, or, with
    /// an `Idempotency-Key`, among ``retryableURLErrorCodes``).
    public let shouldRetry: @Sendable (any Error) -> Bool

    /// A policy that sends a request up to `times` more times while it fails as `while:` accepts.
    ///
    /// - Precondition: `backoff` ≥ 1 and `jitter` in `0...1`.
    public init(
        times: Int,
        delay: Duration = .zero,
        backoff: Double = 1,
        maxDelay: Duration? = nil,
        jitter: Double = 0,
        clock: (any Clock<Duration>)? = nil,
        while shouldRetry: @escaping @Sendable (any Error) -> Bool = HTTPRetryPolicy.recoverable
    ) {
        precondition(
            backoff >= 1,
            "HTTPRetryPolicy: backoff is \(backoff); it must be 1 or more (1 waits `delay` every time, 2 doubles it)"
        )
        precondition(
            (0...1).contains(jitter),
            "HTTPRetryPolicy: jitter is \(jitter); it must be in 0...1 (0.2 waits between 80% and 120% of the wait)"
        )
        self.times = max(0, times)
        self.delay = max(.zero, delay)
        self.backoff = backoff
        self.maxDelay = maxDelay.map { max(.zero, $0) }
        self.jitter = jitter
        self.clock = clock
        self.shouldRetry = shouldRetry
    }

    /// The transport failures the default rule retries: those a moment may mend (a connection that could not be
    /// made or was lost, a timeout, a host not found, a network not there yet, a certificate not valid yet or
    /// any more), as Alamofire's `RetryPolicy.defaultRetryableURLErrorCodes` lists them. Not retried: a bad or
    /// unsupported URL, an untrusted certificate, a required authentication, too many redirects, a cancellation
    /// and `unknown`, which a retry would meet again.
    public static let retryableURLErrorCodes: Set<URLError.Code> = [
        .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected, .badServerResponse,
        .callIsActive, .cannotConnectToHost, .cannotFindHost, .cannotLoadFromNetwork, .dataNotAllowed,
        .dnsLookupFailed, .downloadDecodingFailedMidStream, .downloadDecodingFailedToComplete,
        .internationalRoamingOff, .networkConnectionLost, .notConnectedToInternet, .secureConnectionFailed,
        .serverCertificateHasBadDate, .serverCertificateNotYetValid, .timedOut,
    ]

    /// The default rule: a `URLError` of ``retryableURLErrorCodes``, a 5xx, 408 or 429, a `timeout(after:)` that
    /// fired.
    @usableFromInline static let recoverable: @Sendable (any Error) -> Bool = { error in
        if let error = error as? URLError { return retryableURLErrorCodes.contains(error.code) }
        if let error = error as? ResponseError { return error.code == .timedOut }
        if let error = error as? HTTPError {
            return (500...599).contains(error.status) || error.status == 408 || error.status == 429
        }
        return false
    }
}

// MARK: Sending, and sending again

extension HTTPRetryPolicy {
    /// The transport failures that say a request never reached the server: a POST or a PATCH may be sent again.
    static let neverSentCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
    ]

    /// The longest wait: beyond it, `Duration`'s arithmetic could overflow. About 35,000 years.
    static let longestWait = Duration.seconds(Int64(1) << 40)

    /// The response of `attempt`, made again as the policy says while it fails, for a request sent with `method`;
    /// `carriesKey` says, once a send failed, whether the sends carry an `Idempotency-Key`.
    func send<Value: Sendable>(
        _ method: HTTPMethod,
        carriesKey: @escaping @Sendable () -> Bool = { false },
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        send(method, carriesKey, retry: 1, attempt)
    }

    /// Makes the attempt before retry number `retry` (1: the first attempt).
    private func send<Value: Sendable>(
        _ method: HTTPMethod,
        _ carriesKey: @escaping @Sendable () -> Bool,
        retry: Int,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        let response = attempt()
        guard retry <= times else { return response }
        return response.flatRecover { error in
            guard let wait = wait(beforeRetry: retry, after: error, of: method, keyed: carriesKey()) else {
                throw error
            }
            guard wait > .zero else { return send(method, carriesKey, retry: retry + 1, attempt) }
            return Response(value: ()).delay(by: wait, clock: clock).flatMap {
                send(method, carriesKey, retry: retry + 1, attempt)
            }
        }
    }

    /// The wait before retry number `retry` after `error` of a request sent with `method`, with an
    /// `Idempotency-Key` if `keyed`; nil if it is not retried.
    func wait(beforeRetry retry: Int, after error: any Error, of method: HTTPMethod, keyed: Bool = false) -> Duration? {
        guard !HTTPClient.isCancellation(error), Self.mayResend(method, after: error, keyed: keyed), shouldRetry(error)
        else { return nil }
        if let asked = Self.retryAfter(error) {
            if let maxDelay, asked > maxDelay { return nil }
            return asked
        }
        return computedWait(beforeRetry: retry)
    }

    /// Whether a request sent with `method` may be sent again after `error`: an idempotent one, one that never
    /// reached the server, and one the server can tell a repeat of (`keyed`) after a transport failure.
    static func mayResend(_ method: HTTPMethod, after error: any Error, keyed: Bool) -> Bool {
        if method.isIdempotent || neverReachedTheServer(error) { return true }
        guard keyed, let error = error as? URLError else { return false }
        return retryableURLErrorCodes.contains(error.code)
    }

    /// Whether `error` says the request never reached the server.
    static func neverReachedTheServer(_ error: any Error) -> Bool {
        (error as? URLError).map { neverSentCodes.contains($0.code) } ?? false
    }

    /// `delay × backoff^(retry−1)`, capped at `maxDelay`, times a random factor in `1 − jitter ... 1 + jitter`.
    func computedWait(beforeRetry retry: Int) -> Duration {
        var wait = delay
        if backoff != 1, wait > .zero {
            let seconds = Self.seconds(delay) * pow(backoff, Double(retry - 1))
            wait = seconds < Self.seconds(Self.longestWait) ? .seconds(seconds) : Self.longestWait
        }
        if let maxDelay, wait > maxDelay { wait = maxDelay }
        if jitter > 0, wait > .zero { wait = .seconds(Self.seconds(wait) * .random(in: (1 - jitter)...(1 + jitter))) }
        return wait
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
