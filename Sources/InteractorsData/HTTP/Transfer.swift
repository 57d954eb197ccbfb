import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One send of one request on a URL session, from `resume()` to the answer: the bytes received so far, a turned
/// down authentication challenge, and the watchdog that ends it when nothing arrives for its timeout.
///
/// - **Where the answer settles**: never on the session's delegate queue, where the events arrive. The response
///   settles in a job on ``HTTPClient/decoders``, so the stages after it (the client's own, the interceptors',
///   the app's) run there: a stage may wait for another answer of the same session, which the delegate queue must
///   be free to deliver.
/// - **A challenge is an answer**: a 401 with `WWW-Authenticate` (Basic, Digest...) is turned down and
///   settles as the answer it is, headers from `challenge.failureResponse`. On Linux, FoundationNetworking would
///   otherwise never end the task (`.performDefaultHandling` hangs; `.useCredential` with no credential crashes),
///   and it asks only once the body has arrived, so the body is the server's; a task with a completion handler
///   (a session passed in) hears no body, and the answer's body is then empty.
/// - **A watchdog of its own**: when `timeout` passes with no byte sent or received, the response fails with
///   `URLError(.timedOut)` and the task is cancelled, whether or not the session ever calls back.
final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: what changes is in `state`, under its lock; the rest is set once, in `init`.

    private struct State {
        var task: URLSessionTask?
        var data = Data()
        /// The answer of an authentication challenge the transfer turned down.
        var challenged: HTTPURLResponse?
        /// When a byte last went or came, as the delegate heard it.
        var lastActivity = ContinuousClock.now
        /// The task's byte counts at the watchdog's last look, for sessions that report bytes only there.
        var bytesSeen: Int64 = 0
        /// Settling it stops the watchdog's wait under way.
        var watch: Resolver<Void>?
        var isFinished = false
    }

    private let resolver: Resolver<(Data, HTTPURLResponse)>
    private let request: URLRequest
    private let timeout: Duration?
    private let refusesRedirects: Bool
    private let scope: HTTPCallScope
    private let state = LockedBox(State())

    private init(
        resolver: Resolver<(Data, HTTPURLResponse)>,
        request: URLRequest,
        timeout: Duration?,
        refusesRedirects: Bool,
        scope: HTTPCallScope
    ) {
        self.resolver = resolver
        self.request = request
        self.timeout = timeout
        self.refusesRedirects = refusesRedirects
        self.scope = scope
    }

    /// Starts `request` on `session` and returns its response at once: the body and the HTTP response, whatever
    /// the status. `events` is the session's delegate when it is the client's own session; otherwise the task
    /// gets a completion handler and the transfer as its own delegate. With no `timeout`, no watchdog. Cancelling
    /// the response cancels the task, but for one `committing`: a request that changes the server (a data
    /// source's write) commits its response to its outcome as it is handed to the session
    /// (`Resolver.commitToOutcome()`), so cancelling it later is ignored and it answers what the server did.
    static func start(
        _ request: URLRequest,
        on session: URLSession,
        events: SessionEvents?,
        timeout: Duration?,
        refusingRedirects: Bool,
        scope: HTTPCallScope,
        committing: Bool = false
    ) -> Response<(Data, HTTPURLResponse)> {
        let (response, resolver) = Response<(Data, HTTPURLResponse)>.makePending()
        // Cancelled before it was handed over: nothing is sent.
        if committing, !resolver.commitToOutcome() { return response }
        let transfer = Transfer(
            resolver: resolver,
            request: request,
            timeout: timeout,
            refusesRedirects: refusingRedirects,
            scope: scope
        )
        let task: URLSessionDataTask
        if let events {
            task = session.dataTask(with: request)
            events.register(transfer, for: task)
        } else {
            task = session.dataTask(with: request) { data, response, error in
                transfer.complete(data: data, response: response, error: error)
            }
            task.delegate = transfer
        }
        transfer.state.withLock { $0.task = task }
        resolver.onCancel { [weak transfer] in transfer?.cancelTask() }
        if let timeout { transfer.watch(for: timeout) }
        task.resume()
        return response
    }

    private func cancelTask() {
        state.withLock { $0.task }?.cancel()
    }

    // MARK: Ending

    /// Settles the response with what the task ended with: an answer, a challenge turned down, or a failure.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        guard let (received, challenged, watch) = finish() else { return }
        watch?.succeed(())
        let body = data ?? received
        let outcome: Result<(Data, HTTPURLResponse), any Error>
        if error == nil, let response = response as? HTTPURLResponse {
            outcome = .success((body, response))
        } else if let challenged, error.map(HTTPClient.isCancellation) ?? true {
            outcome = .success((body, challenged))  // the challenge turned down ended the task
        } else {
            outcome = .failure(error ?? URLError(.badServerResponse))
        }
        settle(outcome)
    }

    /// Marks the transfer finished; what it received, the challenge it turned down and the watchdog's wait, or
    /// nil if it had finished already.
    private func finish() -> (Data, HTTPURLResponse?, Resolver<Void>?)? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.watch = nil }
            return (state.data, state.challenged, state.watch)
        }
    }

    /// Settles the response on the client's threads, with the call's scope: off the delegate queue.
    private func settle(_ outcome: Result<(Data, HTTPURLResponse), any Error>) {
        HTTPClient.decoders.submit { [resolver, scope] in
            HTTPCallScope.with(scope) { _ = resolver.resolve(outcome) }
        }
    }

    // MARK: The watchdog

    /// Waits `wait` on the library's timer thread, then looks, on ``HTTPClient/decoders``, whether the transfer has
    /// been idle for `timeout`: the timer thread hands the look to that queue itself, so it needs no other thread
    /// of the library's (the delivery threads, which the app's stages after a `delay` may hold).
    private func watch(for wait: Duration) {
        let (idle, watch) = Response<Void>.makePending()
        let armed = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            state.watch = watch
            return true
        }
        guard armed else { return }
        idle.timeout(after: wait).onFailure(on: DecodersQueue.shared) { [weak self] error in
            guard error as? ResponseError == .timedOut else { return }  // the transfer finished first
            self?.watchdogWoke()
        }
    }

    private func watchdogWoke() {
        let task = state.withLock { $0.task }
        let bytes = (task?.countOfBytesReceived ?? 0) + (task?.countOfBytesSent ?? 0)
        let now = ContinuousClock.now
        let idleFor = state.withLock { state -> Duration? in
            guard !state.isFinished else { return nil }
            if bytes != state.bytesSeen {
                state.bytesSeen = bytes
                state.lastActivity = now
            }
            return state.lastActivity.duration(to: now)
        }
        guard let idleFor, let timeout else { return }
        guard idleFor >= timeout else { return watch(for: timeout - idleFor) }
        guard finish() != nil else { return }
        task?.cancel()
        settle(.failure(timedOut(after: idleFor, timeout: timeout)))
    }

    /// The watchdog's timeout for `request`: `explicit` if given, else the request's own if it set one, else the
    /// session's `timeoutIntervalForRequest`, as FoundationNetworking chooses; nil (no watchdog) when that is not
    /// positive.
    static func timeout(_ explicit: Duration?, for request: URLRequest, sessionTimeout: TimeInterval) -> Duration? {
        if let explicit { return explicit }
        let seconds = request.timeoutInterval != defaultRequestTimeout ? request.timeoutInterval : sessionTimeout
        return seconds > 0 ? .seconds(seconds) : nil
    }

    /// The timeout of a request that did not set one.
    private static let defaultRequestTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    private func timedOut(after idleFor: Duration, timeout: Duration) -> URLError {
        let what = "\(request.httpMethod ?? "GET") " + (request.url.map { "\(RedactedURL($0))" } ?? "")
        return URLError(
            .timedOut,
            userInfo: [
                NSURLErrorFailingURLErrorKey: request.url as Any,
                NSLocalizedDescriptionKey:
                    "nothing came or went for \(Self.seconds(idleFor)) while sending \(what), more than its timeout "
                    + "(\(Self.seconds(timeout))): the request was cancelled",
            ]
        )
    }

    /// `duration` in seconds, to a tenth: `"1.5 s"`.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = (HTTPRetryPolicy.seconds(duration) * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) s"
    }

    private func touched() {
        let now = ContinuousClock.now
        state.withLock { $0.lastActivity = now }
    }

    // MARK: The task's events

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        touched()
        // The client follows redirects itself: the redirect is the answer.
        if refusesRedirects { return completionHandler(nil) }
        #if !canImport(FoundationNetworking)
        // Apple's sessions give a task delegate this event instead of the session's own: pass it on.
        if let delegate = sessionDelegate(of: session),
            delegate.urlSession?(
                session,
                task: task,
                willPerformHTTPRedirection: response,
                newRequest: request,
                completionHandler: completionHandler
            ) != nil
        {
            return
        }
        #endif
        completionHandler(request)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let answer = challenge.failureResponse as? HTTPURLResponse, answer.statusCode == 401,
            !challenge.protectionSpace.isProxy()
        else {
            // Not a server's 401 (a proxy's, a server's certificate, a client certificate): as the session's own
            // delegate decides (certificate pinning lives there), else the system.
            #if !canImport(FoundationNetworking)
            if let delegate = sessionDelegate(of: session),
                delegate.urlSession?(session, task: task, didReceive: challenge, completionHandler: completionHandler)
                    != nil
            {
                return
            }
            #endif
            return completionHandler(.performDefaultHandling, nil)
        }
        state.withLock {
            $0.challenged = answer
            $0.lastActivity = .now
        }
        #if canImport(FoundationNetworking)
        // The body has arrived by now; cancelling ends the task, which `.performDefaultHandling` never does.
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Turned down without a credential, the load goes on and the answer arrives with its body.
        completionHandler(.rejectProtectionSpace, nil)
        #endif
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        touched()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = ContinuousClock.now
        state.withLock {
            $0.data.append(data)
            $0.lastActivity = now
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        touched()
    }

    #if !canImport(FoundationNetworking)
    /// The delegate of a session passed in, which Apple's sessions no longer ask about what a task delegate
    /// implements; nil for the client's own session, whose delegate hands events to the transfer.
    private func sessionDelegate(of session: URLSession) -> (any URLSessionTaskDelegate)? {
        guard let delegate = session.delegate as? any URLSessionTaskDelegate, !(delegate is SessionEvents) else {
            return nil
        }
        return delegate
    }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        complete(data: nil, response: task.response, error: error)
    }
}

/// ``HTTPClient/decoders`` as a callback queue, for the watchdog's looks.
private final class DecodersQueue: CallbackQueue {
    static let shared = DecodersQueue()

    func schedule(_ job: @escaping @Sendable () -> Void) {
        HTTPClient.decoders.submit(job)
    }
}
