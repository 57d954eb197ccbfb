// Foundation's Process, which these need, exists on macOS and Linux only (not on iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// What the pending-writes tests stand on: the REST fixture (its "books") as the main source, a cache of one of the
/// indexed kinds, and a repository over them that keeps the writes the server cannot take.
struct OfflineShelf {
    let server: RESTServer
    let kind: CacheStoreKind
    let store: CacheStore
    let books: CacheRepository<Note>
    /// The server's "books", read and written as another client would, without the cache.
    let remote: RESTDataSource<Note>
    let cacheFailures = LockedBox<[DataError]>([])

    init(_ kind: CacheStoreKind, server: RESTServer, pendingWrites: PendingWrites = .keep) throws {
        self.server = server
        self.kind = kind
        store = try kind.make()
        remote = RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books")
        books = Self.repository(over: store.source, server: server, pendingWrites: pendingWrites, cacheFailures)
    }

    static func repository(
        over cache: any DataSource<Note>,
        server: RESTServer,
        pendingWrites: PendingWrites = .keep,
        _ cacheFailures: LockedBox<[DataError]> = LockedBox([])
    ) -> CacheRepository<Note> {
        CacheRepository(
            main: RESTDataSource<Note>(client: HTTPClient(baseURL: server.baseURL), path: "books"),
            cache: cache,
            onCacheFailure: { error in cacheFailures.withLock { $0.append(error) } },
            pendingWrites: pendingWrites
        )
    }

    /// A new repository over the same cache as a restarted app opens it: a new source on the same file, for the
    /// kinds kept in a file; the same source otherwise.
    func reopened() throws -> CacheRepository<Note> {
        guard let directory = store.directory else { return books }
        return Self.repository(over: try kind.open(in: directory), server: server)
    }

    /// What the cache holds, read as it is.
    func cached() throws -> [Note] {
        try store.source.getAll(AllObjectsQuery()).get()
    }

    /// The pending writes, as "put <id>" and "delete <id>", in order.
    func pending(_ repository: CacheRepository<Note>? = nil) throws -> [String] {
        try (repository ?? books).pendingWrites().get().map { "\($0.value == nil ? "delete" : "put") \($0.id)" }
    }

    /// The writes the server received (PUTs and DELETEs of books), as "PUT /books/<id>".
    func writesReceived() throws -> [String] {
        try server.requestLines().filter { $0.hasPrefix("PUT /books") || $0.hasPrefix("DELETE /books") }
    }
}
#endif
