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

        try await exerciseTheRoutes(of: server, variant: variant)
        try await server.stop()
    }
}
