import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Hummingbird
import Interactors
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that goes away cancels its request's `Response`; one that stays gets its answer.
@Suite struct ClientDisconnectTests {
    @Test func aClientThatDisconnectsCancelsItsRequestsResponse() async throws {
        let store = PendingStore()
        let server = try await TestServer.start(router: router(store))
        let port = server.port
        let socket = try await onOwnThread {
            let socket = try RawHTTP.connect(port: port, timeout: 10)
            try RawHTTP.writeRequest(socket, method: "GET", path: "/books/b1")
            return socket
        }
        let resolver = try #require(await store.nextCall())
        close(socket)
        #expect(await cancelled(resolver), "the response of a request whose client left was not cancelled")
        try await server.stop()
    }

    @Test func aClientThatStaysGetsItsAnswer() async throws {
        let store = PendingStore()
        let server = try await TestServer.start(router: router(store))
        async let answer = server.request("GET", "/books/b1")
        let resolver = try #require(await store.nextCall())
        resolver.succeed(Book(id: "b1", title: "Dune", author: "Frank Herbert"))
        let answered = try await answer
        #expect(answered.status == 200)
        #expect(answered.bodyText.contains("Dune"))
        try await server.stop()
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
