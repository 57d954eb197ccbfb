import Dispatch
import Foundation
import Interactors

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
/// Every batch holds the exclusive lock on the file's sidecar (``FileLock``), from reading the file to replacing
/// it, so other instances and other processes take turns instead of overwriting each other's changes. The
/// collection read from the file is kept and reused only while the lock's token and the file's identity are the
/// ones last seen, so another writer's change, or a file damaged on disk, is noticed.
final class FileStore<Value: Codable & Identifiable & Sendable>: @unchecked Sendable where Value.ID: Sendable {
    // @unchecked Sendable: `cached`, `isFirstBatch` and `reportedCorruption` are read and written only by
    // `commit`, which runs on the serial `queue`; `pending` is guarded by its own lock.
    let url: URL
    let name: String
    private let corruptFile: FileDataSource<Value>.CorruptFile
    private let queue: DispatchQueue
    private let pending = LockedBox([PendingOperation<Value>]())
    private var cached: (target: URL, identity: FileIdentity, token: [UInt8], collection: ValueCollection<Value>)?
    private var isFirstBatch = true
    private var reportedCorruption = false

    init(url: URL, corruptFile: FileDataSource<Value>.CorruptFile) {
        self.url = url
        self.name = "FileDataSource at \(url.path)"
        self.corruptFile = corruptFile
        self.queue = DispatchQueue(label: "InteractorsData.FileDataSource \(url.lastPathComponent)")
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
        pending.withLock { $0.append(PendingOperation(isWrite: isWrite, body: body, resolver: resolver)) }
        queue.async { self.commit() }
        return response
    }

    // MARK: Committing a batch

    /// Applies every pending operation in order, holding the lock; writes the file once if any write succeeded,
    /// then answers.
    private func commit() {
        let operations = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        guard !operations.isEmpty else { return }
        let hasWrites = operations.contains { $0.isWrite }
        let target: URL
        let lock: FileLock?
        let token: [UInt8]
        var collection: ValueCollection<Value>
        do {
            target = try FileLocation.resolve(url)
            if hasWrites { try Self.createDirectory(of: target) }
            lock = try FileLock.acquire(for: target, required: hasWrites)
            if isFirstBatch, lock != nil {
                // Holding the lock: no writer that takes it is half-way, so every temporary file is a leftover.
                FileLocation.removeStaleTemporaryFiles(of: target)
                isFirstBatch = false
            }
            token = lock?.token() ?? []
            collection = try load(target, token: token)
        } catch {
            for operation in operations { operation.fail(error) }
            return
        }
        var outcomes: [PendingOutcome] = []
        var firstWrite: Int?
        for operation in operations where !operation.isCancelled() {
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
                for outcome in outcomes[..<firstWrite] { outcome.deliver() }
                for outcome in outcomes[firstWrite...] { outcome.fail(error) }
                return
            }
        } else {
            // Nothing changed it (a write that fails changes nothing): the next batch may reuse it, still holding
            // the lock, so nobody replaced the file meanwhile.
            keep(collection, of: target, token: token)
        }
        withExtendedLifetime(lock) {}  // released here, after the file was replaced
        for outcome in outcomes { outcome.deliver() }
    }

    // MARK: Reading and writing the file

    /// The collection in `target`: the one kept from the last batch if nobody changed the file since, else read
    /// from the file. Taken out of `cached`, so the batch changes it in place without copying it.
    private func load(_ target: URL, token: [UInt8]) throws(DataError) -> ValueCollection<Value> {
        let kept = cached
        cached = nil
        guard let identity = try FileIdentity(target) else { return ValueCollection() }
        if let kept, kept.target == target, kept.identity == identity, !token.isEmpty, kept.token == token {
            return kept.collection
        }
        do {
            return try StoredCollection<Value>.read(from: target)
        } catch let error where error.code == .corruptStore && corruptFile == .moveAside {
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
            throw DataError(code: .storageFailed, message: "cannot create \(directory.path)", underlying: error)
        }
    }
}
