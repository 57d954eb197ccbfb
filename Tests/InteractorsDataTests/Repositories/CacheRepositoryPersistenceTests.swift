import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// The repository's lists and times live with the cache: a new repository over a new source on the same file
/// answers its last lists, online or offline, with their times. The file kinds are a `FileDataSource` and a
/// `SQLiteDataSource` on a database file (reopened through a new `SQLiteDatabase`, as a restarted app does).
@Suite struct CacheRepositoryPersistenceTests {
    let main = RecordingSource("main")

    @Test(arguments: CacheStoreKind.persistent)
    func aNewRepositoryOverTheSameFileAnswersItsLastListsWithTheirTimes(kind: CacheStoreKind) throws {
        let directory = try TemporaryDirectory()
        try main.seed(ada, grace, alan)
        let storedAt: Date
        do {
            let first = CacheRepository(main: main, cache: try kind.open(in: directory))
            _ = try first.getAll(AllObjectsQuery()).get()
            _ = try first.getAll(IdsQuery(["alan", "ada"])).get()
            storedAt = try #require(try first.fetchAll(AllObjectsQuery()).get().storedAt)
        }
        // The app quits here: its store (and, for SQLite, its database) is released.

        // Restarted, online: no request.
        let restarted = CacheRepository(main: main, cache: try kind.open(in: directory))
        let list = try restarted.fetchAll(AllObjectsQuery()).get()
        #expect(list.value == [ada, grace, alan])
        #expect(list.storedAt.map { abs($0.timeIntervalSince(storedAt)) < 0.001 } == true)
        #expect(try restarted.getAll(IdsQuery(["alan", "ada"])).get() == [alan, ada])
        #expect(main.calls == ["getAll", "getAll"])

        // Restarted, offline, with an age limit long past.
        main.isOffline = true
        let offline = CacheRepository(main: main, cache: try kind.open(in: directory), maxAge: .zero)
        let fallback = try offline.fetchAll(AllObjectsQuery()).get()
        #expect(fallback.value == [ada, grace, alan])
        #expect(fallback.storedAt.map { abs($0.timeIntervalSince(storedAt)) < 0.001 } == true)
        #expect({ if case .cacheAfterFailure = fallback.origin { true } else { false } }())
    }

    @Test func theIndexSurvivesEvictionsAndStaysReadableByOlderFiles() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("books.json")
        try main.seed(ada, grace, alan)
        let books = CacheRepository(main: main, cache: FileDataSource<Note>(fileURL: url))
        _ = try books.getAll(AllObjectsQuery()).get()
        try books.delete(IdQuery("grace")).get()
        let reopened = CacheRepository(main: main, cache: FileDataSource<Note>(fileURL: url))
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, alan])
        // The file is still a plain collection for a FileDataSource that knows nothing of caches.
        #expect(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get() == [ada, alan])
        let json = try #require(String(data: Data(contentsOf: url), encoding: .utf8))
        #expect(json.contains(#""version":1"#))
    }

    @Test(arguments: CacheStoreKind.inMemoryKinds)
    func anInMemoryCacheKeepsTheIndexForEveryRepositoryOverIt(kind: CacheStoreKind) throws {
        let cache = try kind.make()
        try main.seed(ada)
        _ = try CacheRepository(main: main, cache: cache.source).getAll(AllObjectsQuery()).get()
        #expect(try CacheRepository(main: main, cache: cache.source).getAll(AllObjectsQuery()).get() == [ada])
        #expect(main.calls == ["getAll"])
    }

    @Test func aCacheIndexThatDoesNotMatchItsValuesIsACorruptFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("books.json")
        let json =
            #"{"format":"InteractorsData.FileDataSource","version":1,"values":[{"id":"ada","text":"a","revision":0}],"#
            + #""cache":{"storedAt":[1.0],"lists":{"AllObjectsQuery()":{"storedAt":1.0,"items":[0,7]}}}}"#
        try Data(json.utf8).write(to: url)
        #expect(FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).dataError?.code == .corruptStore)
    }
}
