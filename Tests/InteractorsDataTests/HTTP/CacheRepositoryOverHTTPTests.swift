// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// Cache policies with a real server as the main source and a real file as the cache.
@Suite struct CacheRepositoryOverHTTPTests {
    let server: RESTServer
    let directory: TemporaryDirectory
    let repository: CacheRepository<Note>

    init() throws {
        server = try RESTServer()
        directory = try TemporaryDirectory()
        repository = CacheRepository(
            main: RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes"),
            cache: FileDataSource<Note>(fileURL: directory.file("notes.json")),
            isValid: { $0.revision >= 2 }
        )
    }

    @Test func networkDownWithMainSyncAnswersTheCachedValue() throws {
        let stored = try repository.put(ada).get()
        _ = try repository.getAll(AllObjectsQuery(), operation: .mainSync).get()  // the list, as a refresh stores it
        server.stop()
        #expect(try repository.get(IdQuery("ada"), operation: .mainSync).get() == stored)
        #expect(try repository.getAll(AllObjectsQuery(), operation: .mainSync).get() == [stored])
    }

    @Test func networkDownWithoutACachedValueFailsWithTheNetworkError() throws {
        server.stop()
        #expect(throws: URLError.self) { try repository.get(IdQuery("ada"), operation: .mainSync).get() }
        #expect(throws: URLError.self) { try repository.put(ada).get() }
        #expect(try repository.getAll(AllObjectsQuery(), operation: .cache).get().isEmpty)
    }

    @Test func cacheSyncWithAStaleValueGoesToTheServer() throws {
        _ = try repository.put(ada).get()  // revision 1 on the server and in the cache: stale
        let newer = try RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "notes")
            .put(Note(id: "ada", text: "newer", revision: 1)).get()  // revision 2 on the server only
        #expect(try repository.get(IdQuery("ada"), operation: .cacheSync).get() == newer)
        #expect(try repository.get(IdQuery("ada"), operation: .cache).get() == newer)
    }
}
#endif
