import BookshelfApp
import Foundation
import Interactors
import InteractorsData
import PostgresNIO
import Testing

/// The PostgreSQL source answers as the library's `DataSource` protocol says, as `SQLiteDataSource` answers, over a
/// real server that `scripts/postgres.sh` starts for the suite; each test has a table of its own.
@Suite(
    .enabled(if: PostgresServer.canStart, "needs PostgreSQL installed (initdb); see scripts/postgres.sh"),
    .postgresServer
)
struct PostgresDataSourceTests {
    let dune = Book(id: "dune", title: "Dune", author: "Frank Herbert")
    let emma = Book(id: "emma", title: "Emma", author: "Jane Austen")
    let ubik = Book(id: "ubik", title: "Ubik", author: "Philip K. Dick")

    @Test func aMissingIdIsNotFound() async throws {
        try await withBooks { books, _ async throws in
            let error = await #expect(throws: DataError.self) { try await books.get(IdQuery("nope")).value }
            #expect(error?.code == .notFound)
        }
    }

    @Test func aPutIsReadBackWithItsBody() async throws {
        try await withBooks { books, _ async throws in
            #expect(try await books.put(dune).value == dune)
            #expect(try await books.get(IdQuery("dune")).value == dune)
        }
    }

    @Test func aPutThatReplacesKeepsTheValuesPlaceInTheList() async throws {
        try await withBooks { books, _ async throws in
            for book in [dune, emma, ubik] { _ = try await books.put(book).value }
            let renamed = Book(id: "dune", title: "Dune Messiah", author: "Frank Herbert")
            _ = try await books.put(renamed).value
            #expect(try await books.getAll(AllObjectsQuery()).value == [renamed, emma, ubik])
        }
    }

    @Test func idsAnswerInTheQuerysOrderAndFiltersRunInSwift() async throws {
        try await withBooks { books, _ async throws in
            _ = try await books.putAll([dune, emma, ubik]).value
            #expect(try await books.getAll(IdsQuery(["ubik", "nope", "dune"])).value == [ubik, dune])
            #expect(try await books.getAll(FilterQuery<Book> { $0.author.hasPrefix("J") }).value == [emma])
            #expect(try await books.get(FilterQuery<Book> { $0.title.hasPrefix("U") }).value == ubik)
        }
    }

    @Test func deletingAMissingIdSucceedsAndADeletedBookIsGone() async throws {
        try await withBooks { books, _ async throws in
            try await books.delete(IdQuery("nope")).value
            _ = try await books.put(dune).value
            try await books.delete(IdQuery("dune")).value
            let error = await #expect(throws: DataError.self) { try await books.get(IdQuery("dune")).value }
            #expect(error?.code == .notFound)
        }
    }

    @Test func deleteAllDeletesWhatItsQuerySelects() async throws {
        try await withBooks { books, _ async throws in
            _ = try await books.putAll([dune, emma, ubik]).value
            try await books.deleteAll(FilterQuery<Book> { $0.author == "Jane Austen" }).value
            #expect(try await books.getAll(AllObjectsQuery()).value == [dune, ubik])
            try await books.deleteAll(IdsQuery(["ubik"])).value
            #expect(try await books.getAll(AllObjectsQuery()).value == [dune])
            try await books.deleteAll(AllObjectsQuery()).value
            #expect(try await books.getAll(AllObjectsQuery()).value == [])
        }
    }

    @Test func aCreateOnlyPutOfAnIdThatExistsIsAConflictAndWritesNothing() async throws {
        try await withBooks { books, _ async throws in
            #expect(try await books.put(dune, ifAbsent: true).value == dune)
            let other = Book(id: "dune", title: "Dune Messiah", author: "Frank Herbert")
            let error = await #expect(throws: DataError.self) { try await books.put(other, ifAbsent: true).value }
            #expect(error?.code == .conflict, "\(String(describing: error))")
            #expect(try await books.get(IdQuery("dune")).value == dune)
            #expect(try await books.put(other, ifAbsent: false).value == other, "without ifAbsent, a put replaces")
            #expect(try await books.get(IdQuery("dune")).value == other)
        }
    }

