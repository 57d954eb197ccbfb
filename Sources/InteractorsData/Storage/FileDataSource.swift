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
/// - Writes from many threads at once lose nothing; operations start in the order they are called and run off
///   the caller's thread.
/// - A missing file is an empty collection, created (with its directory) on the first write.
/// - A file that is not a collection this source wrote (corrupt, truncated, another program's JSON) fails every
///   operation with ``DataError/Code/corruptStore``, naming the file, and is left untouched: never reset.
///
/// It answers the same queries as ``InMemoryDataSource``.
public final class FileDataSource<Value: Codable & Identifiable & Sendable>: GetDataSource, PutDataSource,
    DeleteDataSource
where Value.ID: Sendable {
    /// The file the collection is kept in.
    public var fileURL: URL { store.url }

    private let store: FileStore<Value>
    /// Serial, so operations start in call order; the store's lock keeps them exclusive even when a blocked
    /// caller runs one inline.
    private let queue: DispatchQueue

    /// A source kept in the JSON file at `fileURL`.
    public init(fileURL: URL) {
        self.store = FileStore(url: fileURL)
        self.queue = DispatchQueue(label: "InteractorsData.FileDataSource \(fileURL.lastPathComponent)")
    }

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        Response(on: queue) { [store] in try store.read { try $0.get(query, source: store.name) } }
    }

    /// Every value `query` selects, in storage order (``IdsQuery``: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        Response(on: queue) { [store] in try store.read { try $0.getAll(query, source: store.name) } }
    }

    /// Stores `value`, replacing any value with its id.
    public func put(_ value: Value) -> Response<Value> {
        Response(on: queue) { [store] in
            try store.write {
                $0.put(value)
                return value
            }
        }
    }

    /// Stores `values`, in order, in one write.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        Response(on: queue) { [store] in
            try store.write {
                for value in values { $0.put(value) }
                return values
            }
        }
    }

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        Response(on: queue) { [store] in
            try store.write { $0.remove(try $0.idsToDelete(query, source: store.name)) }
        }
    }

    /// Deletes every value `query` selects, in one write.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        Response(on: queue) { [store] in
            try store.write { $0.remove(try $0.idsToDeleteAll(query, source: store.name)) }
        }
    }
}
