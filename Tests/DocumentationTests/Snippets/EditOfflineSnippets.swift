import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The code blocks of "Edit offline" in Sources/InteractorsData/InteractorsData.docc/FromInteractorToDataSource.md.
// The first talks to api.example.com: compiled, not run. The test runs the rule with a stand-in for the server
// that goes offline and comes back, and a SQLite database in a temporary directory.

@Suite struct EditOfflineSnippets {
    typealias Book = InteractorsDataSnippets.Book

    func showSyncBadge() {}
    func showToast(_ text: String) {}
    func showBanner(_ text: String) {}

    func editOffline(client: HTTPClient, database: SQLiteDatabase) throws {
        let books = CacheRepository(
            main: RESTDataSource<Book>(client: client, path: "books"),
            cache: try SQLiteDataSource<Book>(database: database, table: "books"),
            pendingWrites: .keep
        )
        ServiceRegistry.shared.register(PendingWritesSync(repository: books, every: .seconds(60)))

        _ = try books.put(Book(id: "b4", title: "Middlemarch")).get()  // offline: kept, and shown
        let shelf = try books.fetchAll(AllObjectsQuery()).get()
        if shelf.isPending { showSyncBadge() }  // it holds a write the server has not taken yet
    }

    func readTheReport(books: CacheRepository<Book>) throws {
        let report = try books.sync().get()
        for (id, error) in report.rejected {
            showToast("\(id) was not saved: \(error.message)")  // the screen shows the server's version again
        }
        if report.remaining > 0 { showBanner("\(report.remaining) changes wait for the server") }
    }

    @Test func anEditMadeOfflineIsKeptShownAndSentOnceTheServerIsBack() throws {
        let server = OfflineServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edit-offline-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(fileURL: directory.appendingPathComponent("app.sqlite"))
        let books = CacheRepository(
            main: server,
            cache: try SQLiteDataSource<Book>(database: database, table: "books"),
            pendingWrites: .keep
        )
        server.isOffline = true
        let book = Book(id: "b4", title: "Middlemarch")
        #expect(try books.put(book).get() == book)
        let shelf = try books.fetchAll(AllObjectsQuery()).get()
        #expect(shelf.value == [book] && shelf.isPending)
        #expect(try books.sync().get().remaining == 1)
        server.isOffline = false
        let report = try books.sync().get()
        #expect(report.sent == ["b4"] && report.remaining == 0)
        #expect(try server.get(IdQuery("b4")).get() == book)
        #expect(!(try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get().isPending))
    }
}

/// A server for the test: an in-memory collection that fails every call with `URLError(.notConnectedToInternet)`
/// while it is offline.
final class OfflineServer: DataSource {
    typealias Value = InteractorsDataSnippets.Book

    private let books = InMemoryDataSource<Value>()
    private let offline = LockedFlag()

    var isOffline: Bool {
        get { offline.value }
        set { offline.value = newValue }
    }

    private func answer<T: Sendable>(_ call: () -> Response<T>) -> Response<T> {
        isOffline ? Response(error: URLError(.notConnectedToInternet)) : call()
    }

    func get(_ query: any Query) -> Response<Value> { answer { books.get(query) } }
    func getAll(_ query: any Query) -> Response<[Value]> { answer { books.getAll(query) } }
    func put(_ value: Value) -> Response<Value> { answer { books.put(value) } }
    func putAll(_ values: [Value]) -> Response<[Value]> { answer { books.putAll(values) } }
    func delete(_ query: any Query) -> Response<Void> { answer { books.delete(query) } }
    func deleteAll(_ query: any Query) -> Response<Void> { answer { books.deleteAll(query) } }
}

/// A flag read and written from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false

    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}
