import Foundation
import Interactors

/// The threads every ``FileDataSource`` of the process runs its batches and answers on: four while nothing blocks,
/// named `ix.file-store`, started on demand and kept, off Dispatch's global pool (which the app's own blocking work
/// can fill for tens of seconds); one whose answer's handler or stage blocks in a library wait is replaced
/// meanwhile (`WorkerPool`). A store's batches run one at a time, in order, on whichever of them is free.
let fileStoreThreads = WorkerPool(name: "ix.file-store", threads: 4)

/// The file behind a ``FileDataSource``: a queue of operations, applied in call order, with the writes that
/// queued up meanwhile committed together in one atomic write (group commit).
///
/// Why a pipeline rather than a lock around each operation: every write rewrites the whole file and syncs it, so
/// eight threads putting at once would write it eight times; here they share one write, and none of them returns
/// before it is on disk. Operations are applied strictly in the order they were called, so a `get` called after
/// a `put` sees it, even if nobody waited for the `put`. A batch applies its operations to one working copy of
/// the collection (an operation's body throws before it changes anything, so none needs a copy of its own) and
/// encodes and writes it once.
///
/// Every batch holds the file's lock (``FileLock``) from reading the file to replacing it: shared if it only reads,
/// exclusive if it writes, so other instances and other processes take turns instead of overwriting each other's
/// changes. The collection read from the file is kept and reused only while the lock's token and the file's
/// identity are the ones last seen, so another writer's change, or a file damaged on disk, is noticed.
///
/// Batches run on ``fileStoreThreads``; at most one of a store's is scheduled at a time. A batch answers its
/// callers only once the file's locks are released and the next batch is scheduled: their code (a handler, a
/// stage) may then call this store, or another in the same directory, and wait for the answer.
final class FileStore<Value: Codable & Identifiable & Sendable>: @unchecked Sendable where Value.ID: Sendable {
    // @unchecked Sendable: `cached`, `hasCleanedUp` and `reportedCorruption` are read and written only by
    // `commit`, and a store's commits never overlap (`queue.isScheduled`): each runs after the last one handed its
    // turn over under `queue`'s lock, which orders their memory.
    let url: URL
    let name: String
    private let corruptFile: FileDataSource<Value>.CorruptFile
    private let queue = LockedBox(Queue())
    private let answers = AnswerRelay(pool: fileStoreThreads)
    private var cached: (target: URL, identity: FileIdentity, token: [UInt8], collection: ValueCollection<Value>)?
    private var hasCleanedUp = false
    private var reportedCorruption = false

    private struct Queue {
        var pending: [PendingOperation<Value>] = []
        /// Whether a batch of this store is scheduled or running.
        var isScheduled = false
    }

    init(url: URL, corruptFile: FileDataSource<Value>.CorruptFile) {
        self.url = url
        self.name = "FileDataSource \(url.lastPathComponent)"
        self.corruptFile = corruptFile
    }

    /// Answers with what `body` reads from the collection, in call order with the other operations.
    func read<T: Sendable>(_ body: @escaping @Sendable (ValueCollection<Value>) throws -> T) -> Response<T> {
        enqueue(isWrite: false) { collection in try body(collection) }
    }

    /// Applies `body` to the collection and answers once the result is on disk. `body` must throw before it
    /// changes anything: what it throws fails its response and leaves the collection as it was.
    func write<T: Sendable>(_ body: @escaping @Sendable (inout ValueCollection<Value>) throws -> T) -> Response<T> {
        enqueue(isWrite: true, body)
    }

    private func enqueue<T: Sendable>(
        isWrite: Bool,
        _ body: @escaping @Sendable (inout ValueCollection<Value>) throws -> T
    ) -> Response<T> {
        let (response, resolver) = Response<T>.makePending()
        let operation = PendingOperation(isWrite: isWrite, body: body, resolver: resolver) { [url] error in
            (error as? DataError)?.concerning(url) ?? error
        }
        let schedule = queue.withLock { queue in
            queue.pending.append(operation)
            let isIdle = !queue.isScheduled
            queue.isScheduled = true
            return isIdle
        }
        if schedule { fileStoreThreads.submit { self.runBatch() } }
        return response
    }

    /// Commits what is pending, hands the turn to the next batch (or gives it up if nothing came meanwhile), and
    /// only then answers.
    ///
    /// Answering runs the callers' code (an `.immediate` handler, a `flatMap` stage), which may call this store or
    /// another one in the same directory and wait for it: by then the file's locks are released (`commit` has
    /// returned) and the turn is handed on, so such a call is queued and run like any other, never behind the
    /// batch that answers it. One caller's code that blocks holds up no other caller's answer (``AnswerRelay``).
    private func runBatch() {
        let operations = queue.withLock { queue in
            defer { queue.pending.removeAll() }
            return queue.pending
        }
        let answers = commit(operations)
        let again = queue.withLock { queue in
            queue.isScheduled = !queue.pending.isEmpty
            return queue.isScheduled
        }
        if again { fileStoreThreads.submit { self.runBatch() } }
        self.answers.deliver(answers)
    }

    // MARK: Committing a batch

    /// The file of a batch, locked, and its collection.
    private struct Opened {
        let target: URL
        let lock: FileLock?
        let token: [UInt8]
        var collection: ValueCollection<Value>
    }

