// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing
import TestThreads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPMethod` is a struct: the seven usual methods as static members, any other token of RFC 9110 §9.1 by name.
@Suite(.onThreadsOfTheirOwn) struct HTTPMethodTests {
    typealias Echo = HTTPClientTests.Echo

    @Test func theStaticMembersAreTheUsualMethods() {
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]
        #expect(methods.map(\.rawValue) == ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        #expect(Set(methods).count == 7)
        #expect(HTTPMethod(rawValue: "GET") == .get)
        #expect(HTTPMethod(rawValue: "get") != .get)  // method names are case-sensitive
        #expect("\(HTTPMethod.patch)" == "PATCH")
        let sendable: any Sendable & Hashable = HTTPMethod.get
        _ = sendable
    }

    @Test func anyOtherTokenIsAMethodSentAsItIs() async throws {
        let server = try await RESTServer.start()
        let client = HTTPClient(baseURL: server.baseURL)
        let query = HTTPMethod(rawValue: "QUERY")
        let search = Endpoint<Echo>(
            method: query,
            path: "echo",
            body: Data("q=ada".utf8),
            decode: Endpoint<Echo>.jsonDecode
        )
        let echo = try await client.send(search).value
        #expect(echo.method == "QUERY" && echo.body == "q=ada")
        #expect(HTTPMethod(rawValue: "M-SEARCH").rawValue == "M-SEARCH")
    }

    @Test func aMethodOtherThanTheIdempotentOnesIsNotSentAgainAfterAStatus() async throws {
        let server = try await RESTServer.start()
        let client = HTTPClient(baseURL: server.baseURL)
        let flaky = Endpoint<Void>(method: HTTPMethod(rawValue: "QUERY"), path: "flaky/1/echo/query") { _, _ in }
        await #expect(throws: HTTPError.self) { try await client.send(flaky, retry: HTTPRetryPolicy(times: 2)).value }
        let get = Endpoint<Void>(method: .get, path: "flaky/1/echo/get") { _, _ in }
        try await client.send(get, retry: HTTPRetryPolicy(times: 2)).value
        let lines = try await onAThreadOfItsOwn { try server.requestLines() }
        #expect(lines == ["QUERY /flaky/1/echo/query", "GET /flaky/1/echo/get", "GET /flaky/1/echo/get"])
    }

    // Exit tests exist on macOS and Linux (not on iOS, tvOS, watchOS, visionOS).
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func aNameWithASpaceStopsWithAClearMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = HTTPMethod(rawValue: "GET /")
        }
        let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(message.contains("HTTPMethod: \"GET /\" is not an HTTP method; a method is a token of RFC 9110 §9.1"))
    }

    @Test func anEmptyNameOrOneWithASeparatorStopsToo() async {
        await #expect(processExitsWith: .failure) { _ = HTTPMethod(rawValue: "") }
        await #expect(processExitsWith: .failure) { _ = HTTPMethod(rawValue: "BAD(") }
        await #expect(processExitsWith: .failure) { _ = HTTPMethod(rawValue: "FÉTCH") }
    }
    #endif
}
#endif
