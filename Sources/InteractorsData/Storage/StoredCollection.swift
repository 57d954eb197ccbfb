import Foundation

/// The JSON a ``FileDataSource`` writes: a marker that says what the file is, a format version, the values in
/// order, and, when a ``CacheRepository`` uses the file as its cache, the repository's index and the order of
/// writes. The marker is how a foreign JSON file is told apart from a collection, so it is refused instead of
/// being read as an empty one and overwritten.
///
/// The index and the order are optional and ignored by readers that predate them, so the version stays 1. The
/// index refers to values by their place in `values` (ids need not be `Codable`): `storedAt` holds one time per
/// value (seconds since 1970, null when unknown) and each list its values' places, in list order. Lists are kept
/// by key in `lists`; a key that equals another one only by Swift's canonical equivalence (`"café"` in NFC and in
/// NFD), which a JSON object decoded into a dictionary would merge, goes to `moreLists` instead. The order is
/// described in ``Order``.
struct StoredCollection<Value: Codable & Identifiable>: Codable {
    static var formatName: String { "InteractorsData.FileDataSource" }
    static var currentVersion: Int { 1 }

    struct Index: Codable {
        struct List: Codable {
            var storedAt: Double
            var items: [Int]
        }

        struct NamedList: Codable {
            var key: String
            var list: List
        }

        var storedAt: [Double?]
        var lists: [String: List]
        var moreLists: [NamedList]?
    }

    var format: String
    var version: Int
    var values: [Value]
    var cache: Index?
    var order: Order?
    /// A cache repository's pending writes, in order (see ``Pending``); a list item `-1 - k` names the id of the
    /// pending delete `pending[k]`.
    var pending: [Pending]?

    init(values: [Value], cache: Index?, order: Order?, pending: [Pending]? = nil) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.values = values
        self.cache = cache
        self.order = order
        self.pending = pending
    }
}

// MARK: - Reading and writing a file

extension StoredCollection {
    /// The collection in the file at `url`; ``DataError/Code/corruptStore`` if it is not one this version reads.
    static func read(from url: URL) throws(DataError) -> ValueCollection<Value> {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DataError(
                code: .storageFailed,
                message: "cannot read \(url.lastPathComponent)",
                underlying: error,
                fileURL: url
            )
        }
        let stored: StoredCollection<Value>
        do {
            stored = try JSONDecoder().decode(StoredCollection<Value>.self, from: data)
        } catch {
            throw DataError(
                code: .corruptStore,
                message: "\(url.lastPathComponent) is not a readable collection of \(Value.self); it was left as it is",
                underlying: error
            )
        }
        guard stored.format == formatName, stored.version == currentVersion else {
            throw DataError(
                code: .corruptStore,
                message:
                    "\(url.lastPathComponent) is \(stored.format) version \(stored.version), not a collection this version "
                    + "reads; it was left as it is"
            )
        }
        var collection = ValueCollection(stored.values)
        let index = stored.cache.map { collection.restore($0, pending: stored.pending ?? []) }
        let log = stored.order.map(collection.restore)
        let pending = stored.pending.map { collection.restore($0, order: stored.order) }
        let indexMatches = if case .some(nil) = index { false } else { true }
        let orderMatches = if case .some(nil) = log { false } else { true }
        let pendingMatches = if case .some(nil) = pending { false } else { true }
        guard collection.count == stored.values.count, indexMatches, orderMatches, pendingMatches else {
            throw DataError(
                code: .corruptStore,
                message:
                    "\(url.lastPathComponent) holds two values with one id, or a cache index that does not match its "
                    + "values; it was left as it is"
            )
        }
        if case .some(.some(let index)) = index { collection.index = index }
        if case .some(.some(let log)) = log { collection.log = log }
        if case .some(.some(let pending)) = pending { collection.pending = pending }
        return collection
    }

    /// The file's contents for `collection` (compacted: the file refers to values by place).
    static func encode(_ collection: ValueCollection<Value>, for url: URL) throws(DataError) -> Data {
        do {
            return try JSONEncoder().encode(
                StoredCollection(
                    values: collection.values,
                    cache: collection.storedIndex,
                    order: collection.storedOrder,
                    pending: collection.storedPending
                )
            )
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot encode \(Value.self) for \(url.lastPathComponent)",
                underlying: error
            )
        }
    }
}

extension ValueCollection where Value: Codable {
    /// The index as the file keeps it; nil when there is none. The collection must be compacted.
    var storedIndex: StoredCollection<Value>.Index? {
        guard !index.isEmpty else { return nil }
        var lists: [String: StoredCollection<Value>.Index.List] = [:]
        var moreLists: [StoredCollection<Value>.Index.NamedList] = []
        let pendingDeletions = storedPendingDeletionItems
        for (key, list) in index.lists {
            var items: [Int] = []
            for id in list.ids {
                if let item = position(of: id) ?? pendingDeletions[ExactID(id)] { items.append(item) }
            }
            let stored = StoredCollection<Value>.Index.List(storedAt: list.storedAt.timeIntervalSince1970, items: items)
            if lists[key.base] == nil {
                lists[key.base] = stored
            } else {
                moreLists.append(.init(key: key.base, list: stored))
            }
        }
        // Loops, not `map`: a closure over the values costs an allocation per value here (see `values`).
        var times: [Double?] = []
        times.reserveCapacity(count)
        for value in values { times.append(index.time(of: value.id)?.timeIntervalSince1970) }
        return StoredCollection<Value>.Index(
            storedAt: times,
            lists: lists,
            moreLists: moreLists.isEmpty ? nil : moreLists.sorted { $0.key < $1.key }
        )
    }

    /// The index a file kept, for these values and `pending` writes; nil if it does not match them.
    func restore(
        _ stored: StoredCollection<Value>.Index,
        pending: [StoredCollection<Value>.Pending]
    ) -> CacheIndex<Value.ID>? {
        guard stored.storedAt.count == count else { return nil }
        let values = values
        var index = CacheIndex<Value.ID>()
        for (value, time) in zip(values, stored.storedAt) {
            if let time { index.setTime(Date(timeIntervalSince1970: time), of: value.id) }
        }
        let named =
            stored.lists.map { (key: $0.key, list: $0.value) } + (stored.moreLists ?? []).map { ($0.key, $0.list) }
        for (key, list) in named {
            let ids = list.items.map { StoredCollection<Value>.listedID($0, values: values, pending: pending) }
            guard !ids.contains(where: { $0 == nil }) else { return nil }
            index.lists[ListKey(key)] = CacheIndex.List(
                storedAt: Date(timeIntervalSince1970: list.storedAt),
                ids: ids.compactMap { $0 }
            )
        }
        return index
    }
}
