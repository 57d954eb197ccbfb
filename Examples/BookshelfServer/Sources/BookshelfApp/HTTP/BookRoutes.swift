import Foundation
public import Hummingbird
import InteractorsData

/// The routes: `GET /books` (all of them, or a page: `?limit=N&after=ID`), `GET /books/{id}`, `PUT /books/{id}` (a
/// JSON book; create-only with `If-None-Match: *`), `DELETE /books/{id}`, and `GET /health`, over any
/// ``BookStore``.
///
/// `PUT` answers 200 with the stored book (400 when the body's id differs from the path's); with
/// `If-None-Match: *` it stores only if there is no book with that id, answering 201 when it created it and 412
/// when one is there (RFC 9110 §13.1.2: the condition is false when a current representation exists, and a
/// method other than GET or HEAD then answers 412), checked and written in one step. `DELETE` answers 204, or 404
/// when there was no such book, told by the delete itself. `GET /books` answers a JSON array: every book in the
/// order first stored, or with `limit` (0 to ``maximumPageSize``) the first `limit` books whose id is greater than
/// `after` in ascending id order (by the ids' UTF-8 bytes); the next page starts after the last id of this one,
/// and an empty page is the end. Failures answer as ``APIError`` says.
public enum BookRoutes {
    /// The largest `PUT` body read; a larger one is a 413.
    public static let maximumBodySize = 64 * 1024

    /// The largest page `GET /books?limit=` answers; a larger limit is a 400.
    public static let maximumPageSize = 1000

    /// A router with the routes over `store`, its failures as JSON, its requests counted in `stats`.
    public static func router(
        store: some BookStore,
        health: HealthService,
        stats: RequestStats,
        variant: String
    ) -> Router<BookshelfContext> {
        let router = Router(context: BookshelfContext.self)
        router.add(middleware: StatsMiddleware(stats: stats))
        router.add(middleware: JSONErrorMiddleware())

        router.get("books") { request, context in
            let parameters = request.uri.queryParameters
            guard let page = try pageQuery(limit: parameters["limit"], after: parameters["after"]) else {
                return try JSONBody.response(try await store.books(client: context.client))
            }
            return try JSONBody.response(try await store.books(page, client: context.client))
        }
        router.get("books/:id") { _, context in
            let id = try bookID(context)
            return try JSONBody.response(try await store.book(id, client: context.client))
        }
        router.put("books/:id") { request, context in
            let id = try bookID(context)
            let body = try await request.body.collect(upTo: maximumBodySize)
            let book = try JSONBody.decode(Book.self, from: body)
            guard book.id == id else {
                throw APIError(
                    .badRequest,
                    code: "idMismatch",
                    message: "the body's id '\(book.id)' differs from the path's '\(id)'"
                )
            }
            let createOnly = isCreateOnly(request.headers)
            let stored = try await store.put(book, ifAbsent: createOnly, client: context.client)
            // Only a create-only put knows it created the book (RFC 9110 §9.3.4: 201); an upsert may have
            // replaced one.
            return try JSONBody.response(stored, status: createOnly ? .created : .ok)
        }
        router.delete("books/:id") { _, context in
            let id = try bookID(context)
            try await store.delete(id, client: context.client)
            return Response(status: .noContent)
        }
        router.get("health") { _, _ in
            let (status, uptime) = health.current
            let report = HealthReport(status: status.rawValue, variant: variant, uptimeSeconds: uptime)
            return try JSONBody.response(report, status: status == .serving ? .ok : .serviceUnavailable)
        }
        return router
    }

    /// The decoded `{id}` of the path, or a 400.
    private static func bookID(_ context: BookshelfContext) throws -> String {
        guard let segment = context.parameters[Substring("id")] else {
            throw APIError(.badRequest, code: "invalidQuery", message: "the path names no book id")
        }
        return try BookID.decode(segment)
    }

    /// Whether a PUT's `If-None-Match` is `*`: store only if absent. A list of entity tags matches no book (the
    /// server gives books no entity tag), so its condition is true and the PUT stores as without it (RFC 9110
    /// §13.1.2).
    private static func isCreateOnly(_ headers: HTTPFields) -> Bool {
        headers[values: .ifNoneMatch].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" }
        }
    }

    /// The page `?limit=N&after=ID` asks for (the query's values, percent-decoded); nil without `limit` (every
    /// book). A 400 for a limit that is not a whole number from 0 to ``maximumPageSize``, an `after` longer than an
    /// id can be, or an `after` alone.
    static func pageQuery(limit limitText: Substring?, after: Substring?) throws(APIError) -> PageQuery<String>? {
        let after = after.map(String.init)
        guard let limitText else {
            guard after == nil else {
                throw APIError(.badRequest, code: "invalidQuery", message: "after needs a limit: ?limit=N&after=ID")
            }
            return nil
        }
        guard let limit = Int(limitText), (0...maximumPageSize).contains(limit) else {
            throw APIError(
                .badRequest,
                code: "invalidQuery",
                message: "limit is a whole number from 0 to \(maximumPageSize), not '\(limitText.prefix(32))'"
            )
        }
        if let after, after.utf8.count > BookID.maximumLength {
            throw APIError(
                .badRequest,
                code: "invalidQuery",
                message: "after is longer than an id can be (\(BookID.maximumLength) bytes)"
            )
        }
        return PageQuery(limit: limit, after: after)
    }

    struct HealthReport: Codable {
        var status: String
        var variant: String
        var uptimeSeconds: Int
    }
}
