import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Interactors
import InteractorsData
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

/// Both variants serve the routes over PostgreSQL as `BookshelfServer --database postgres://…` runs them: the
/// client a service of the group, started before the server listens and stopped after the services' tear-down.
@Suite(
    .enabled(if: PostgresServer.canStart, "needs PostgreSQL installed (initdb); see scripts/postgres.sh"),
    .postgresServer
)
struct PostgresBookshelfTests {
    @Test(arguments: Variant.allCases)
    func theRoutesStoreReadListAndDeleteBooks(variant: Variant) async throws {
        let location = try PostgresServer.required().newDatabase()
        let lines = NIOLockedValueBox<[String]>([])
        let server = try await startBookshelf(location, variant: variant, lines: lines)

        try await exerciseTheRoutes(of: server, variant: variant)
        try await server.stop()
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

    /// A PUT answered 200 is in the database, as `psql` shows it; and the service's last query, at its tear-down,
    /// still reaches the server: the client stops after the registry.
    @Test func anAcknowledgedPutIsInTheDatabaseAndTheClientOutlivesTheTearDown() async throws {
        let postgres = try PostgresServer.required()
        let location = try postgres.newDatabase()
        let lines = NIOLockedValueBox<[String]>([])
        let server = try await startBookshelf(location, variant: .library, lines: lines)
        let put = try await server.request(
            "PUT",
            "/books/emma",
            body: #"{"id":"emma","title":"Emma","author":"Jane Austen"}"#
        )
        #expect(put.status == 200)
        var inDatabase = postgres
        inDatabase.location = location
        #expect(try inDatabase.psql("SELECT body->>'title' FROM books WHERE id = 'emma'") == ["Emma"])
        try await server.stop()
        let said = lines.withLockedValue { $0 }
        #expect(said.contains("PostgresDatabaseService closed table books in \(location): 1 books"), "\(said)")
    }

    /// Runs `body` with a bookshelf of `variant` over a new database of the suite's server, then stops it.
    private func withBookshelf(_ variant: Variant, _ body: (TestServer) async throws -> Void) async throws {
        let location = try PostgresServer.required().newDatabase()
        let server = try await startBookshelf(location, variant: variant, lines: NIOLockedValueBox([]))
        try await server.serving(body)
    }

    private func startBookshelf(
        _ location: PostgresLocation,
        variant: Variant,
        lines: NIOLockedValueBox<[String]>
    ) async throws -> TestServer {
        var configuration = BookshelfConfiguration()
        configuration.port = 0
        configuration.variant = variant
        configuration.database = .postgres(location)
        let logger = Logger(label: "PostgresBookshelfTests") { _ in LineRecorder(lines: lines) }
        let bookshelf = Bookshelf(configuration: configuration, logger: logger)
        return try await TestServer.start { onListening in
            bookshelf.serviceGroup(gracefulShutdownSignals: []) { _, port in onListening(port) }
        }
    }
}

/// What fails without a server: a database nobody answers for, a URL that names none.
@Suite struct PostgresWithoutAServerTests {
    /// A database on a port of 127.0.0.1 nobody listens on.
    private func unreachable() throws -> PostgresLocation {
        PostgresLocation(host: "127.0.0.1", port: try PostgresServer.freePort(), username: "u", database: "d")
    }

    @Test func aCallToAServerThatIsDownFailsWithStorageFailedAtItsDeadline() async throws {
        let location = try unreachable()
        try await withPostgresClient(location) { client in
            let table = try PostgresTable<Book>(
                client: client,
                name: "books",
                location: location,
                deadline: .milliseconds(200),
                logger: quietLogger
            )
            let error = await #expect(throws: DataError.self) {
                try await PostgresDataSource(table).get(IdQuery("b")).value
            }
            #expect(error?.code == .storageFailed)
            #expect(
                error?.message.contains("did not answer within 0.2 seconds") == true,
                "\(String(describing: error))"
            )
        }
    }

    @Test func theDatabaseServiceFailsToLaunchWhenTheServerCannotBeReached() async throws {
        let location = try unreachable()
        try await withPostgresClient(location) { client in
            let service = PostgresDatabaseService(
                client: client,
                location: location,
                executor: InteractorExecutor(),
                startupDeadline: .milliseconds(300),
                logger: quietLogger
            )
            let error = #expect(throws: DataError.self) { try service.receive(.didFinishLaunching([:])) }
            #expect(error?.code == .storageFailed)
            #expect(throws: DataError.self) { try service.books() }
        }
    }

    @Test func aPostgresURLNamesTheServerTheUserAndTheDatabase() throws {
        let location = try PostgresLocation(url: "postgres://alice:s%40cret@127.0.0.1:5433/shelf")
        #expect(
            location
                == PostgresLocation(
                    host: "127.0.0.1",
                    port: 5433,
                    username: "alice",
                    password: "s@cret",
                    database: "shelf"
                )
        )
        #expect("\(location)" == "postgres://alice@127.0.0.1:5433/shelf", "the password is never printed")
        #expect(try PostgresLocation(url: "postgresql://bob@localhost/db").port == 5432)
    }

    @Test(arguments: [
        "mysql://u@127.0.0.1/db", "postgres://127.0.0.1/db", "postgres://u@127.0.0.1", "postgres://u@127.0.0.1/a/b",
        "postgres://u@127.0.0.1/db?sslmode=require",
    ])
    func aURLThatNamesNoDatabaseIsAUsageError(url: String) {
        #expect(throws: UsageError.self) { try PostgresLocation(url: url) }
    }

    @Test func theCommandLineSelectsPostgresByItsURLAndSQLiteByAPath() throws {
        let postgres = try BookshelfConfiguration(arguments: ["--database", "postgres://u@127.0.0.1:6000/db"])
        #expect(
            postgres.database
                == .postgres(PostgresLocation(host: "127.0.0.1", port: 6000, username: "u", database: "db"))
        )
        let sqlite = try BookshelfConfiguration(arguments: ["--database", "books.sqlite"])
        #expect(sqlite.database == .sqlite(URL(fileURLWithPath: "books.sqlite")))
    }

    @Test func aTableNameThatIsNotAPlainIdentifierIsRefused() {
        for name in ["", "Books", "books; DROP TABLE x", "pg_books", "1books"] {
            #expect(throws: DataError.self, "\(name)") { try PostgresTableSQL(table: name) }
        }
    }
}
