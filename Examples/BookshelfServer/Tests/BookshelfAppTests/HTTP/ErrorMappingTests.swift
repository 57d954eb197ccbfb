import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Hummingbird
import Interactors
import InteractorsData
import Testing

/// The routes answer every failure with the status a REST client expects and a JSON error body, on a real server.
@Suite struct ErrorMappingTests {
    static let cases: [(code: DataError.Code, status: Int)] = [
        (.notFound, 404), (.conflict, 412), (.invalidQuery, 400), (.storageFailed, 503), (.corruptStore, 503),
        (.mappingFailed, 500), (.queryNotSupported, 500),
    ]

    @Test(arguments: cases)
    func aDataErrorAnswersEveryRouteWithItsStatusAndAJSONBody(code: DataError.Code, status: Int) async throws {
        let store = FailingStore(error: DataError(code: code, message: "what the store said"))
        let server = try await TestServer.start(router: router(store))
        let book = #"{"id":"b1","title":"T","author":"A"}"#
        for (method, path, body) in [
            ("GET", "/books/b1", nil), ("GET", "/books", nil), ("GET", "/books?limit=10&after=a", nil),
            ("PUT", "/books/b1", book), ("DELETE", "/books/b1", nil),
        ] {
            let answer = try await server.request(method, path, body: body)
            #expect(answer.status == status, "\(method) \(path)")
            #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true, "\(method) \(path)")
            let error = errorBody(answer)
            #expect(error?.code == "\(code)", "\(method) \(path): \(answer.bodyText)")
            #expect(error?.message == "what the store said", "\(method) \(path)")
        }
        try await server.stop()
    }

    @Test func aBodyThatDoesNotDecodeIsA400AndTheStoreIsNotAsked() async throws {
        let store = FailingStore(error: DataError(code: .storageFailed, message: "the store was asked"))
        let server = try await TestServer.start(router: router(store))
        for body in ["not json", #"{"id":"b1"}"#, #"{"id":1,"title":"T","author":"A"}"#, ""] {
            let answer = try await server.request("PUT", "/books/b1", body: body)
            #expect(answer.status == 400, "\(body)")
            #expect(errorBody(answer)?.code == "bodyNotDecodable", "\(body): \(answer.bodyText)")
        }
        try await server.stop()
    }

    @Test(arguments: [
        "limit=-1", "limit=x", "limit=1001", "limit=", "limit=%2B%2B", "after=b1",
        "limit=5&after=" + String(repeating: "x", count: 257),
    ])
    func aPageQueryThatIsNotOneIsA400AndTheStoreIsNotAsked(query: String) async throws {
        let store = FailingStore(error: DataError(code: .storageFailed, message: "the store was asked"))
        let server = try await TestServer.start(router: router(store))
        let answer = try await server.request("GET", "/books?" + query)
        #expect(answer.status == 400)
        #expect(errorBody(answer)?.code == "invalidQuery", "\(answer.bodyText)")
        try await server.stop()
    }

    @Test func aBodyWhoseIdDiffersFromThePathsIsA400() async throws {
        let server = try await TestServer.start(router: router(FailingStore(error: CancellationError())))
        let answer = try await server.request("PUT", "/books/b2", body: #"{"id":"b1","title":"T","author":"A"}"#)
        #expect(answer.status == 400)
        #expect(errorBody(answer)?.code == "idMismatch")
        try await server.stop()
    }

    @Test(arguments: ["a%2Fb", "%2E%2E", "%2E", "a%00b", "a%0Ab", "%zz", String(repeating: "x", count: 300)])
    func anIdThatNamesNoSingleBookIsA400(id: String) async throws {
        let server = try await TestServer.start(router: router(FailingStore(error: CancellationError())))
        let answer = try await server.request("GET", "/books/\(id)")
        #expect(answer.status == 400)
        #expect(errorBody(answer)?.code == "invalidQuery", "\(answer.bodyText)")
        try await server.stop()
    }

    @Test func anUnknownRouteATooLargeBodyAndAnUnreadableRequestGetJSONErrorsToo() async throws {
        let server = try await TestServer.start(router: router(FailingStore(error: CancellationError())))
        let unknown = try await server.request("GET", "/shelves")
        #expect(unknown.status == 404)
        #expect(errorBody(unknown)?.code == "routeNotFound")
        let large = try await server.request("PUT", "/books/b1", body: String(repeating: "x", count: 1 << 20))
        #expect(large.status == 413)
        #expect(errorBody(large)?.code == "bodyTooLarge")
        let unreadable = try await server.request("GET", "/books/" + String(repeating: "y", count: 100 * 1024))
        #expect(unreadable.status == 400)
        #expect(errorBody(unreadable)?.code == "malformedRequest")
        // The server still serves.
        let health = try await server.request("GET", "/health")
        #expect(health.status == 503, "no services launched, so not serving: \(health.bodyText)")
        try await server.stop()
    }

    @Test func failuresOutsideTheDataLayerMapToo() {
        let unregistered = InteractorExecutor().execute(GetRequest<Book>(IdQuery("b1"))).error
        #expect(APIError(unregistered!).status == .serviceUnavailable)
        #expect(APIError(CancellationError()).status == .serviceUnavailable)
        let error = NSError(domain: "elsewhere", code: 1)
        #expect(APIError(error).status == .internalServerError)
        #expect(APIError(error).message == DataError.describe(error))
    }

    private func router(_ store: some BookStore) -> Router<BookshelfContext> {
        BookRoutes.router(
            store: store,
            health: HealthService(logger: quietLogger),
            stats: RequestStats(),
            variant: "test"
        )
    }
}
