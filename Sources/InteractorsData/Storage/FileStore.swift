import Foundation

/// The file behind a ``FileDataSource``: reads it, caches what it read, and writes it atomically.
///
/// Every read-modify-write runs under `lock`, so writes from many threads lose nothing. The lock is an `NSLock`
/// rather than the library's spin lock because it is held across file I/O and `fsync`; waiters should sleep.
/// The cached collection is reused only while the file is the one last read or written (same inode, size and
/// modification date), so another process's write, or a file damaged on disk, is noticed.
final class FileStore<Value: Codable & Identifiable & Sendable>: @unchecked Sendable where Value.ID: Sendable {
    // @unchecked Sendable: `cached` is read and written only while `lock` is held.
    let url: URL
    let name: String
    private let lock = NSLock()
    private var cached: (identity: FileIdentity, collection: ValueCollection<Value>)?

    init(url: URL) {
        self.url = url
        self.name = "FileDataSource at \(url.path)"
    }

    /// Runs `body` on the stored collection, without writing.
    func read<T>(_ body: (ValueCollection<Value>) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(try load())
    }

    /// Runs `body` on the stored collection and writes the result back, atomically.
    func write<T>(_ body: (inout ValueCollection<Value>) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        var collection = try load()
        let result = try body(&collection)
        try save(collection)
        return result
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
        guard stored.format == StoredCollection<Value>.formatName, stored.version == StoredCollection<Value>.currentVersion
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
            throw DataError(code: .mappingFailed, message: "cannot encode \(Value.self) for \(url.path)", underlying: error)
        }
        cached = nil
        try AtomicFile.write(data, to: url)
        if let identity = try? FileIdentity(url) { cached = (identity, collection) }
    }
}

/// What tells one version of a file from another without reading it.
struct FileIdentity: Equatable {
    let inode: UInt64
    let size: UInt64
    let modified: Date

    /// The file's identity; `nil` if there is no file. A file that exists but cannot be examined is an error, not
    /// an empty collection: treating it as empty would overwrite it on the next write.
    init?(_ url: URL) throws(DataError) {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw DataError(code: .storageFailed, message: "cannot examine \(url.path)", underlying: error)
        }
        guard let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
            let size = (attributes[.size] as? NSNumber)?.uint64Value,
            let modified = attributes[.modificationDate] as? Date
        else { throw DataError(code: .storageFailed, message: "cannot examine \(url.path)") }
        self.inode = inode
        self.size = size
        self.modified = modified
    }
}
