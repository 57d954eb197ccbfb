import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: One call, its sends through the interceptors

extension HTTPClient {
    /// What every send of one call shares.
    struct Call: Sendable {
        /// The call's `Idempotency-Key`, for a POST or a PATCH.
        let key: IdempotencyKey?
        /// The refreshes whose work the call is part of (see ``HTTPCallScope``).
        let refreshes: [UInt64]
        /// The endpoint's timeout, exact (the request's is rounded up to whole seconds).
        let timeout: Duration?
        /// Whether each send commits to the server's answer once handed to the session (a ``RESTDataSource``'s
        /// `PUT` or `DELETE`): a caller who cancels then still learns what it did.
        var commits = false

        var scope: HTTPCallScope { HTTPCallScope(refreshes: refreshes) }

        /// What an interceptor answers about the send `record` notes, asked in the call's scope.
        func asking<Answer>(about record: SendRecord, _ question: () -> Response<Answer>) -> Response<Answer> {
            HTTPCallScope.with(HTTPCallScope(refreshes: refreshes, send: record), question)
        }
    }

    /// Adapts `request`, sends it, and asks the interceptors whether to send it again if it failed at its own
    /// origin; `sends` counts this send.
    func exchange(_ request: URLRequest, _ call: Call, sends: Int) -> Response<(Data, HTTPURLResponse)> {
        let record = SendRecord()
        return adapt(request, from: 0, call, record).flatMap { [self] adapted in
            let sent = call.key?.stamped(adapted) ?? adapted
            return transfer(sent, original: sent, call, redirectsFollowed: 0).flatRecover { [self] failure in
                // Another origin answered: it never saw what the interceptors added, so they have nothing to fix.
                if let elsewhere = failure as? AnsweredElsewhere { throw elsewhere.error }
                guard !interceptors.isEmpty, sends <= maxRetries, !Self.isCancellation(failure) else { throw failure }
                return shouldRetry(sent, after: failure, attempt: sends, from: 0, call, record).flatMap { [self] in
                    guard $0 else { throw failure }
                    return exchange(request, call, sends: sends + 1)
                }
            }
        }
    }

    /// Each interceptor's `adapt`, in order, told which send it adapts (``HTTPCallScope``).
    private func adapt(
        _ request: URLRequest,
        from index: Int,
        _ call: Call,
        _ record: SendRecord
    ) -> Response<URLRequest> {
        guard index < interceptors.count else { return Response(value: request) }
        let adapting = call.asking(about: record) { interceptors[index].adapt(request) }
        return adapting.flatMap { [self] in adapt($0, from: index + 1, call, record) }
    }

    /// The first `true` wins; a failed `retry` fails the call with its error.
    private func shouldRetry(
        _ request: URLRequest,
        after error: any Error,
        attempt: Int,
        from index: Int,
        _ call: Call,
        _ record: SendRecord
    ) -> Response<Bool> {
        guard index < interceptors.count else { return Response(value: false) }
        let asking = call.asking(about: record) { interceptors[index].retry(request, after: error, attempt: attempt) }
        return asking.flatMap { [self] again in
            again
                ? Response(value: true)
                : shouldRetry(request, after: error, attempt: attempt, from: index + 1, call, record)
        }
    }
}

// MARK: One send, its redirects followed

extension HTTPClient {
    /// A failure another origin than the original request's answered (a redirect led there): the interceptors
    /// are not asked about it.
    struct AnsweredElsewhere: Error {
        let error: any Error
    }

    /// Sends `request` and follows its redirects; a final status outside 2xx fails with ``HTTPError``, wrapped in
    /// ``AnsweredElsewhere`` when a hop to another origin than `original`'s failed.
    private func transfer(
        _ request: URLRequest,
        original: URLRequest,
        _ call: Call,
        redirectsFollowed: Int
    ) -> Response<(Data, HTTPURLResponse)> {
        let elsewhere = original.url.flatMap { first in request.url.map { !Self.isSameOrigin(first, $0) } } ?? false
        var answer = Transfer.start(
            request,
            on: session,
            events: events,
            timeout: Transfer.timeout(call.timeout, for: request, sessionTimeout: sessionTimeout),
            refusingRedirects: true,
            scope: call.scope,
            committing: call.commits
        )
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
            return transfer(next, original: original, call, redirectsFollowed: redirectsFollowed + 1)
        }
    }
}

// MARK: Decoding

extension HTTPClient {
    /// The threads that settle answers and decode them: off the session's delegate queue, where the answer
    /// arrived, so that a stage after a call may wait for another answer and other requests' answers go on
    /// arriving during a slow decode; and off Dispatch's global pool, which the app's own blocking work can fill.
    /// Started on demand, shared by every client, never one per request.
    static let decoders = WorkerPool(name: "ix.http.decode", threads: 4)

    /// A response that decodes `data` on one of the ``decoders`` threads; one cancelled before then never decodes.
    static func decoded<Output>(
        _ data: Data,
        _ response: HTTPURLResponse,
        for request: URLRequest,
        with endpoint: Endpoint<Output>,
        in call: Call
    ) -> Response<Output> {
        Response { resolver in
            decoders.submit {
                guard !resolver.isDone else { return }
                HTTPCallScope.with(call.scope) {
                    _ = resolver.resolve(Result { try decode(data, response, for: request, with: endpoint) })
                }
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
}
