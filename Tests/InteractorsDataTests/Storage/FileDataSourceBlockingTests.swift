import DataTestSupport
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

/// A handler or a stage may block on the library, the file store included (issue 32): a store answers only once
/// the file's locks are released and its next batch is scheduled, and one caller's blocked code holds up nobody
/// else's answer. Each inner wait is bounded, so a deadlock shows as a timeout, not a hang.
@Suite(.onThreadsOfTheirOwn) struct FileDataSourceBlockingTests {
    /// How long an inner call may take before the test counts it as stuck.
    static let bound: Duration = .seconds(5)

    @Test func aStageAfterAPutReadsAnotherStoreInTheSameDirectory() throws {
        let directory = try TemporaryDirectory()
        let first = FileDataSource<Note>(fileURL: directory.file("first.json"))
        let second = FileDataSource<Note>(fileURL: directory.file("second.json"))
        _ = try second.put(grace).get()
        let read = try DirectoryLock.holding(directory.url) {
            first.put(ada).map { _ in try second.get(IdQuery("grace")).get(timeout: Self.bound) }
        }
        #expect(try read.get(timeout: .seconds(20)) == grace)
    }

    @Test func aStageAfterAFailedSaveReadsAnotherStoreInTheSameDirectory() throws {
        let directory = try TemporaryDirectory()
        // A name the file system takes but whose temporary file (`<name>.<pid>-<random>.tmp`) is too long: every
        // save of this store fails, with its locks taken.
        let failing = FileDataSource<Note>(fileURL: directory.file(String(repeating: "n", count: 240) + ".json"))
        let second = FileDataSource<Note>(fileURL: directory.file("second.json"))
        _ = try second.put(grace).get()
        let (put, read) = try DirectoryLock.holding(directory.url) {
            let put = failing.put(ada)
            let read = put.map { _ in }.recover { _ in }.map { _ in
                Result { try second.get(IdQuery("grace")).get(timeout: Self.bound) }
            }
            return (put, read)
        }
        let inner = try read.get(timeout: .seconds(20))
        #expect((put.error as? DataError)?.code == .storageFailed, "\(put)")
        #expect((try? inner.get()) == grace, "\(inner)")
    }

    @Test func anImmediateHandlerRegisteredBeforeTheAnswerWaitsOnTheSameStore() throws {
        let directory = try TemporaryDirectory()
        let notes = FileDataSource<Note>(fileURL: directory.file("notes.json"))
        let inner = LockedBox<Result<Note, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let put = try DirectoryLock.holding(directory.url) {
            // The batch waits for the directory's lock: the handler is surely registered before the answer.
            let put = notes.put(ada)
            put.onResult(on: .immediate) { _ in
                inner.withLock { $0 = Result { try notes.get(IdQuery("ada")).get(timeout: Self.bound) } }
                done.signal()
            }
            return put
        }
        #expect(try put.get(timeout: .seconds(20)) == ada)
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect((try? inner.withLock { $0 }?.get()) == ada, "\(String(describing: inner.withLock { $0 }))")
    }

    @Test func aStageRegisteredBeforeTheAnswerWaitsOnTheSameStore() throws {
        let directory = try TemporaryDirectory()
        let notes = FileDataSource<Note>(fileURL: directory.file("notes.json"))
        let read = try DirectoryLock.holding(directory.url) {
            notes.put(ada).flatMap { _ in Response(value: try notes.put(grace).get(timeout: Self.bound)) }
        }
        #expect(try read.get(timeout: .seconds(20)) == grace)
        #expect(try notes.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    /// Four stages that block held the four `ix.file-store` threads, and nothing answered until their own limits
    /// ran out. Here 64 handlers and stages block at once, each on a response the test settles later, and every
    /// other call of the same store, of another store in the same directory and of one elsewhere answers as it
    /// does with none blocked.
    @Test func sixtyFourBlockedHandlersAndStagesHoldUpNoOtherCall() throws {
        let directory = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        let busy = FileDataSource<Note>(fileURL: directory.file("busy.json"))
        let neighbour = FileDataSource<Note>(fileURL: directory.file("neighbour.json"))
        let distant = FileDataSource<Note>(fileURL: elsewhere.file("distant.json"))
        for store in [busy, neighbour, distant] { _ = try store.put(ada).get() }
        let counter = LockedBox(0)
        // Each call bounded: a stuck one counts as over the bound, and the test goes on.
        let calls: [(name: String, call: () -> Void)] = [
            ("busy get", { _ = try? busy.get(IdQuery("ada")).get(timeout: .seconds(2)) }),
            (
                "neighbour put",
                {
                    let id = counter.withLock {
                        $0 += 1
                        return $0
                    }
                    _ = try? neighbour.put(Note(id: "n\(id)", text: "x")).get(timeout: .seconds(2))
                }
            ),
            ("neighbour get", { _ = try? neighbour.get(IdQuery("ada")).get(timeout: .seconds(2)) }),
            ("distant get", { _ = try? distant.get(IdQuery("ada")).get(timeout: .seconds(2)) }),
        ]
        let unblocked = calls.map { Latencies(of: 15, $0.call) }

        // The store's batch waits for the directory's lock until the last put is issued: every handler and stage is
        // added before its answer, so each runs where the store answers, never on the test's thread.
        let lock = try DirectoryLock(directory.url)
        let blocked = BlockedStages(answersOf: 64) { index in
            busy.put(Note(id: "held-\(index)", text: "x"))
        } issued: {
            lock.release()
        }
        defer { blocked.release() }
        #expect(blocked.allEntered)
        expectWithinTheBound(calls, of: unblocked)
    }
}

/// The exclusive `flock` a file store takes on the directory of its file, held by the test: the store's next batch
/// waits for it.
final class DirectoryLock: Sendable {
    private let descriptor: Int32

    init(_ directory: URL) throws {
        descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw POSIXError(.EIO) }
    }

    /// Releases the lock; once only.
    func release() {
        close(descriptor)
    }

    /// Runs `body` holding the lock.
    static func holding<T>(_ directory: URL, _ body: () throws -> T) throws -> T {
        let lock = try DirectoryLock(directory)
        defer { lock.release() }
        return try body()
    }
}
