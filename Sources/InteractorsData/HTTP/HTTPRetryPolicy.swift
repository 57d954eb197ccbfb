import Foundation
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
/// - **What is retried**: the failures `while:` accepts, by default those that say the server could not be
///   reached or could not answer (``CacheRepository/serverUnavailable(_:)``: a `URLError` but `cancelled` and
///   `httpTooManyRedirects`, 5xx, 408, 429), never a cancellation.
/// - **Never a creation twice**: GET, HEAD, PUT, DELETE and OPTIONS are idempotent and are retried so. A POST or
///   a PATCH is sent again only when it never reached the server: after `URLError.cannotConnectToHost`,
///   `.cannotFindHost`, `.dnsLookupFailed` or `.notConnectedToInternet`; never after a timeout or a lost
///   connection (the server may have acted on it) nor after any status, 429 and 503 included.
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
    /// Which failures are retried (a POST's or a PATCH's only among those that never reached the server).
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
        while shouldRetry: @escaping @Sendable (any Error) -> Bool = HTTPRetryPolicy.serverUnavailable
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

    /// The default rule: `CacheRepository.serverUnavailable(_:)`, whatever the repository's value.
    @usableFromInline static let serverUnavailable: @Sendable (any Error) -> Bool = { error in
        CacheRepository<AnyIdentified>.serverUnavailable(error)
    }

    /// A value type for naming the rule, which does not depend on it.
    @usableFromInline struct AnyIdentified: Identifiable, Sendable {
        @usableFromInline let id: Int
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

    /// The response of `attempt`, made again as the policy says while it fails, for a request sent with `method`.
    func send<Value: Sendable>(
        _ method: HTTPMethod,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        send(method, retry: 1, attempt)
    }

    /// Makes the attempt before retry number `retry` (1: the first attempt).
    private func send<Value: Sendable>(
        _ method: HTTPMethod,
        retry: Int,
        _ attempt: @escaping @Sendable () -> Response<Value>
    ) -> Response<Value> {
        let response = attempt()
        guard retry <= times else { return response }
        return response.flatRecover { error in
            guard let wait = wait(beforeRetry: retry, after: error, of: method) else { throw error }
            guard wait > .zero else { return send(method, retry: retry + 1, attempt) }
            return Response(value: ()).delay(by: wait, clock: clock).flatMap { send(method, retry: retry + 1, attempt) }
        }
    }

    /// The wait before retry number `retry` after `error` of a request sent with `method`; nil if it is not
    /// retried.
    func wait(beforeRetry retry: Int, after error: any Error, of method: HTTPMethod) -> Duration? {
        guard !HTTPClient.isCancellation(error), method.isIdempotent || Self.neverReachedTheServer(error),
            shouldRetry(error)
        else { return nil }
        if let asked = Self.retryAfter(error) {
            if let maxDelay, asked > maxDelay { return nil }
            return asked
        }
        return computedWait(beforeRetry: retry)
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
