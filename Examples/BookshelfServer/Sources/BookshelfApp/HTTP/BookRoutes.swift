public import Hummingbird

/// The routes: `GET /books`, `GET /books/{id}`, `PUT /books/{id}` (a JSON book), `DELETE /books/{id}`, and
/// `GET /health`, over any ``BookStore``.
///
/// `PUT` answers 200 with the stored book (400 when the body's id differs from the path's), `DELETE` 204 (also for
/// an id that does not exist), `GET /books` a JSON array. Failures answer as ``APIError`` says.
public enum BookRoutes {
    /// The largest `PUT` body read; a larger one is a 413.
    public static let maximumBodySize = 64 * 1024

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

        router.get("books") { _, context in
            try JSONBody.response(try await store.books(client: context.client))
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
            return try JSONBody.response(try await store.put(book, client: context.client))
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

    struct HealthReport: Codable {
        var status: String
        var variant: String
        var uptimeSeconds: Int
    }
}
