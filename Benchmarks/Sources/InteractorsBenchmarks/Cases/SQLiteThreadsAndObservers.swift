import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Synchronization

extension BenchmarkCase {
    /// `SQLiteDataSource` under the two loads issues 26 and 27 name: a put with one `AllObjectsQuery` observer of
    /// 50,000 rows against a put with none (the observer's reads must stay off the writer's path), and a get with
    /// Dispatch's global pool saturated by the app's blocking jobs against one with it idle (the database's work
    /// runs on its own threads). SQLite's column only; each pair's target compares its two rows.
    static let sqliteThreadsAndObservers: [BenchmarkCase] = [
        observedPut(observers: 0),
        observedPut(observers: 1),
        poolGet(saturated: false),
        poolGet(saturated: true),
    ]

    private static let observedSize = 50_000

    /// One put replacing one of 50,000 notes, answered once durable, with `observers` observers of every note.
    private static func observedPut(observers: Int) -> BenchmarkCase {
        let id = "stores-observed-put-\(observers)"
        return BenchmarkCase(
            id: id,
            title: observers == 0
                ? "one `put`, 50,000 stored, no observer"
                : "one `put`, 50,000 stored, one `AllObjectsQuery` observer",
            iterations: 200,
            quickIterations: 20,
            table: .stores,
            samples: (full: 5, quick: 2),
            contenders: [
                .sync(
                    .sqliteStore,
                    observers == 0
                        ? "`put(note).get()`, replacing note i of 50,000"
                        : "the same, with `observe(AllObjectsQuery(), on: .immediate)` on the table meanwhile"
                ) { run in
                    let notes = ObservedStore.shared.notes
                    let observations = (0..<observers).map { _ in
                        notes.observe(AllObjectsQuery(), on: .immediate) { blackHole($0) }
                    }
                    run.startClock()
                    for index in 0..<run.iterations {
                        let note = StoreNote.number(index * 7_919 % observedSize, revision: index)
                        blackHole(try! notes.put(note).get())
                    }
                    for observation in observations { observation.cancel() }
                }
            ],
            targets: observers == 0
                ? []
                : [
                    .ratio(
                        id,
                        .sqliteStore,
                        to: .sqliteStore,
                        in: "stores-observed-put-0",
                        named: "without",
                        atMost: 2,
                        "observed put ≤ 2x a put without observers"
                    )
                ]
        )
    }

    /// One get by id from 10,000 notes, with Dispatch's global pool idle or saturated.
    private static func poolGet(saturated: Bool) -> BenchmarkCase {
        let id = saturated ? "stores-get-saturated" : "stores-get-idle"
        return BenchmarkCase(
            id: id,
            title: saturated
                ? "one `get`, 10,000 stored, Dispatch's pool saturated"
                : "one `get`, 10,000 stored, Dispatch's pool idle",
            iterations: 1_000,
            quickIterations: 100,
            table: .stores,
            contenders: [
                .sync(
                    .sqliteStore,
                    saturated
                        ? "`get(IdQuery(id)).get()` while 64 jobs block Dispatch's global pool"
                        : "`get(IdQuery(id)).get()`"
                ) { run in
                    let notes = StoreFixtures.shared.sqlite(10_000)
                    let load = saturated ? PoolSaturation() : nil
                    defer { load?.release() }
                    run.startClock()
                    for index in 0..<run.iterations {
                        blackHole(try! notes.get(IdQuery("note-\(index * 7 % 10_000)")).get())
                    }
                }
            ],
            targets: saturated
                ? [
                    .ratio(
                        id,
                        .sqliteStore,
                        to: .sqliteStore,
                        in: "stores-get-idle",
                        named: "idle",
                        atMost: 2,
                        "saturated get ≤ 2x a get with the pool idle (issue 27: within 0.5 s)"
                    )
                ]
                : []
        )
    }
}

/// The 50,000-note database of the observed-put rows, filled once (untimed), in a directory of its own removed
/// when the process exits.
private final class ObservedStore: Sendable {
    static let shared = ObservedStore()

    let notes: SQLiteDataSource<StoreNote>

    private init() {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("InteractorsBenchmarks-observed-\(UUID().uuidString)", isDirectory: true)
        observedDirectory.withLock { $0 = directory.path }
        atexit {
            if let path = observedDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        }
        do {
            let database = try SQLiteDatabase(fileURL: directory.appendingPathComponent("observed.sqlite"))
            notes = try SQLiteDataSource<StoreNote>(database: database, table: "notes")
            _ = try notes.putAll((0..<50_000).map { StoreNote.number($0) }).get()
        } catch {
            fatalError("cannot fill the observed store: \(error)")
        }
    }
}

private let observedDirectory = Mutex<String?>(nil)

/// Dispatch's global pool kept busy by the app's own blocking jobs: 64 jobs each waiting on a semaphore until
/// ``release()`` (on Linux the pool stops growing at a few threads on a 2-core machine, so work queued there
/// waits until they return).
private final class PoolSaturation: Sendable {
    private static let jobs = 64
    private let parked = DispatchSemaphore(value: 0)

    init() {
        for _ in 0..<Self.jobs {
            DispatchQueue.global().async { [parked] in _ = parked.wait(timeout: .now() + 120) }
        }
    }

    func release() {
        for _ in 0..<Self.jobs { parked.signal() }
    }
}
