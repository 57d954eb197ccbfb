public import Foundation
public import Interactors

/// A collection kept in one JSON file: it survives a restart, and a crash never loses what was stored.
///
/// ```swift
/// let notes = FileDataSource<Note>(fileURL: appSupport.appendingPathComponent("notes.json"))
/// _ = try notes.put(Note(id: "n1", text: "Buy milk")).get()
/// // ... after a restart:
/// let note = try FileDataSource<Note>(fileURL: url).get(IdQuery("n1")).get()
/// ```
///
/// - Every write replaces the file atomically: the new contents go to a temporary file next to it
///   (`<file name>.<pid>-<random>.tmp`, named after the writer's process), are flushed with `fsync`, then renamed
///   over it. A writer killed part-way leaves the stored file as it was; a later writer removes its temporary
///   file, holding the exclusive lock, once it is certainly stale (that process is gone, or the file is more than
///   an hour old); a live writer's is never touched, nor any other `.tmp` file (a `notes.json.backup.tmp`).
/// - Several instances and several processes may use one file: a batch that writes holds an exclusive `flock`,
///   one that only reads a shared one, so readers in several processes run at once and writers take turns. The
///   lock is taken on the directory that holds the file (removing or replacing the lock file cannot break it;
///   files in one directory therefore take turns writing) and on a lock file next to it (`<file name>.lock`),
///   which is never followed if it is a symbolic link: every operation then fails with
///   ``DataError/Code/storageFailed``, naming it. A batch reads the file again when another writer changed it, so
///   no acknowledged write is lost.
/// - A write keeps the file's permissions, and writes through a symbolic link: the file it names is replaced, and
///   the link stays a link.
/// - Operations run off the caller's thread, in the order they were called: a `get` sees every `put` called
///   before it. Writes that queue up meanwhile share one write, and each answers once its value is on disk. The
///   batches run on the library's own threads (four while nothing blocks, named `ix.file-store`, shared by every
///   file store of the process), never on Dispatch's global pool, so the app's own blocking work there does not
///   hold them up.
/// - A batch answers only once the file's locks are released and the next batch is scheduled, one answer at a
///   time, each off the others' way: a handler or stage may call this store, or another in the same directory,
///   and block on the answer (its thread is replaced meanwhile), and no other call waits for it.
/// - A value that cannot be encoded (a `Double.nan` in it) fails alone: its `put` fails with
///   ``DataError/Code/mappingFailed``, naming its id, and the writes and reads queued with it go through.
/// - Ids are compared by their exact characters: two `String` ids whose Unicode scalars differ (`"café"` in NFC
///   and in NFD) are two values, as in SQLite and on a server, though Swift's `==` calls them equal.
/// - A missing file is an empty collection, created (with its directory) on the first write.
/// - A file that is not a collection this source wrote (corrupt, truncated, another program's JSON) is what
///   ``CorruptFile`` says: by default every operation fails with ``DataError/Code/corruptStore``, naming
///   the file, and it is left untouched: never reset.
///
/// It answers the same queries as ``InMemoryDataSource``, and keeps a ``CacheRepository``'s lists and times in
/// the same file (``CacheIndexStore``).
public final class FileDataSource<Value: Codable & Identifiable & Sendable>: DataSource
where Value.ID: Sendable {
    /// What a source does with a file that is not a collection it can read.
    public struct CorruptFile: Sendable, Hashable, CustomStringConvertible {
        // A struct with static members rather than an enum: more ways to recover may come, and a new member is
        // not a breaking change where a new case would be for a `switch` without `default`.
        private let name: String

        /// Every operation fails with ``DataError/Code/corruptStore`` and the file is left as it is: what a store
        /// of record wants.
        public static var fail: CorruptFile { CorruptFile(name: "fail") }
        /// The file is renamed to `<file name>.corrupt-<timestamp>` next to it, reported once per instance as one
        /// diagnostic (standard error unless the app set a handler: `Diagnostics`), and the source starts empty: what a cache wants.
        public static var moveAside: CorruptFile { CorruptFile(name: "moveAside") }

        /// The policy's name: `fail`, `moveAside`.
        public var description: String { name }
    }

    /// The file the collection is kept in.
    public var fileURL: URL { store.url }

    let store: FileStore<Value>

    /// A source kept in the JSON file at `fileURL`, treating a file it cannot read as `corruptFile` says.
    public init(fileURL: URL, corruptFile: CorruptFile = .fail) {
        self.store = FileStore(url: fileURL, corruptFile: corruptFile)
    }

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        store.read { [name = store.name] in try $0.get(query, source: name) }
    }

    /// Every value `query` selects, in storage order (``IdsQuery``: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        store.read { [name = store.name] in try $0.getAll(query, source: name) }
    }

    /// Stores `value`, replacing any value with its id. A value that cannot be encoded fails with
    /// ``DataError/Code/mappingFailed`` naming its id, alone: the writes queued with it are stored.
    public func put(_ value: Value) -> Response<Value> {
        put(value, ifAbsent: false)
    }

    /// Stores `value`; with `ifAbsent`, only if the file holds no value with its id, checked in the write's batch
    /// under the file's exclusive lock, and otherwise fails with ``DataError/Code/conflict``.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        store.write { [store] in
            if let failure = store.encodingFailures(of: [value]).first { throw failure.error }
            try $0.put(value, ifAbsent: ifAbsent, source: store.name)
            return value
        }
    }

    /// Stores `values`, in order, in one write. Values that cannot be encoded are left out: the others are stored
    /// and the call fails with ``DataError/Code/partiallyApplied`` (``DataError/failedIDs`` their ids,
    /// ``DataError/underlying`` the first one's ``DataError/Code/mappingFailed``), or with that `mappingFailed`
    /// if none could be.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        store.write { [store] collection -> (stored: [Value], failures: [(id: Value.ID, error: any Error)]) in
            let failures = store.encodingFailures(of: values)
            if failures.count == values.count, let first = failures.first { throw first.error }
            let failed = Set(failures.map { ExactID($0.id) })
            let stored = failed.isEmpty ? values : values.filter { !failed.contains(ExactID($0.id)) }
            for value in stored { collection.put(value) }
            return (stored, failures.map { ($0.id, $0.error) })
        }.map { [name = store.name, fileURL] outcome in
            let error = DataError.batch(
                "putAll",
                of: values.map(\.id),
                in: name,
                failures: outcome.failures,
                applied: outcome.stored
            )
            if let error { throw (error as? DataError)?.concerning(fileURL) ?? error }
            return outcome.stored
        }
    }

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        store.write { [name = store.name] in $0.remove(try $0.idsToDelete(query, source: name)) }
    }

    /// Deletes every value `query` selects, in one write.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        store.write { [name = store.name] in try $0.deleteAll(query, source: name) }
    }

    /// Deletes the value with the query's id; with `ifPresent`, fails with ``DataError/Code/notFound`` if the file
    /// held none, checked in the write's batch under the file's exclusive lock.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        store.write { [name = store.name] in try $0.delete(query, ifPresent: ifPresent, source: name) }
    }
}

// MARK: - A cache repository's index, in the same file

extension FileDataSource: CacheIndexStore {
    /// The values with `ids` the file holds, with their stored-at times.
    public func cachedEntries(_ ids: [Value.ID]) -> Response<[CacheEntry<Value>]> {
        store.read { $0.cachedEntries(ids) }
    }

    /// The list stored under `key`, if any.
    public func cachedList(forKey key: String) -> Response<CachedList<Value>?> {
        store.read { $0.cachedList(forKey: key) }
    }

    /// Applies `change` in one atomic write of the file; a value that cannot be encoded fails it with
    /// ``DataError/Code/mappingFailed`` before anything changes.
    public func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void> {
        store.write { [store] in
            if let failure = store.encodingFailures(of: change.values).first { throw failure.error }
            if let unkeepable = StoredCollection<Value>.unkeepable(change, in: store.name) { throw unkeepable }
            $0.apply(change)
        }
    }

    /// Where the file is in its order of writes, which the file keeps: every put and delete of every instance
    /// on it, in this process or another, takes a position.
    public func writePosition() -> Response<CacheWritePosition?> {
        store.read { $0.log.current }
    }
}
