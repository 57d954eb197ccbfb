public import Foundation

/// A server's answer with a status outside 200...299: status, headers and body, and the request it answered.
///
/// ```swift
/// catch let error as HTTPError where error.status == 409 { showConflict(error.bodyText) }
/// catch let error as HTTPError where error.status == 429 { retry(after: error.headers["retry-after"]) }
/// ```
///
/// Its ``description`` stays short and safe to log: the status, the method and URL of the request the server
/// answered (query values replaced by `…`, since they may hold secrets), then at most the first 1,024 bytes of the
/// body and the body's size when it is longer, then, for a status that has one, what to do; the whole body stays
/// in ``body``: `HTTPError(503) GET http://127.0.0.1:8080/status/503?token=…: server says 503 (the server could
/// not answer it now: send it again later, as an HTTPRetryPolicy does)`.
public struct HTTPError: Error, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int

    /// The body of the answer, as received.
    public let body: Data

    /// The answer's header fields, looked up without regard to case.
    public let headers: HTTPHeaders

    /// The method of the request the server answered (after a redirect, the last one's); nil for an error made
    /// with ``init(status:body:headers:)``.
    public let method: String?

    /// The URL of the request the server answered (after a redirect, the last one's); nil for an error made with
    /// ``init(status:body:headers:)``.
    public let url: URL?

    /// Makes an error for an answer with `status`, `body` and `headers`, without its request.
    public init(status: Int, body: Data = Data(), headers: HTTPHeaders = HTTPHeaders()) {
        self.init(status: status, body: body, headers: headers, method: nil, url: nil)
    }

    /// Makes an error for an answer with `status`, `body` and `headers` to the request `method` `url`.
    public init(status: Int, body: Data = Data(), headers: HTTPHeaders = HTTPHeaders(), method: String?, url: URL?) {
        self.status = status
        self.body = body
        self.headers = headers
        self.method = method
        self.url = url
    }

    /// The body as UTF-8 text (invalid bytes replaced), for messages and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `HTTPError(<status>) <method> <URL>: <body text> (<what to do>)`, query values replaced by `…` and the body
    /// cut after 1,024 bytes; `HTTPError(<status>): <body text> (<what to do>)` for an error made without its
    /// request. What to do is said for 401, 403, 407, 408, 429 and the 5xx a retry may mend (500, 502, 503,
    /// 504).
    public var description: String {
        var request = [method, url.map { "\(RedactedURL($0))" }].compactMap { $0 }.joined(separator: " ")
        if !request.isEmpty { request = " " + request }
        let advice = Self.advice(for: status).map { " (\($0))" } ?? ""
        return "HTTPError(\(status))\(request): \(BodyExcerpt(body))\(advice)"
    }

    /// What to do about an answer with `status`, where something can be done.
    static func advice(for status: Int) -> String? {
        switch status {
        case 401:
            "the server refused the request's credentials: send valid ones (a TokenRefreshInterceptor refreshes a "
                + "token and sends the request again)"
        case 403: "the credentials sent do not allow this request: it needs other ones, or other rights"
        case 407: "the proxy refused the credentials: give the session the proxy's"
        case 408, 429, 500, 502, 503, 504:
            "the server could not answer it now: send it again later, as an HTTPRetryPolicy does"
        default: nil
        }
    }
}

extension HTTPError: LocalizedError {
    /// The ``description``, so `localizedDescription` reads as it does.
    public var errorDescription: String? { description }
}
