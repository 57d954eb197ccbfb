import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Interactors
import Testing

/// Both variants answer the routes as a REST client expects, over a real SQLite file, hosted as `BookshelfServer`
/// hosts them.
@Suite struct RoutesTests {
    @Test(arguments: Variant.allCases)
    func theRoutesStoreReadListAndDeleteBooks(variant: Variant) async throws {
        try await withBookshelf(variant) { server in try await exerciseTheRoutes(of: server, variant: variant) }
    }

    @Test(arguments: Variant.allCases)
    func aCreateOnlyPutAnswers412ForABookThatExists(variant: Variant) async throws {
        try await withBookshelf(variant) { server in try await exerciseCreateOnlyPuts(of: server) }
    }

    @Test(arguments: Variant.allCases)
    func aDeleteOfAMissingBookAnswers404(variant: Variant) async throws {
        try await withBookshelf(variant) { server in try await exerciseDeletes(of: server) }
    }

    @Test(arguments: Variant.allCases)
    func pagesWalkTheBooksInAscendingIdOrder(variant: Variant) async throws {
        try await withBookshelf(variant) { server in try await exercisePages(of: server) }
    }

    @Test(arguments: Variant.allCases)
    func ofSixteenConcurrentCreateOnlyPutsOfOneIdExactlyOneStores(variant: Variant) async throws {
        try await withBookshelf(variant) { server in try await exerciseConcurrentCreateOnlyPuts(of: server) }
    }

    /// Runs `body` with a bookshelf of `variant` over a new SQLite file, then stops it.
    private func withBookshelf(
        _ variant: Variant,
        _ body: (TestServer) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "bookshelf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = BookshelfConfiguration()
        configuration.port = 0
        configuration.variant = variant
        configuration.database = .sqlite(directory.appending(path: "books.sqlite"))
        let bookshelf = Bookshelf(configuration: configuration, logger: quietLogger)
        let server = try await TestServer.start { onListening in
            bookshelf.serviceGroup(gracefulShutdownSignals: []) { _, port in onListening(port) }
        }
        try await server.serving(body)
    }
}
