import Foundation
public import Hummingbird
import Interactors
import InteractorsData
import NIOCore

/// A failed request as the client sees it: a status and the JSON body `{"error": {"code": …, "message": …}}`.
///
/// ``init(_:)`` maps what the routes throw to the status a REST client expects: `DataError.notFound` 404,
/// `conflict` 412 (a create-only `PUT`'s book exists: only that `PUT` asks for it), `invalidQuery` 400,
/// `storageFailed` and `corruptStore` 503 (retry later), a body too large 413, an unknown route 404, a body that
/// does not decode 400 (thrown as an `APIError` by the route). A message is safe to return: a `DataError` names
/// a file by its name only, and any other error is worded by `DataError.describe(_:)`.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    /// The response's status.
    public var status: HTTPResponse.Status
    /// A short name a client can branch on: the `DataError` code, or one of the routes' own.
    public var code: String
    /// What went wrong, for a person.
    public var message: String

    /// An error with this status, code and message.
    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The client's view of `error`.
    public init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as DataError:
            self.init(Self.status(of: error.code), code: "\(error.code)", message: error.message)
        case is UnregisteredRequestError:
            self.init(.serviceUnavailable, code: "storageFailed", message: "the database is not open")
        case is NIOTooManyBytesError:
            self.init(
                .contentTooLarge,
                code: "bodyTooLarge",
                message: "the body is larger than \(BookRoutes.maximumBodySize) bytes"
            )
        case let error as Hummingbird.HTTPError:
            let code = error.status == .notFound ? "routeNotFound" : "http\(error.status.code)"
            self.init(error.status, code: code, message: error.body ?? error.status.reasonPhrase)
        case is CancellationError:
            self.init(.serviceUnavailable, code: "cancelled", message: "the request was cancelled")
        default:
            self.init(.internalServerError, code: "internal", message: DataError.describe(error))
        }
    }

    /// The status for a data-layer failure.
    static func status(of code: DataError.Code) -> HTTPResponse.Status {
        switch code {
        case .notFound: .notFound
        case .conflict: .preconditionFailed  // the one conditional route: a PUT with If-None-Match: *
        case .invalidQuery: .badRequest
        case .storageFailed, .corruptStore: .serviceUnavailable
        default: .internalServerError  // mappingFailed (a stored row no longer decodes), queryNotSupported: ours
        }
    }

    /// `APIError <status>: <code>: <message>`, for the log.
    public var description: String { "APIError \(status.code): \(code): \(message)" }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONBody.response(Envelope(error: .init(code: code, message: message)))
        response.status = status
        return response
    }

    /// The JSON body's shape.
    struct Envelope: Codable {
        struct Detail: Codable {
            var code: String
            var message: String
        }
        var error: Detail
    }
}

/// Turns every error a route or the router throws into an ``APIError``'s JSON response, so no failure leaves the
/// server with an empty body.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    public init() {}

    /// Answers with `next`'s response, or the JSON of what it threw.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try APIError(error).response(from: request, context: context)
        }
    }
}

/// Counts what the router accepts and answers in ``RequestStats``.
public struct StatsMiddleware<Context: RequestContext>: RouterMiddleware {
    let stats: RequestStats

    /// Counts into `stats`.
    public init(stats: RequestStats) {
        self.stats = stats
    }

    /// Counts the request, then its answer.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        stats.accept()
        do {
            let response = try await next(request, context)
            stats.answer(status: response.status.code)
            return response
        } catch {
            stats.answer(status: 500)
            throw error
        }
    }
}

/// JSON bodies in and out, with one encoder and decoder for the process.
enum JSONBody {
    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    /// `value` as a JSON response with `status`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try data(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = String(data.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `value` in JSON.
    static func data(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// `buffer` decoded as `T`; a 400 ``APIError`` saying why when it does not decode.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws(APIError) -> T {
        do {
            return try decoder.decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(
                .badRequest,
                code: "bodyNotDecodable",
                message: "the body is not a \(type) in JSON: \(error)"
            )
        }
    }
}
