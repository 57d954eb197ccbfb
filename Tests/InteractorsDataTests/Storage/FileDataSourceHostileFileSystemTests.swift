import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FileDataSource` on a file system others meddle with: a lock file that is a symbolic link, a lock file removed
/// or replaced while writers work, readers in several processes. Real files, real child processes.
@Suite(.onThreadsOfTheirOwn) struct FileDataSourceHostileFileSystemTests {
    @Test func aLockFileThatIsASymbolicLinkIsNeverFollowed() throws {
        let directory = try TemporaryDirectory()
        let victim = directory.file("victim.txt")
        let original = Data("a file the link points at: never to be written".utf8)
        try original.write(to: victim)
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("notes.json.lock").path,
            withDestinationPath: "victim.txt"
        )
        let notes = FileDataSource<Note>(fileURL: directory.file("notes.json"))

        for error in [notes.put(ada).dataError, notes.getAll(AllObjectsQuery()).dataError] {
            #expect(error?.code == .storageFailed)
            #expect(error?.message.contains("notes.json.lock") == true)
            #expect(error?.message.contains(directory.url.path) == false)
            #expect(error?.fileURL == directory.file("notes.json.lock"))
        }
        #expect(try Data(contentsOf: victim) == original)
        #expect(!FileManager.default.fileExists(atPath: directory.file("notes.json").path))
    }

    #if os(macOS) || os(Linux)  // child processes: Foundation's Process exists there only
    /// 400 durable writes by each process (100 under a sanitizer, see `volume`).
    @Test func twoProcessesLoseNothingWhileTheLockFileIsRemovedAndReplacedEveryMillisecond() throws {
        let writes = volume(400, underASanitizer: 100)
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let lockFile = directory.file("notes.json.lock")
        let writing = LockedBox(true)
        let meddler = Thread {
            var round = 0
            while writing.withLock({ $0 }) {
                if round % 2 == 0 {
                    unlink(lockFile.path)
                } else {  // replaced by a file of its own, renamed over it
                    let replacement = directory.file("replacement")
                    _ = FileManager.default.createFile(atPath: replacement.path, contents: Data(count: 16))
                    rename(replacement.path, lockFile.path)
                }
                round += 1
                usleep(1_000)
            }
        }
        meddler.start()
        let children = try ["a", "b"].map { prefix in
            try ChildProcess(
                executable: Fixtures.dataStoreExecutable,
                arguments: ["write", url.path, prefix, "\(writes)"]
            )
        }
        for child in children {
            // A guard against a hang only: 800 durable writes take about a minute under ThreadSanitizer alone, and
            // over two on a loaded machine (200 are written there).
            #expect(child.waitForLine(guardSeconds: 300) { $0 == "done" || $0.hasPrefix("error") } == "done")
            child.stop()
        }
        writing.withLock { $0 = false }

        let stored = try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get()
        #expect(stored.count == 2 * writes)
        let written = ["a", "b"].flatMap { prefix in (0..<writes).map { "\(prefix)-\($0)" } }
        #expect(Set(stored.map(\.id)) == Set(written))
    }
    #endif

    @Test func readersDoNotWaitForReadersButWritersDo() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url).put(ada).get()
        // Another process's reader: shared locks on the directory and on the lock file, held until released.
        let reader = try SharedLock(directory: directory.url, lockFile: directory.file("notes.json.lock"))

        #expect(try FileDataSource<Note>(fileURL: url).get(IdQuery("ada")).get(timeout: .seconds(20)) == ada)
        let written = DispatchSemaphore(value: 0)
        let put = FileDataSource<Note>(fileURL: url).put(grace).onCompletion { _ in written.signal() }
        #expect(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get(timeout: .seconds(20)) == [ada])
        #expect(written.wait(timeout: .now()) == .timedOut)  // the writer waits for the reader
        reader.release()
        #expect(try put.get(timeout: .seconds(20)) == grace)
    }

    /// Shared `flock`s on a directory and a lock file, as a reading `FileDataSource` of another process holds them.
    final class SharedLock {
        private let descriptors: [Int32]

        init(directory: URL, lockFile: URL) throws {
            descriptors = [open(directory.path, O_RDONLY), open(lockFile.path, O_RDONLY)]
            for descriptor in descriptors {
                guard descriptor >= 0, flock(descriptor, LOCK_SH) == 0 else { throw POSIXError(.EIO) }
            }
        }

        func release() {
            for descriptor in descriptors { close(descriptor) }
        }
    }

    // MARK: One bad value

    struct Reading: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var value: Double
    }

    @Test func aValueThatCannotBeEncodedFailsAloneAndTheWritesQueuedWithItGoThrough() throws {
        let directory = try TemporaryDirectory()
        let readings = FileDataSource<Reading>(fileURL: directory.file("readings.json"))
        let good = (0..<6).map { Reading(id: "r\($0)", value: Double($0)) }
        let bad = Reading(id: "broken", value: .nan)

        // Issued back to back, so they share one batch.
        let before = readings.put(good[0])
        let alone = readings.put(bad)
        let batch = readings.putAll(Array(good[1...]) + [bad])
        let after = readings.getAll(AllObjectsQuery())

        #expect(try before.get() == good[0])
        let error = try #require(alone.dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains("broken"))
        let partial = try #require(batch.dataError)
        #expect(partial.code == .partiallyApplied)
        #expect(partial.failedIDs == ["broken"])
        #expect((partial.underlying as? DataError)?.code == .mappingFailed)
        #expect(try after.get() == good)
        #expect(
            try FileDataSource<Reading>(fileURL: directory.file("readings.json")).getAll(AllObjectsQuery()).get()
                == good
        )
        #expect(readings.putAll([bad]).dataError?.code == .mappingFailed)  // nothing applied: its own failure
    }

    // MARK: Threads of its own

    #if os(Linux)  // thread names from /proc
    @Test func batchesRunOnAFewNamedThreadsOfTheLibrarysOwn() throws {
        let directory = try TemporaryDirectory()
        let stores = (0..<20).map { FileDataSource<Note>(fileURL: directory.file("notes-\($0).json")) }
        let responses = stores.map { $0.put(ada) }
        for response in responses { _ = try response.get() }
        let names = try #require(threadNamesInThisProcess())
        let storeThreads = names.filter { $0 == "ix.file-store" }.count
        #expect(storeThreads >= 1 && storeThreads <= 4)
    }
    #endif
}

extension FileDataSourceHostileFileSystemTests {
    /// With Dispatch's global pool saturated by the app's own blocking work, a file store still answers: its
    /// batches run on threads of the library's own. One saturated pool at a time in the process.
    @Suite(.serialized) struct WithTheGlobalPoolSaturated {
        @Test func getPutAndGetAllAnswerWithinTheirBound() throws {
            let directory = try TemporaryDirectory()
            let notes = FileDataSource<Note>(fileURL: directory.file("notes.json"))
            _ = try notes.put(ada).get()  // the file exists before the pool is parked
            try SaturatedPool.whileSaturated { pool in
                let bound: Duration = .seconds(3)
                let clock = ContinuousClock()
                func timed(_ call: () throws -> Bool) throws -> Duration {
                    let start = clock.now
                    #expect(try call())
                    return clock.now - start
                }
                let elapsed = [
                    try timed { try notes.put(grace).get(timeout: bound) == grace },
                    try timed { try notes.get(IdQuery("ada")).get(timeout: bound) == ada },
                    try timed { try notes.putAll([alan]).get(timeout: bound) == [alan] },
                    try timed { try notes.getAll(AllObjectsQuery()).get(timeout: bound).count == 3 },
                ]
                #expect(elapsed.allSatisfy { $0 < bound }, "\(elapsed)")
                #expect(pool.isStillSaturated)
            }
        }
    }
}
