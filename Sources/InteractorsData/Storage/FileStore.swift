import Dispatch
import Foundation
import Interactors

/// The file behind a ``FileDataSource``: a queue of operations, applied in call order, with the writes that
/// queued up meanwhile committed together in one atomic write (group commit).
///
/// Why a pipeline rather than a lock around each operation: every write rewrites the whole file and syncs it, so
/// eight threads putting at once would write it eight times; here they share one write, and none of them returns
/// before it is on disk. Operations are applied strictly in the order they were called, so a `get` called after
/// a `put` sees it, even if nobody waited for the `put`.
///
/// The collection read from the file is cached and reused only while the file is the one last read or written
/// (same inode, size and modification date), so another process's write, or a file damaged on disk, is noticed.
final class FileStore<Value: Codable & Identifiable & Sendable>: @unchecked Sendable where Value.ID: Sendable {
    // @unchecked Sendable: `cached` is read and written only by `commit`, which runs on the serial `queue`;
    // `pending` is guarded by its own lock.
    let url: URL
    let name: String
    private let queue: DispatchQueue
    private let pending = LockedBox([PendingOperation<Value>]())
    private var cached: (identity: FileIdentity, collection: ValueCollection<Value>)?

    init(url: URL) {
        self.url = url
        self.name = "FileDataSource at \(url.path)"
        self.queue = DispatchQueue(label: "InteractorsData.FileDataSource \(url.lastPathComponent)")
    }

    /// Answers with what `body` reads from the collection, in call order with the other operations.
    func read<T: Sendable>(_ body: @escaping @Sendable (ValueCollection<Value>) throws -> T) -> Response<T> {
        enqueue(isWrite: false) { collection in try body(collection) }
    }

    /// Applies `body` to the collection and answers once the result is on disk. If `body` throws, the collection
    /// is left as it was.
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

    /// Applies every pending operation in order, writes the file once if any write succeeded, then answers.
    private func commit() {
        let operations = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        guard !operations.isEmpty else { return }
        var collection: ValueCollection<Value>
        do {
            collection = try load()
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
            do {
                try save(collection)
            } catch {
                // Nothing from the first write on reached the disk, and the reads after it saw unsaved values.
                for outcome in outcomes[..<firstWrite] { outcome.deliver() }
                for outcome in outcomes[firstWrite...] { outcome.fail(error) }
                return
            }
        }
        for outcome in outcomes { outcome.deliver() }
    }

    private func load() throws(DataError) -> ValueCollection<Value> {
        guard let identity = try FileIdentity(url) else {
            cached = nil
            return ValueCollection()
        }
        if let cached, cached.identity == identity { return cached.collection }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DataError(code: .storageFailed, message: "cannot read \(url.path)", underlying: error)
        }
        let stored: StoredCollection<Value>
        do {
            stored = try JSONDecoder().decode(StoredCollection<Value>.self, from: data)
        } catch {
            throw DataError(
                code: .corruptStore,
                message: "\(url.path) is not a readable collection of \(Value.self); it was left as it is",
                underlying: error
            )
        }
        guard stored.format == StoredCollection<Value>.formatName,
            stored.version == StoredCollection<Value>.currentVersion
        else {
            throw DataError(
                code: .corruptStore,
                message: "\(url.path) is \(stored.format) version \(stored.version), not a collection this version "
                    + "reads; it was left as it is"
            )
        }
        let collection = ValueCollection(stored.values)
        self.cached = (identity, collection)
        return collection
    }

    private func save(_ collection: ValueCollection<Value>) throws(DataError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(StoredCollection(values: collection.values))
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot encode \(Value.self) for \(url.path)",
                underlying: error
            )
        }
        cached = nil
        try AtomicFile.write(data, to: url)
        if let identity = try? FileIdentity(url) { cached = (identity, collection) }
    }
}
