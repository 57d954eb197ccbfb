// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Errors safe to show (issue 34 §6): no library error names an absolute path (a store is named by its file name,
/// the full URL kept in `DataError.fileURL`), and `DataError.describe(_:)` words any error readably on every
/// platform, a `URLError` as its code's name and its URL.
@Suite(.onThreadsOfTheirOwn) struct ErrorsSafeToShowTests {
    @Test func aURLErrorIsItsCodesNameAndItsURLWithoutQueryValues() {
        let url = URL(string: "https://api.example.com/v1/books?token=secret&page=2")!
        let error = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url])
        #expect(DataError.describe(error) == "URLError.timedOut https://api.example.com/v1/books?token=…&page=…")
        #expect(DataError.describe(URLError(.notConnectedToInternet)) == "URLError.notConnectedToInternet")
    }

    @Test func aFoundationErrorIsItsDomainCodeAndReasonWithoutItsUserInfo() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("nowhere/notes.json")
        let error = try #require(Result { try Data(contentsOf: missing) }.failure)
        let text = DataError.describe(error)
        #expect(text.hasPrefix("NSCocoaErrorDomain "), "\(text)")
        #expect(!text.contains(directory.url.path), "\(text)")
        #expect(DataError.describe(POSIXError(.ENOENT)).hasPrefix("NSPOSIXErrorDomain 2: "))
        struct Refused: Error {}
        #expect(DataError.describe(Refused()) == "Refused()")  // an app's own error, as Swift prints it
    }

    @Test func aDataErrorDescribesItsUnderlyingErrorSafely() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("nowhere/notes.json")
        let underlying = try #require(Result { try Data(contentsOf: missing) }.failure)
        let error = DataError(code: .storageFailed, message: "cannot read notes.json", underlying: underlying)
        #expect(!error.description.contains(directory.url.path), "\(error)")
        #expect(!error.localizedDescription.contains(directory.url.path))
    }

    @Test func aFileStoresErrorsNameItsFileAndKeepTheURL() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        try Data("not json".utf8).write(to: url)
        let notes = FileDataSource<Note>(fileURL: url)
        let errors = [
            notes.get(IdQuery("ada")).dataError, notes.put(ada).dataError,
            notes.put(ada, ifAbsent: true).dataError, notes.delete(IdQuery("ada"), ifPresent: true).dataError,
        ]
        for error in errors {
            let error = try #require(error)
            #expect(error.code == .corruptStore)
            #expect(error.message.contains("notes.json") && !error.description.contains(directory.url.path))
            #expect(error.fileURL == url)
        }
        // A store that cannot even lock its directory: a file where the directory should be.
        let blocked = directory.file("plain")
        try Data().write(to: blocked)
        let error = try #require(
            FileDataSource<Note>(fileURL: blocked.appendingPathComponent("notes.json")).put(ada).dataError
        )
        #expect(error.code == .storageFailed)
        #expect(!error.description.contains(directory.url.path), "\(error)")
        #expect(error.fileURL != nil)
    }

    @Test func aSQLiteSourcesErrorsNameItsFileAndKeepTheURL() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("app.sqlite")
        let notes = try SQLiteDataSource<Note>(database: SQLiteDatabase(fileURL: url), table: "notes")
        _ = try notes.put(ada).get()
        let errors = [
            notes.get(IdQuery("nobody")).dataError, notes.put(ada, ifAbsent: true).dataError,
            notes.getAll(TextSearchQuery(term: "x")).dataError,
        ]
        for error in errors {
            let error = try #require(error)
            #expect(error.message.contains("app.sqlite") && !error.description.contains(directory.url.path))
            #expect(error.fileURL == url)
        }
        let readOnly = try SQLiteDataSource<Note>(
            database: SQLiteDatabase(fileURL: url, readOnly: true),
            table: "notes"
        )
        let refused = try #require(readOnly.put(grace).dataError)
        #expect(!refused.description.contains(directory.url.path), "\(refused)")
        #expect(refused.fileURL == url)
    }

    @Test func aCacheFallbacksOriginPrintsItsURLErrorReadably() async throws {
        let server = try await RESTServer.start()
        try await onAThreadOfItsOwn {
            let remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
            _ = try remote.put(ada).get()
            let books = CacheRepository(main: remote, cache: InMemoryDataSource<Note>())
            _ = try books.getAll(AllObjectsQuery()).get()
            server.stop()
            let fetched = try books.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
            let text = "\(fetched.origin)"
            guard text.hasPrefix("cacheAfterFailure(URLError."), !text.contains("(null)"),
                text.contains("127.0.0.1")
            else { throw FixtureError(message: text) }
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
#endif
