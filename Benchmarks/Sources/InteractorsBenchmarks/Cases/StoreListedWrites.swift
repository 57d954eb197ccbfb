import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BenchmarkCase {
    /// Writes through a `CacheRepository` whose cache holds a list of every value ("Offline-first with local
    /// edits", §2): a put with a cached list of 100,000 ids against the same put without a list, for the file and
    /// SQLite stores; and a delete (with the put that restores it) in an in-memory cache of 40,000 values and a
    /// list of them. The targets compare processor time (the process's user and system time over the timed loop,
    /// so the fsync each write waits for counts only as the work it costs); the table's cells are wall time.
    static let storeListedWrites: [BenchmarkCase] = [
        repositoryPut(listed: false),
        repositoryPut(listed: true),
        plainDelete(),
        repositoryDelete(),
    ]

    private static let listedSize = 100_000
    private static let deleteSize = 40_000

    private static func repositoryPut(listed: Bool) -> BenchmarkCase {
        let id = listed ? "stores-repository-put-listed-100000" : "stores-repository-put-100000"
        let size = listedSize
        return BenchmarkCase(
            id: id,
            title: listed
                ? "a repository `put`, 100,000 stored and a cached list of them"
                : "a repository `put`, 100,000 stored, no list",
            iterations: 5,
            quickIterations: 2,
            table: .stores,
            samples: (full: 5, quick: 2),
            skippedInQuickMode: true,
            contenders: [
                listedContender(.fileStore, id, "`CacheRepository.put(note).get()` over a `FileDataSource` cache") {
                    ListedStores.shared.file(listed: listed)
                },
                listedContender(.sqliteStore, id, "`CacheRepository.put(note).get()` over a `SQLiteDataSource` cache") {
                    ListedStores.shared.sqlite(listed: listed)
                },
            ],
            targets: listed
                ? [.fileStore, .sqliteStore].map { library in
                    Target.processorTime(
                        id,
                        library,
                        to: "stores-repository-put-100000",
                        atMost: 2,
                        "\(library.shortTitle): ≤ 2x processor time of the same put without a list"
                    )
                } : []
        )

        func listedContender(
            _ library: Library,
            _ id: String,
            _ note: String,
            _ repository: @escaping @Sendable () -> CacheRepository<StoreNote>
        ) -> Contender {
            .sync(library, note) { run in
                let books = repository()
                let processor = ProcessorClock(run)
                for index in 0..<run.iterations {
                    blackHole(try! books.put(StoreNote.number(index * 7_919 % size, revision: index)).get())
                }
                processor.record(id, library)
            }
        }
    }

    private static func plainDelete() -> BenchmarkCase {
        let id = "stores-delete-40000"
        let size = deleteSize
        return BenchmarkCase(
            id: id,
            title: "one `delete` and the `put` back, 40,000 stored",
            iterations: 1_000,
            quickIterations: 100,
            table: .stores,
            samples: (full: 5, quick: 2),
            contenders: [
                .sync(.inMemoryStore, "`delete(IdQuery(id))` then `put(note)` on the store") { run in
                    let store = ListedStores.shared.plainInMemory()
                    let processor = ProcessorClock(run)
                    for index in 0..<run.iterations {
                        let note = StoreNote.number(index * 7_919 % size)
                        try! store.delete(IdQuery(note.id)).get()
                        blackHole(try! store.put(note).get())
                    }
                    processor.record(id, .inMemoryStore)
                }
            ]
        )
    }

    private static func repositoryDelete() -> BenchmarkCase {
        let id = "stores-repository-delete-40000"
        let size = deleteSize
        return BenchmarkCase(
            id: id,
            title: "a repository `delete` and the `put` back, 40,000 cached in a list",
            iterations: 200,
            quickIterations: 20,
            table: .stores,
            samples: (full: 5, quick: 2),
            contenders: [
                .sync(.inMemoryStore, "`delete(IdQuery(id))` then `put(note)` through a `CacheRepository`") { run in
                    let books = ListedStores.shared.inMemory()
                    let processor = ProcessorClock(run)
                    for index in 0..<run.iterations {
                        let note = StoreNote.number(index * 7_919 % size)
                        try! books.delete(IdQuery(note.id)).get()
                        blackHole(try! books.put(note).get())
                    }
                    processor.record(id, .inMemoryStore)
                }
            ]
        )
    }
}

/// The caches of these cases, filled once (untimed): the file and SQLite ones with 100,000 values, with and without
/// a list of all of them, and in-memory ones with 40,000 values, plain and in a list. Each repository's main
/// source is an in-memory store holding the same values.
final class ListedStores: Sendable {
    static let shared = ListedStores()