    /// The insert's conflict check is the primary key's: of 16 create-only puts of one id at once, one stores.
    @Test func ofManyCreateOnlyPutsOfOneIdAtOnceExactlyOneStores() async throws {
        try await withBooks { books, _ async throws in
            let outcomes = await withTaskGroup(of: (Book, Bool).self) { group in
                for writer in 0..<16 {
                    let book = Book(id: "contested", title: "Title \(writer)", author: "A")
                    group.addTask { (book, (try? await books.put(book, ifAbsent: true).value) != nil) }
                }
                var outcomes: [(Book, Bool)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let stored = outcomes.filter(\.1).map(\.0)
            #expect(stored.count == 1, "\(outcomes)")
            #expect(try await books.get(IdQuery("contested")).value == stored.first)
        }
    }

    @Test func aDeleteIfPresentOfAMissingIdIsNotFoundAndOfAStoredOneDeletes() async throws {
        try await withBooks { books, _ async throws in
            let error = await #expect(throws: DataError.self) {
                try await books.delete(IdQuery("dune"), ifPresent: true).value
            }
            #expect(error?.code == .notFound)
            _ = try await books.put(dune).value
            try await books.delete(IdQuery("dune"), ifPresent: true).value
            await #expect(throws: DataError.self) { try await books.get(IdQuery("dune")).value }
        }
    }

    /// Pages follow the ids' UTF-8 bytes (`B` < `a` < `é`), as the library's stores do, even in a table whose id
    /// column has a collation of its own (an ICU collation would put `a` before `B`): the statements say
    /// `COLLATE "C"`.
    @Test(arguments: [nil, #""und-x-icu""#])
    func pagesFollowTheIdsBytesWhateverTheColumnsCollation(collation: String?) async throws {
        let server = try PostgresServer.required()
        // A PostgreSQL built without ICU has no such collation: nothing to show there.
        if collation != nil, try server.psql("SELECT count(*) FROM pg_collation WHERE collname = 'und-x-icu'") != ["1"]
        {
            return
        }
        try await withBooks(idCollation: collation) { books, _ async throws in
            let ids = ["é", "b", "B", "a1", "c", "a"]
            _ = try await books.putAll(ids.map { Book(id: $0, title: $0, author: "A") }).value
            #expect(try await books.getAll(PageQuery<String>(limit: 4)).value.map(\.id) == ["B", "a", "a1", "b"])
            #expect(try await books.getAll(PageQuery(limit: 4, after: "b")).value.map(\.id) == ["c", "é"])
            #expect(try await books.getAll(PageQuery(limit: 4, after: "é")).value.map(\.id) == [])
            #expect(try await books.getAll(PageQuery<String>(limit: 0)).value.map(\.id) == [])
            #expect(try await books.get(PageQuery(limit: 4, after: "a")).value.id == "a1")
            try await books.deleteAll(PageQuery(limit: 2, after: "a")).value
            #expect(try await books.getAll(AllObjectsQuery()).value.map(\.id) == ["é", "B", "c", "a"])
        }
    }

    @Test func aPageWithANegativeLimitIsAnInvalidQuery() async throws {
        try await withBooks { books, _ async throws in
            let error = await #expect(throws: DataError.self) {
                try await books.getAll(PageQuery<String>(limit: -1)).value
            }
            #expect(error?.code == .invalidQuery)
        }
    }

    /// PostgreSQL keeps no NUL in a JSON string: the second value fails the batch, and the first is not kept.
    @Test func putAllIsOneTransaction() async throws {
        try await withBooks { books, _ async throws in
            let refused = Book(id: "nul", title: "a\u{0}b", author: "A")
            let error = await #expect(throws: DataError.self) { try await books.putAll([dune, refused]).value }
            #expect(error?.code == .invalidQuery, "\(String(describing: error))")
            #expect(try await books.getAll(AllObjectsQuery()).value == [])
        }
    }

    @Test func aQueryTheSourceCannotAnswerFailsAtOnce() async throws {
        try await withBooks { books, _ async throws in
            let error = await #expect(throws: DataError.self) { try await books.getAll(OtherQuery()).value }
            #expect(error?.code == .queryNotSupported)
            let deleting = await #expect(throws: DataError.self) { try await books.delete(AllObjectsQuery()).value }
            #expect(deleting?.code == .queryNotSupported)
        }
    }

    /// Cancelling the response of a PUT that waits for a row lock stops the statement on the server and rolls it
    /// back: once the lock is released, the row still holds what it held.
    @Test func cancellingAPutWaitingForARowLockRollsItBack() async throws {
        let server = try PostgresServer.required()
        try await withBooks { books, table async throws in
            _ = try await books.put(dune).value
            try await withPostgresClient(server.location) { client in
                try await client.withTransaction(logger: quietLogger) { holder in
                    try await holder.query(
                        "SELECT 1 FROM \(unescaped: table) WHERE id = 'dune' FOR UPDATE",
                        logger: quietLogger
                    )
                    let put = books.put(Book(id: "dune", title: "Overwritten", author: "Nobody"))
                    #expect(try await waitUntil { try server.waitingForLocks(on: table) == 1 }, "the put never waited")
                    put.cancel()
                    await #expect(throws: CancellationError.self) { try await put.value }
                    // The server noticed the closed connection and ended the statement: nothing waits any more.
                    #expect(
                        try await waitUntil { try server.waitingForLocks(on: table) == 0 },
                        "the statement still waits"
                    )
                }
            }
            #expect(try await books.get(IdQuery("dune")).value == dune)
        }
    }

    /// Instances that start together each create the table if it is missing; none fails for the other's doing.
    @Test func tablesCreatedAtOnceByManyInstancesAllSucceed() async throws {
        let server = try PostgresServer.required()
        let name = "books_\(UInt32.random(in: 0...UInt32.max))"
        try await withPostgresClient(server.location, connections: 8) { client in
            let table = try PostgresTable<Book>(
                client: client,
                name: name,
                location: server.location,
                logger: quietLogger
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { try await table.run(table.create(within: .seconds(30))) } }
                try await group.waitForAll()
            }
        }
        #expect(try server.psql("SELECT count(*) FROM \(name)") == ["0"])
    }

