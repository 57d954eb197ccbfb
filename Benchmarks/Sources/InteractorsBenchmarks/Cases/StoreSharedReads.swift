import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Synchronization

// MARK: One main-source read for many identical misses (issue 34 §1)
//
// 32 callers ask a `CacheRepository` for the same list at once (`.mainSync`, what 32 requests of a server for one
// cold page do), its main source a server that answers in 5 ms. The repository sends one read and gives its
// answer to all 32; the row's cells are the time until every caller has its answer, and its verdicts count the
// main-source reads a round sent, beside the 32 that 32 callers of the source itself send (counted untimed).

extension BenchmarkCase {
    static let storeSharedReads: [BenchmarkCase] = [sharedReads()]

    private static let callers = 32

    private static func sharedReads() -> BenchmarkCase {
        let id = "stores-shared-reads"
        return BenchmarkCase(
            id: id,
            title: "\(callers) concurrent `.mainSync` `getAll` of one list, a 5 ms main source (per round)",
            iterations: 20,
            quickIterations: 5,
            table: .stores,
            samples: (full: 5, quick: 2),
            contenders: [
                sharedReadsContender(.inMemoryStore, id, "an `InMemoryDataSource` cache") { InMemoryDataSource() },
                sharedReadsContender(.fileStore, id, "a `FileDataSource` cache") {
                    FileDataSource(fileURL: SharedReadsFiles.shared.file())
                },
                sharedReadsContender(.sqliteStore, id, "a `SQLiteDataSource` cache (in memory)") {
                    try! SQLiteDataSource(database: SQLiteDatabase.inMemory(), table: "notes")
                },
            ],
            targets: [Library.inMemoryStore, .fileStore, .sqliteStore].map { library -> Target in
                Target(statement: "\(library.shortTitle): 1 main-source read for \(callers) callers") { _ in
                    guard let reads = MainSourceReads.perRound(id, library) else { return nil }
                    let alone = MainSourceReads.perRound(id, nil).map { ", \(Int($0)) from the source itself" } ?? ""
                    return Target.Verdict(met: reads == 1, detail: "\(format(count: reads)) a round\(alone)")
                }
            }
        )
    }

    private static func sharedReadsContender(
        _ library: Library,
        _ id: String,
        _ cacheNote: String,
        _ cache: @escaping @Sendable () -> some DataSource<StoreNote>
    ) -> Contender {
        .sync(library, "`CacheRepository` over the 5 ms main source and \(cacheNote): \(callers) calls at once") {
            run in
            // For the verdict, untimed: the reads 32 callers of the main source itself send.
            let alone = SlowMainSource()
            let direct = (0..<callers).map { _ in alone.getAll(AllObjectsQuery()) }
            for read in direct { blackHole(try! read.get()) }
            MainSourceReads.record(id, nil, alone.reads, rounds: 1)
            let main = SlowMainSource()
            let cache = cache()
            run.startClock()
            for _ in 0..<run.iterations {
                let notes = CacheRepository(main: main, cache: cache)
                let reads = (0..<callers).map { _ in notes.getAll(AllObjectsQuery(), operation: .mainSync) }
                for read in reads { blackHole(try! read.get()) }
            }
            run.stopClock()
            MainSourceReads.record(id, library, main.reads, rounds: run.iterations)
        }
    }
}

/// A main source that answers every read 5 ms later, as a server on the network would, and counts the reads.
private final class SlowMainSource: DataSource {
    typealias Value = StoreNote

    private let count = Atomic<Int>(0)
    private let notes = (0..<50).map { StoreNote.number($0) }

    var reads: Int { count.load(ordering: .relaxed) }

    func getAll(_ query: any Query) -> Response<[StoreNote]> {
        count.add(1, ordering: .relaxed)
        return Response(value: notes).delay(by: .milliseconds(5))
    }

    func get(_ query: any Query) -> Response<StoreNote> { Response(value: notes[0]) }
    func put(_ value: StoreNote) -> Response<StoreNote> { Response(value: value) }
    func putAll(_ values: [StoreNote]) -> Response<[StoreNote]> { Response(value: values) }
    func delete(_ query: any Query) -> Response<Void> { Response(value: ()) }
    func deleteAll(_ query: any Query) -> Response<Void> { Response(value: ()) }
}

/// The main-source reads each contender's samples sent, per round, for the verdicts.
private enum MainSourceReads {
    private static let samples = Mutex([String: [Double]]())

    /// Records a sample of `library`'s reads (nil: the main source called directly).
    static func record(_ caseID: String, _ library: Library?, _ reads: Int, rounds: Int) {
        let key = "\(caseID) \(library?.title ?? "direct")"
        samples.withLock { $0[key, default: []].append(Double(reads) / Double(rounds)) }
    }

    /// The median of the samples' reads per round.
    static func perRound(_ caseID: String, _ library: Library?) -> Double? {
        let sorted = samples.withLock { $0["\(caseID) \(library?.title ?? "direct")"] }?.sorted()
        guard let sorted, !sorted.isEmpty else { return nil }
        return sorted[sorted.count / 2]
    }
}

/// Where the file caches of these rows live: removed at the end of the run.
final class SharedReadsFiles: Sendable {
    static let shared = SharedReadsFiles()

    private let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("InteractorsBenchmarks-shared-reads-\(UUID().uuidString)", isDirectory: true)

    /// A new file in the directory.
    func file() -> URL {
        directory.appendingPathComponent("\(UUID().uuidString).json")
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}
