import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Synchronization

extension BenchmarkCase {
    /// Issue 35's rows: what keeping a write the server cannot take costs, and what sending the pending writes costs
    /// beside the same requests sent plainly.
    ///
    /// - A `put` through a `CacheRepository` with `pendingWrites: .keep` whose server refuses connections (a
    ///   loopback port where nothing listens), against the same `put` on the cache alone: file and SQLite stores of
    ///   1,000 values; the puts cycle over 100 ids, so at most 100 writes are pending.
    /// - `sync()` of 1,000 pending writes against a loopback server (SwiftNIO, `LoopbackServer`), against 1,000
    ///   plain `PUT`s sent one after another with the same client (`RESTDataSource.put`): in-memory, file and SQLite
    ///   caches. The pending writes are made untimed before each sample (one change that keeps them, through the
    ///   store's `applyCacheChange`).
    static let pendingWrites: [BenchmarkCase] = [offlinePut(kept: true), offlinePut(kept: false), sync(), plainPuts()]

    private static let offlinePutID = "stores-pending-put-offline"
    private static let cachePutID = "stores-pending-put-cache"
    private static let syncID = "stores-pending-sync-1000"
    private static let plainPutsID = "stores-pending-plain-puts-1000"

    private static func offlinePut(kept: Bool) -> BenchmarkCase {
        let id = kept ? offlinePutID : cachePutID
        return BenchmarkCase(
            id: id,
            title: kept
                ? "a `put` with `pendingWrites: .keep`, the server down, 1,000 cached"
                : "the same `put` on the cache alone, 1,000 stored",
            iterations: 50,
            quickIterations: 10,
            table: .stores,
            samples: (full: 11, quick: 3),
            contenders: [Library.fileStore, .sqliteStore].map { library in
                .sync(
                    library,
                    kept
                        ? "`CacheRepository(..., pendingWrites: .keep).put(note).get()`, the main source a "
                            + "`RESTDataSource` on a port that refuses connections"
                        : "`put(note).get()` on the same store"
                ) { run in
                    let stores = PendingWritesStores.shared
                    run.startClock()
                    for index in 0..<run.iterations {
                        let note = StoreNote.number(index % 100, revision: index)
                        if kept {
                            blackHole(try! stores.offlineRepository(library).put(note).get())
                        } else {
                            blackHole(try! stores.cache(library).put(note).get())
                        }
                    }
                    run.stopClock()
                }
            },
            targets: kept
                ? [Library.fileStore, .sqliteStore].map { library in
                    .ratio(
                        id,
                        library,
                        to: library,
                        in: cachePutID,
                        named: "the put on the cache alone",
                        atMost: 2,
                        "\(library.shortTitle): ≤ 2x the put on the cache alone"
                    )
                } : []
        )
    }

    private static func sync() -> BenchmarkCase {
        BenchmarkCase(
            id: syncID,
            title: "`sync()` of 1,000 pending writes, loopback server",
            iterations: 1,
            quickIterations: 1,
            table: .stores,
            samples: (full: 7, quick: 2),
            contenders: [Library.inMemoryStore, .fileStore, .sqliteStore].map { library in
                .sync(
                    library,
                    "1,000 pending puts kept (untimed), then `sync().get()`: 1,000 `PUT`s and their outcomes"
                ) { run in
                    let stores = PendingWritesStores.shared
                    for _ in 0..<run.iterations {
                        let books = stores.syncingRepository(library)
                        run.startClock()
                        let report = try! books.sync().get()
                        run.stopClock()
                        precondition(report.sent.count == 1_000 && report.remaining == 0, "the sync left some")
                    }
                }
            },
            targets: [Library.inMemoryStore, .fileStore, .sqliteStore].map { library in
                .ratio(
                    syncID,
                    library,
                    to: library,
                    in: plainPutsID,
                    named: "1,000 plain PUTs",
                    atMost: 1.2,
                    "\(library.shortTitle): ≤ 1.2x 1,000 plain `PUT`s"
                )
            }
        )
    }