    private struct Filled: Sendable {
        var file: [Bool: CacheRepository<StoreNote>] = [:]
        var sqlite: [Bool: CacheRepository<StoreNote>] = [:]
        var inMemory: CacheRepository<StoreNote>?
        var plainInMemory: InMemoryDataSource<StoreNote>?
    }

    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("InteractorsBenchmarks-listed-\(UUID().uuidString)", isDirectory: true)
    private let filled = Mutex(Filled())

    private init() {
        atexit { ListedStores.shared.removeFiles() }
    }

    func file(listed: Bool) -> CacheRepository<StoreNote> {
        if let books = filled.withLock({ $0.file[listed] }) { return books }
        let cache = FileDataSource<StoreNote>(fileURL: folder("file-\(listed)").appendingPathComponent("notes.json"))
        let books = fill(cache, count: 100_000, listed: listed)
        filled.withLock { $0.file[listed] = books }
        return books
    }

    func sqlite(listed: Bool) -> CacheRepository<StoreNote> {
        if let books = filled.withLock({ $0.sqlite[listed] }) { return books }
        let cache = try! SQLiteDataSource<StoreNote>(
            database: SQLiteDatabase(fileURL: folder("sqlite-\(listed)").appendingPathComponent("notes.sqlite")),
            table: "notes"
        )
        let books = fill(cache, count: 100_000, listed: listed)
        filled.withLock { $0.sqlite[listed] = books }
        return books
    }

    func inMemory() -> CacheRepository<StoreNote> {
        if let books = filled.withLock({ $0.inMemory }) { return books }
        let books = fill(InMemoryDataSource<StoreNote>(), count: 40_000, listed: true)
        filled.withLock { $0.inMemory = books }
        return books
    }

    func plainInMemory() -> InMemoryDataSource<StoreNote> {
        if let store = filled.withLock({ $0.plainInMemory }) { return store }
        let store = InMemoryDataSource<StoreNote>()
        _ = try! store.putAll((0..<40_000).map { StoreNote.number($0) }).get()
        filled.withLock { $0.plainInMemory = store }
        return store
    }

    /// A repository over a main source of `count` notes and `cache`, which holds them: stored by a refresh of
    /// everything (a list of every id, each value with its time) if `listed`, else put plainly (no list).
    private func fill(_ cache: some CacheIndexStore<StoreNote>, count: Int, listed: Bool) -> CacheRepository<StoreNote>
    {
        let notes = (0..<count).map { StoreNote.number($0) }
        let main = InMemoryDataSource<StoreNote>()
        _ = try! main.putAll(notes).get()
        let books = CacheRepository(main: main, cache: cache)
        if listed {
            _ = try! books.getAll(AllObjectsQuery(), operation: .mainSync).get()
        } else {
            _ = try! cache.putAll(notes).get()
        }
        return books
    }

    private func folder(_ name: String) -> URL {
        let folder = directory.appendingPathComponent(name, isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The process's processor time (user and system, every thread) over a contender's timed loop, kept per case and
/// library for the targets: the median per operation of the samples.
struct ProcessorClock {
    private static let samples = Mutex([String: [Double]]())
    private let run: Run
    private let start: Double

    init(_ run: Run) {
        self.run = run
        run.startClock()
        start = Self.now()
    }

    /// Records the time per operation since `init` (a run that counts allocations is not timed).
    func record(_ caseID: String, _ library: Library) {
        let elapsed = Self.now() - start
        run.stopClock()
        guard !run.countsAllocations else { return }
        let perOperation = elapsed / Double(run.iterations)
        Self.samples.withLock { $0["\(caseID) \(library.title)", default: []].append(perOperation) }
    }

    /// The median processor nanoseconds per operation of `library` in `caseID`.
    static func median(_ caseID: String, _ library: Library) -> Double? {
        let sorted = samples.withLock { $0["\(caseID) \(library.title)"] }?.sorted()
        guard let sorted, !sorted.isEmpty else { return nil }
        return sorted[sorted.count / 2]
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
}

extension Target {
    /// `library`'s processor time per operation in `caseID`, divided by its processor time in `referenceCase`, is
    /// at most `limit`.
    static func processorTime(
        _ caseID: String,
        _ library: Library,
        to referenceCase: String,
        atMost limit: Double,
        _ statement: String
    ) -> Target {
        Target(statement: statement) { _ in
            guard let ours = ProcessorClock.median(caseID, library),
                let theirs = ProcessorClock.median(referenceCase, library)
            else { return nil }
            let ratio = ours / theirs
            return Verdict(
                met: ratio <= limit,
                detail: "\(format(ratio: ratio)) processor time (\(format(nanoseconds: ours)) against "
                    + "\(format(nanoseconds: theirs)))"
            )
        }
    }
}