    @Test func aTableOfAnotherShapeIsACorruptStore() async throws {
        let server = try PostgresServer.required()
        let name = "other_\(UInt32.random(in: 0...UInt32.max))"
        _ = try server.psql("CREATE TABLE \(name) (id integer PRIMARY KEY)")
        try await withPostgresClient(server.location) { client in
            let table = try PostgresTable<Book>(
                client: client,
                name: name,
                location: server.location,
                logger: quietLogger
            )
            let error = await #expect(throws: DataError.self) {
                try await table.run(table.create(within: .seconds(30)))
            }
            #expect(error?.code == .corruptStore, "\(String(describing: error))")
        }
    }

    /// Runs `body` with a source over a new table of the suite's server, its client running meanwhile; with
    /// `idCollation`, the table is made first, its id column in that collation, as another program might have.
    private func withBooks(
        idCollation: String? = nil,
        _ body: @Sendable (PostgresDataSource<Book>, _ table: String) async throws -> Void
    ) async throws {
        let server = try PostgresServer.required()
        let name = "books_\(UInt32.random(in: 0...UInt32.max))"
        if let idCollation {
            _ = try server.psql(
                "CREATE TABLE \(name) (id text COLLATE \(idCollation) PRIMARY KEY, body jsonb NOT NULL, "
                    + "position bigint GENERATED ALWAYS AS IDENTITY)"
            )
        }
        try await withPostgresClient(server.location) { client in
            let table = try PostgresTable<Book>(
                client: client,
                name: name,
                location: server.location,
                deadline: .seconds(30),
                logger: quietLogger
            )
            try await table.run(table.create(within: .seconds(30)))
            try await body(PostgresDataSource(table), name)
        }
    }
}

/// A query no source of the library knows.
private struct OtherQuery: Query {}

extension PostgresServer {
    /// How many statements on `table` wait for a lock now.
    func waitingForLocks(on table: String) throws -> Int {
        let sql =
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%\(table)%'"
            + " AND pid <> pg_backend_pid()"
        return Int(try psql(sql).first ?? "") ?? -1
    }

    /// A new database on the server, for a test that runs a whole bookshelf (its table is always `books`).
    func newDatabase() throws -> PostgresLocation {
        var location = self.location
        location.database = "bookshelf_\(UInt32.random(in: 0...UInt32.max))"
        _ = try psql("CREATE DATABASE \(location.database)")
        return location
    }
}

/// Whether `condition` holds within 20 s, polled every 20 ms (a guard against a hang, not a measure).
func waitUntil(_ condition: @Sendable () throws -> Bool) async throws -> Bool {
    for _ in 0..<1000 {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return false
}