    /// Resolves the file, takes its lock (exclusive for `hasWrites`, or to move a corrupt file aside) and loads its
    /// collection.
    private func open(forWriting hasWrites: Bool) throws -> Opened {
        let target = try FileLocation.resolve(url)
        if hasWrites { try Self.createDirectory(of: target) }
        var exclusive = hasWrites
        while true {
            let lock = try FileLock.acquire(for: target, exclusive: exclusive, required: hasWrites)
            if exclusive, lock != nil, !hasCleanedUp {
                // Holding the exclusive lock: no writer that takes it is half-way.
                FileLocation.removeStaleTemporaryFiles(of: target)
                hasCleanedUp = true
            }
            let token = lock?.token() ?? []
            guard let collection = try load(target, token: token, exclusive: exclusive) else {
                exclusive = true  // a corrupt file to move aside, under a shared lock: again, exclusive
                continue
            }
            return Opened(target: target, lock: lock, token: token, collection: collection)
        }
    }

    /// Applies `operations` in order, holding the lock, and writes the file once if any write succeeded; answers
    /// how to answer each operation, to run once the lock is released.
    ///
    /// A write begins here, so its response is committed to its outcome (``Resolver/commitToOutcome()``): from
    /// now on a cancellation is ignored and the caller hears what became of it. One cancelled while it was
    /// queued is withdrawn, and so is a read nobody waits for any more.
    private func commit(_ operations: [PendingOperation<Value>]) -> [@Sendable () -> Void] {
        guard !operations.isEmpty else { return [] }
        let opened: Opened
        do {
            opened = try open(forWriting: operations.contains { $0.isWrite })
        } catch {
            return operations.map { operation in { operation.fail(error) } }
        }
        return apply(operations, to: consume opened)
    }

    /// Applies `operations` to `opened`'s collection and saves it; the lock `opened` holds is released when this
    /// returns, before anyone is answered.
    private func apply(_ operations: [PendingOperation<Value>], to opened: consuming Opened) -> [@Sendable () -> Void] {
        let (target, lock, token) = (opened.target, opened.lock, opened.token)
        var collection = opened.collection
        opened.collection = ValueCollection()  // one copy, changed in place
        var outcomes: [PendingOutcome] = []
        var firstWrite: Int?
        for operation in operations where operation.begin() {
            let outcome = operation.apply(to: &collection)
            if operation.isWrite, outcome.succeeded, firstWrite == nil { firstWrite = outcomes.count }
            outcomes.append(outcome)
        }
        if let firstWrite {
            collection.compact()  // the file refers to values by place
            do {
                try save(collection, to: target, lock: lock)
            } catch {
                // Nothing from the first write on reached the disk, and the reads after it saw unsaved values.
                return outcomes[..<firstWrite].map(\.deliver)
                    + outcomes[firstWrite...].map { outcome in
                        { outcome.fail(error) }
                    }
            }
        } else {
            // Nothing changed it (a write that fails changes nothing): the next batch may reuse it, still holding
            // the lock, so nobody replaced the file meanwhile.
            keep(collection, of: target, token: token)
        }
        return outcomes.map(\.deliver)
    }

    // MARK: Reading and writing the file

    /// The values of `values` that cannot be encoded, each with its ``DataError/Code/mappingFailed``: checked by a
    /// write before it changes anything, so that one bad value fails alone instead of the batch's whole file.
    func encodingFailures(of values: [Value]) -> [(id: Value.ID, error: DataError)] {
        let encoder = JSONEncoder()
        var failures: [(id: Value.ID, error: DataError)] = []
        for value in values {
            do {
                _ = try encoder.encode(value)
            } catch {
                failures.append(
                    (
                        value.id,
                        DataError(
                            code: .mappingFailed,
                            message: "cannot encode \(Value.self) with id \(value.id) for \(url.lastPathComponent)",
                            underlying: error
                        )
                    )
                )
            }
        }
        return failures
    }

    /// The collection in `target`: the one kept from the last batch if nobody changed the file since, else read
    /// from the file. Taken out of `cached`, so the batch changes it in place without copying it. Nil if the file
    /// must be moved aside and the lock is not `exclusive`.
    private func load(_ target: URL, token: [UInt8], exclusive: Bool) throws(DataError) -> ValueCollection<Value>? {
        let kept = cached
        cached = nil
        guard let identity = try FileIdentity(target) else { return ValueCollection() }
        if let kept, kept.target == target, kept.identity == identity, !token.isEmpty, kept.token == token {
            return kept.collection
        }
        do {
            return try StoredCollection<Value>.read(from: target)
        } catch let error where error.code == .corruptStore && corruptFile == .moveAside {
            guard exclusive else { return nil }
            let destination = try FileLocation.moveAside(target)
            if !reportedCorruption {
                reportedCorruption = true
                writeToStandardError(
                    "InteractorsData: \(target.path) was not a readable collection of \(Value.self); "
                        + "moved it aside to \(destination.lastPathComponent) and started empty"
                )
            }
            return ValueCollection()
        }
    }

    private func save(_ collection: ValueCollection<Value>, to target: URL, lock: FileLock?) throws(DataError) {
        let data = try StoredCollection<Value>.encode(collection, for: target)
        try AtomicFile.write(data, to: target)
        keep(collection, of: target, token: lock?.replaceToken() ?? [])
    }

    /// Keeps `collection`, as `target` holds it now, for the next batch: it is reused while the lock's token is
    /// `token` and the file's identity what it is now.
    private func keep(_ collection: ValueCollection<Value>, of target: URL, token: [UInt8]) {
        if let identity = try? FileIdentity(target) { cached = (target, identity, token, collection) }
    }

    private static func createDirectory(of target: URL) throws(DataError) {
        let directory = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DataError(
                code: .storageFailed,
                message: "cannot create the directory \(directory.lastPathComponent) of \(target.lastPathComponent)",
                underlying: error,
                fileURL: target
            )
        }
    }
}
