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
/// - Every write replaces the file atomically: the new contents go to a temporary file next to it (named after
///   the file, ending in `.tmp`), are flushed with `fsync`, then renamed over it. A writer killed part-way
///   leaves the stored file as it was.
/// - Operations run off the caller's thread, in the order they were called: a `get` sees every `put` called
///   before it. Writes from many threads at once lose nothing; those that queue up meanwhile share one write,
///   and each answers once its value is on disk.
/// - A missing file is an empty collection, created (with its directory) on the first write.
/// - A file that is not a collection this source wrote (corrupt, truncated, another program's JSON) fails every
///   operation with ``DataError/Code/corruptStore``, naming the file, and is left untouched: never reset.
///
/// Use one instance per file in a process, and one writing process at a time: the file is the unit of atomicity,
/// so two writers that each read, change and replace it would lose each other's changes. Readers in other
/// processes are fine; an instance notices when the file was replaced and reads it again.
///
/// It answers the same queries as ``InMemoryDataSource``.
public final class FileDataSource<Value: Codable & Identifiable & Sendable>: GetDataSource, PutDataSource,
    DeleteDataSource
where Value.ID: Sendable {
    /// The file the collection is kept in.
    public var fileURL: URL { store.url }

    private let store: FileStore<Value>

    /// A source kept in the JSON file at `fileURL`.
    public init(fileURL: URL) {
        self.store = FileStore(url: fileURL)
    }

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        store.read { [name = store.name] in try $0.get(query, source: name) }
    }

    /// Every value `query` selects, in storage order (``IdsQuery``: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        store.read { [name = store.name] in try $0.getAll(query, source: name) }
    }

    /// Stores `value`, replacing any value with its id.
    public func put(_ value: Value) -> Response<Value> {
        store.write {
            $0.put(value)
            return value
        }
    }

    /// Stores `values`, in order, in one write.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        store.write {
            for value in values { $0.put(value) }
            return values
        }
    }

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        store.write { [name = store.name] in $0.remove(try $0.idsToDelete(query, source: name)) }
    }

    /// Deletes every value `query` selects, in one write.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        store.write { [name = store.name] in $0.remove(try $0.idsToDeleteAll(query, source: name)) }
    }
}
