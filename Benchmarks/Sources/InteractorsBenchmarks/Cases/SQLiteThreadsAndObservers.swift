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

    /// One put replacing one of 50,000 notes, answered once durable, with `observers` observers of every note
    /// reading meanwhile. One put per sample and many samples, so the row's median is the median put (what issue
    /// 26 compares), not the mean of a batch, which the observer's rare slow puts would weigh on.
    private static func observedPut(observers: Int) -> BenchmarkCase {
        let id = "stores-observed-put-\(observers)"
        return BenchmarkCase(
            id: id,
            title: observers == 0
                ? "one `put`, 50,000 stored, no observer"
                : "one `put`, 50,000 stored, one `AllObjectsQuery` observer",
            iterations: 1,
            quickIterations: 1,
            table: .stores,
            samples: (full: 401, quick: 41),
            contenders: [
                .sync(
                    .sqliteStore,
                    observers == 0
                        ? "`put(note).get()`, replacing note i of 50,000 (in /dev/shm: no sync cost)"
                        : "the same, while `observe(AllObjectsQuery(), on: .immediate)` reads the table after the commits"
                ) { run in
                    let store = ObservedStore.shared
                    store.observe(observers > 0)
                    let note = store.nextNote()
                    run.startClock()
                    blackHole(try! store.notes.put(note).get())
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
                        "median put with one observer ≤ 2x without"
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
                        ? "`get(IdQuery(id)).get(timeout: .seconds(30))` while 64 jobs block Dispatch's global pool"
                        : "`get(IdQuery(id)).get(timeout: .seconds(30))` (a timed wait never runs the read itself)"
                ) { run in
                    let notes = StoreFixtures.shared.sqlite(10_000)
                    let load = saturated ? PoolSaturation() : nil
                    defer { load?.release() }
                    run.startClock()
                    for index in 0..<run.iterations {
                        blackHole(try! notes.get(IdQuery("note-\(index * 7 % 10_000)")).get(timeout: .seconds(30)))
                    }
                }
            ],
            targets: saturated ? [withinHalfASecond(of: "stores-get-idle", id)] : []
        )
    }
}

extension BenchmarkCase {
    /// Issue 27's target: the case's SQLite median within 0.5 s of the reference case's (the verdict gives the
    /// ratio too).
    fileprivate static func withinHalfASecond(of reference: String, _ caseID: String) -> Target {
        Target(statement: "saturated get within 0.5 s of the idle one") { results in
            guard let ours = results[caseID, .sqliteStore], let idle = results[reference, .sqliteStore] else {
                return nil
            }
            let extra = ours.nanoseconds - idle.nanoseconds
            return Target.Verdict(
                met: extra <= 500_000_000,
                detail:
                    "\(format(nanoseconds: max(0, extra))) more, \(format(ratio: ours.nanoseconds / idle.nanoseconds)) idle"
            )
        }
    }
}

/// The 50,000-note database of the observed-put rows, filled once (untimed), in a directory of its own removed
/// when the process exits; and its one observation, kept across the observed row's samples, so that its reads run
/// beside the puts as they would in an app, and cancelled for the row without.
private final class ObservedStore: Sendable {
    static let shared = ObservedStore()

    let notes: SQLiteDataSource<StoreNote>
    private let observation = Mutex<DataObservation?>(nil)
    private let counter = Mutex(0)

    private init() {
        // In memory-backed /dev/shm where there is one: a sync there costs nothing, so the two rows' ratio shows
        // what the observer costs a put, not the disk's noise (a sync on this machine's shared disk varies 20x).
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent(
            "InteractorsBenchmarks-observed-\(UUID().uuidString)",
            isDirectory: true
        )
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

    /// The next note to put: one of the 50,000, at a new revision.
    func nextNote() -> StoreNote {
        let index = counter.withLock { counter in
            counter += 1
            return counter
        }
        return StoreNote.number(index * 7_919 % 50_000, revision: index)
    }

    /// Starts the observation (waiting, untimed, for its first answer) if `observing` and none runs; cancels it if
    /// not.
    func observe(_ observing: Bool) {
        guard observing else {
            let cancelled = observation.withLock { observation in
                defer { observation = nil }
                return observation
            }
            cancelled?.cancel()
            return
        }
        guard observation.withLock({ $0 }) == nil else { return }
        let first = DispatchSemaphore(value: 0)
        let told = Mutex(false)
        let started = notes.observe(AllObjectsQuery(), on: .immediate) { answer in
            blackHole(answer)
            let isFirst = told.withLock { told in
                defer { told = true }
                return !told
            }
            if isFirst { first.signal() }
        }
        _ = first.wait(timeout: .now() + 60)
        observation.withLock { $0 = started }
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
