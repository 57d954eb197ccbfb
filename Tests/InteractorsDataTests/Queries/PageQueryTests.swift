// Foundation's Process, which the fixture server needs, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// Pages (issue 34 §5): the first `limit` values whose id is greater than `after`, in ascending id order as SQLite's
/// BINARY collation has it, from every store; `?limit=&after=` over REST; the server first, then the cache's page,
/// through a repository.
@Suite(.onThreadsOfTheirOwn) struct PageQueryTests {
    /// A value keyed by an integer.
    struct Numbered: Codable, Identifiable, Sendable, Hashable {
        var id: Int
    }

    /// Ids whose UTF-8 order differs from Swift's `<` and from their numbers.
    static let ids = ["b", "B", "a", "é", "ab", "10", "9", "e\u{301}"]

    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inMemory, file, sqliteFile, sqliteInMemory, userDefaults
        var testDescription: String { rawValue }
    }

    /// A fresh store of `kind` for values of type `Value`, and what must outlive it.
    static func store<Value: Codable & Identifiable & Sendable>(
        _ kind: Kind,
        of type: Value.Type
    ) throws -> (source: any DataSource<Value>, keep: Any?) where Value.ID: Codable & Sendable {
        switch kind {
        case .inMemory:
            return (InMemoryDataSource<Value>(), nil)
        case .file:
            let directory = try TemporaryDirectory()
            return (FileDataSource<Value>(fileURL: directory.file("values.json")), directory)
        case .sqliteFile:
            let directory = try TemporaryDirectory()
            let database = try SQLiteDatabase(fileURL: directory.file("values.sqlite"))
            return (try SQLiteDataSource<Value>(database: database, table: "values"), directory)
        case .sqliteInMemory:
            return (try SQLiteDataSource<Value>(database: SQLiteDatabase.inMemory(), table: "values"), nil)
        case .userDefaults:
            let domain = try DefaultsDomain()
            return (UserDefaultsDataSource<Value>(defaults: domain.defaults, keyPrefix: "values."), domain)
        }
    }

    @Test(arguments: Kind.allCases)
    func stringIdsArePagedByTheirUTF8Bytes(kind: Kind) throws {
        let (notes, keep) = try Self.store(kind, of: Note.self)
        defer { withExtendedLifetime(keep) {} }
        // UserDefaults keys are the platform's strings, which merge "é" spelled two ways: one of them there.
        let ids = kind == .userDefaults ? Self.ids.filter { $0.unicodeScalars.count == $0.count } : Self.ids
        _ = try notes.putAll(ids.map { Note(id: $0, text: $0) }).get()
        var pages: [[String]] = []
        var after: String?
        repeat {
            pages.append(try notes.getAll(PageQuery(limit: 3, after: after)).get().map(\.id))
            after = pages.last?.last
        } while pages.last?.isEmpty == false
        let last = kind == .userDefaults ? ["é"] : ["e\u{301}", "é"]
        #expect(pages == [["10", "9", "B"], ["a", "ab", "b"], last, []])
        #expect(try notes.getAll(PageQuery(limit: 2, after: "a")).get().map(\.id) == ["ab", "b"])
        #expect(try notes.getAll(PageQuery(limit: 2, after: "aa")).get().map(\.id) == ["ab", "b"])  // not an id
    }

    @Test(arguments: Kind.allCases)
    func integerIdsArePagedNumerically(kind: Kind) throws {
        let (numbers, keep) = try Self.store(kind, of: Numbered.self)
        defer { withExtendedLifetime(keep) {} }
        _ = try numbers.putAll([10, 2, 33, 1, -4, 9].map(Numbered.init)).get()
        #expect(try numbers.getAll(PageQuery<Int>(limit: 4)).get().map(\.id) == [-4, 1, 2, 9])
        #expect(try numbers.getAll(PageQuery(limit: 4, after: 9)).get().map(\.id) == [10, 33])
    }

    @Test(arguments: Kind.allCases)
    func aNegativeLimitIsInvalidZeroIsEmptyAndAnotherIdTypeIsNotSupported(kind: Kind) throws {
        let (notes, keep) = try Self.store(kind, of: Note.self)
        defer { withExtendedLifetime(keep) {} }
        _ = try notes.putAll([ada, grace]).get()
        #expect(notes.getAll(PageQuery<String>(limit: -1)).dataError?.code == .invalidQuery)
        #expect(try notes.getAll(PageQuery<String>(limit: 0)).get() == [])
        #expect(notes.getAll(PageQuery<Int>(limit: 5)).dataError?.code == .queryNotSupported)
    }

    @Test func restSendsLimitAndAfter() async throws {
        let server = try await RESTServer.start()
        try await onAThreadOfItsOwn {
            let notes = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes")
            _ = try notes.putAll(Self.ids.map { Note(id: $0, text: $0) }).get()
            let first = try notes.getAll(PageQuery<String>(limit: 3)).get()
            let second = try notes.getAll(PageQuery(limit: 3, after: first.last?.id)).get()
            let lines = try server.requestLines().suffix(2)
            guard first.map(\.id) == ["10", "9", "B"], second.map(\.id) == ["a", "ab", "b"],
                Array(lines) == ["GET /notes?limit=3", "GET /notes?limit=3&after=B"]
            else { throw FixtureError(message: "\(first.map(\.id)) \(second.map(\.id)) \(lines)") }
        }
    }

    @Test func aRepositoryAsksTheServerFirstAndTheCachesPageStandsInWhenItIsDown() async throws {
        let server = try await RESTServer.start()
        try await onAThreadOfItsOwn {
            let remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes")
            _ = try remote.putAll([ada, grace, alan]).get()
            let cache = InMemoryDataSource<Note>()
            let notes = CacheRepository(main: remote, cache: cache)
            let page = try notes.fetchAll(PageQuery<String>(limit: 2)).get()
            let cached = try cache.getAll(AllObjectsQuery()).get()
            server.stop()
            let offline = try notes.fetchAll(PageQuery<String>(limit: 2)).get()
            let origins = [page.origin, offline.origin].map { origin -> String in
                switch origin {
                case .main: "main"
                case .cacheAfterFailure: "cacheAfterFailure"
                default: "\(origin)"
                }
            }
            guard page.value.map(\.id) == ["ada", "alan"], cached.map(\.id) == ["ada", "alan"],
                offline.value.map(\.id) == ["ada", "alan"], origins == ["main", "cacheAfterFailure"]
            else { throw FixtureError(message: "\(page.value) \(cached) \(offline.value) \(origins)") }
        }
    }
}
#endif
