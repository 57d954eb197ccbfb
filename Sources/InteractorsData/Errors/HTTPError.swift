public import Foundation

/// A server's answer with a status outside 200...299: status, headers and body.
///
/// ```swift
/// catch let error as HTTPError where error.status == 409 { showConflict(error.bodyText) }
/// catch let error as HTTPError where error.status == 429 { retry(after: error.headers["retry-after"]) }
/// ```
///
/// Its ``description`` stays short: the status, then at most the first 1,024 bytes of the body and the body's
/// size when it is longer; the whole body stays in ``body``.
public struct HTTPError: Error, CustomStringConvertible {
    /// The HTTP status code.
    public let status: Int

    /// The body of the answer, as received.
    public let body: Data

    /// The answer's header fields, looked up without regard to case.
    public let headers: HTTPHeaders

    /// Makes an error for an answer with `status`, `body` and `headers`.
    public init(status: Int, body: Data = Data(), headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The body as UTF-8 text (invalid bytes replaced), for messages and logs.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `HTTPError(<status>): <body text>`, the body cut after 1,024 bytes.
    public var description: String { "HTTPError(\(status)): \(BodyExcerpt(body))" }
}