    private static func plainPuts() -> BenchmarkCase {
        BenchmarkCase(
            id: plainPutsID,
            title: "1,000 plain `PUT`s one after another, the same client and server",
            iterations: 1,
            quickIterations: 1,
            table: .stores,
            samples: (full: 7, quick: 2),
            contenders: [Library.inMemoryStore, .fileStore, .sqliteStore].map { library in
                .sync(library, "`RESTDataSource.put(note).get()` ×1,000 (the same in each column)") { run in
                    let remote = PendingWritesStores.shared.remote
                    for _ in 0..<run.iterations {
                        run.startClock()
                        for index in 0..<1_000 { blackHole(try! remote.put(StoreNote.number(index)).get()) }
                        run.stopClock()
                    }
                }
            }
        )
    }
}

/// The stores, server and clients of the pending-writes cases, made once (untimed), in a temporary directory
/// removed at the end of the run.
final class PendingWritesStores: Sendable {
    static let shared = PendingWritesStores()

    private struct Made: Sendable {
        var caches: [Library: any DataSource<StoreNote>] = [:]
        var offline: [Library: CacheRepository<StoreNote>] = [:]
        var syncs = 0
    }

    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("InteractorsBenchmarks-pending-\(UUID().uuidString)", isDirectory: true)
    private let made = Mutex(Made())
    private let server: LoopbackServer
    /// The client every case sends with: one `HTTPClient` to the loopback server.
    let client: HTTPClient
    let remote: RESTDataSource<StoreNote>
    private let down: RESTDataSource<StoreNote>

    private init() {
        server = try! LoopbackServer()
        client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        remote = RESTDataSource<StoreNote>(client: client, path: "notes")
        down = RESTDataSource<StoreNote>(
            client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:\(try! closedLoopbackPort())")!),
            path: "notes"
        )
        atexit { PendingWritesStores.shared.removeFiles() }
    }

    /// The file or SQLite cache of the offline-put rows, filled with 1,000 values.
    func cache(_ library: Library) -> any DataSource<StoreNote> {
        if let cache = made.withLock({ $0.caches[library] }) { return cache }
        let cache = makeStore(library, "put-\(library)")
        _ = try! cache.putAll((0..<1_000).map { StoreNote.number($0) }).get()
        made.withLock { $0.caches[library] = cache }
        return cache
    }

    /// A repository with `pendingWrites: .keep` over ``cache(_:)``, whose server refuses connections.
    func offlineRepository(_ library: Library) -> CacheRepository<StoreNote> {
        if let books = made.withLock({ $0.offline[library] }) { return books }
        let books = CacheRepository(main: down, cache: cache(library), pendingWrites: .keep)
        made.withLock { $0.offline[library] = books }
        return books
    }

    /// A repository over the loopback server and a fresh cache of `library` holding 1,000 pending puts.
    func syncingRepository(_ library: Library) -> CacheRepository<StoreNote> {
        let number = made.withLock { made in
            made.syncs += 1
            return made.syncs
        }
        let cache = makeStore(library, "sync-\(number)")
        let keep = CacheChange<StoreNote>(
            date: Date(),
            values: (0..<1_000).map { StoreNote.number($0, revision: number) },
            pendingWrites: .keep(
                lastError: DataError(code: .unavailable, message: "made by the benchmark"),
                unlessWrittenAfter: nil
            )
        )
        try! (cache as! any PendingWriteStore<StoreNote>).applyCacheChange(keep).get()
        return CacheRepository(main: remote, cache: cache, pendingWrites: .keep)
    }

    private func makeStore(_ library: Library, _ name: String) -> any DataSource<StoreNote> {
        let folder = directory.appendingPathComponent(name, isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch library {
        case .fileStore:
            return FileDataSource<StoreNote>(fileURL: folder.appendingPathComponent("notes.json"))
        case .sqliteStore:
            return try! SQLiteDataSource<StoreNote>(
                database: SQLiteDatabase(fileURL: folder.appendingPathComponent("notes.sqlite")),
                table: "notes"
            )
        default:
            return InMemoryDataSource<StoreNote>()
        }
    }

    func removeFiles() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
