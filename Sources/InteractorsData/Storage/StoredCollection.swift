import Foundation

/// The JSON a ``FileDataSource`` writes: a marker that says what the file is, a format version, the values in
/// order, and, when a ``CacheRepository`` uses the file as its cache, the repository's index. The marker is how a
/// foreign JSON file is told apart from a collection, so it is refused instead of being read as an empty one and
/// overwritten.
///
/// The index is optional and ignored by readers that predate it, so the version stays 1. It refers to values by
/// their place in `values` (ids need not be `Codable`): `storedAt` holds one time per value (seconds since 1970,
/// null when unknown) and each list its values' places, in list order.
struct StoredCollection<Value: Codable>: Codable {
    static var formatName: String { "InteractorsData.FileDataSource" }
    static var currentVersion: Int { 1 }

    struct Index: Codable {
        struct List: Codable {
            var storedAt: Double
            var items: [Int]
        }

        var storedAt: [Double?]
        var lists: [String: List]
    }

    var format: String
    var version: Int
    var values: [Value]
    var cache: Index?

    init(values: [Value], cache: Index?) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.values = values
        self.cache = cache
    }
}

// MARK: - Reading and writing a file

extension StoredCollection where Value: Identifiable {
    /// The collection in the file at `url`; ``DataError/Code/corruptStore`` if it is not one this version reads.
    static func read(from url: URL) throws(DataError) -> ValueCollection<Value> {
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
        guard stored.format == formatName, stored.version == currentVersion else {
            throw DataError(
                code: .corruptStore,
                message: "\(url.path) is \(stored.format) version \(stored.version), not a collection this version "
                    + "reads; it was left as it is"
            )
        }
        var collection = ValueCollection(stored.values)
        let index = stored.cache.map(collection.restore)
        let indexMatches = if case .some(nil) = index { false } else { true }
        guard collection.count == stored.values.count, indexMatches else {
            throw DataError(
                code: .corruptStore,
                message: "\(url.path) holds two values with one id, or a cache index that does not match its "
                    + "values; it was left as it is"
            )
        }
        if case .some(.some(let index)) = index { collection.index = index }
        return collection
    }

    /// The file's contents for `collection`.
    static func encode(_ collection: ValueCollection<Value>, for url: URL) throws(DataError) -> Data {
        do {
            return try JSONEncoder().encode(StoredCollection(values: collection.values, cache: collection.storedIndex))
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot encode \(Value.self) for \(url.path)",
                underlying: error
            )
        }
    }
}

extension ValueCollection where Value: Codable {
    /// The index as the file keeps it; nil when there is none.
    var storedIndex: StoredCollection<Value>.Index? {
        guard !index.isEmpty else { return nil }
        return StoredCollection<Value>.Index(
            storedAt: values.map { index.storedAt[$0.id]?.timeIntervalSince1970 },
            lists: index.lists.mapValues { list in
                .init(storedAt: list.storedAt.timeIntervalSince1970, items: list.ids.compactMap(position(of:)))
            }
        )
    }

    /// The index a file kept, for these values; nil if it does not match them.
    func restore(_ stored: StoredCollection<Value>.Index) -> CacheIndex<Value.ID>? {
        guard stored.storedAt.count == values.count else { return nil }
        var index = CacheIndex<Value.ID>()
        for (value, time) in zip(values, stored.storedAt) {
            if let time { index.storedAt[value.id] = Date(timeIntervalSince1970: time) }
        }
        for (key, list) in stored.lists {
            guard list.items.allSatisfy(values.indices.contains) else { return nil }
            index.lists[key] = CacheIndex.List(
                storedAt: Date(timeIntervalSince1970: list.storedAt),
                ids: list.items.map { values[$0].id }
            )
        }
        return index
    }
}
