public import Foundation
public import Interactors

/// Values kept in `UserDefaults`, each as JSON under its own key: settings, flags, a few small records that
/// should follow the app's preferences (Harmony's device storage).
///
/// ```swift
/// let settings = UserDefaultsDataSource<Setting>(keyPrefix: "settings.")
/// _ = try settings.put(Setting(id: "theme", value: "dark")).get()   // stored under "settings.theme"
/// let theme = try settings.get(IdQuery("theme")).get()
/// ```
///
/// Each value is stored as JSON `Data` under `keyPrefix + "\(id)"`. Every operation runs at once on the calling
/// thread and returns a settled `Response`. It answers ``IdQuery``, ``IdsQuery`` (in the query's order),
/// ``AllObjectsQuery`` and ``FilterQuery``, like ``InMemoryDataSource``; ``AllObjectsQuery`` answers every
/// value under the prefix, and nothing else in the defaults, ordered by key, and `deleteAll` removes only keys
/// under the prefix. A key under the prefix that does not hold a value's JSON fails reads with
/// ``DataError/Code/mappingFailed``, naming the key.
///
/// `UserDefaults` is not a database: it keeps everything in memory and writes it out when it sees fit, a write is
/// not synced to the disk before it returns, and `putAll` is not atomic (a value that does not encode stores
/// none of them, though). For more than a few hundred values, or anything that must survive a crash, use
/// ``FileDataSource`` or a SQLite store.
public final class UserDefaultsDataSource<Value: Codable & Identifiable & Sendable>: DataSource, @unchecked Sendable
where Value.ID: Sendable {
    // @unchecked Sendable: `UserDefaults` is documented thread-safe, though not marked `Sendable` on Linux.

    /// The defaults the values are kept in.
    public let defaults: UserDefaults
    /// What every key of this source starts with.
    public let keyPrefix: String

    private var name: String { "UserDefaultsDataSource<\(Value.self)> (keys \(keyPrefix)…)" }

    /// A source keeping its values in `defaults`, under keys that start with `keyPrefix`.
    public init(defaults: UserDefaults = .standard, keyPrefix: String) {
        self.defaults = defaults
        self.keyPrefix = keyPrefix
    }

    // MARK: Reading

    /// The one value `query` selects; ``DataError/Code/notFound`` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        answer { [name] in try self.selected(by: query).get(query, source: name) }
    }

    /// Every value `query` selects, ordered by key (``IdsQuery``: in the query's order).
    public func getAll(_ query: any Query) -> Response<[Value]> {
        answer { [name] in try self.selected(by: query).getAll(query, source: name) }
    }

    // MARK: Writing

    /// Stores `value` under `keyPrefix + "\(id)"`, replacing what was there.
    public func put(_ value: Value) -> Response<Value> {
        answer {
            try self.store([value])
            return value
        }
    }

    /// Stores `values`, in order; if one does not encode, none is stored.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        answer {
            try self.store(values)
            return values
        }
    }

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        answer { [name] in
            for id in try ValueCollection<Value>().idsToDelete(query, source: name) {
                self.defaults.removeObject(forKey: self.key(id))
            }
        }
    }

    /// Deletes every value `query` selects; ``AllObjectsQuery`` removes every key under the prefix, and no other.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        answer { [name] in
            if query is AllObjectsQuery {
                for key in self.keysUnderPrefix() { self.defaults.removeObject(forKey: key) }
                return
            }
            for id in try self.selected(by: query).idsToDeleteAll(query, source: name) {
                self.defaults.removeObject(forKey: self.key(id))
            }
        }
    }

    // MARK: Keys and values

    private func key(_ id: Value.ID) -> String {
        keyPrefix + "\(id)"
    }

    private func keysUnderPrefix() -> [String] {
        defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix(keyPrefix) }.sorted()
    }

    /// The values a query needs, decoded: only the ids' keys for ``IdQuery`` and ``IdsQuery``, every key under
    /// the prefix otherwise.
    private func selected(by query: any Query) throws(DataError) -> ValueCollection<Value> {
        let keys: [String]
        if let query = query as? IdQuery<Value.ID> {
            keys = [key(query.id)]
        } else if let query = query as? IdsQuery<Value.ID> {
            keys = query.ids.map(key)
        } else if query is AllObjectsQuery || query is FilterQuery<Value> {
            keys = keysUnderPrefix()
        } else {
            throw .queryNotSupported(query, by: name)
        }
        let decoder = JSONDecoder()
        var values: [Value] = []
        for key in keys {
            guard let stored = defaults.object(forKey: key) else { continue }
            guard let data = stored as? Data else { throw notAValue(key, because: nil) }
            do {
                values.append(try decoder.decode(Value.self, from: data))
            } catch {
                throw notAValue(key, because: error)
            }
        }
        return ValueCollection(values)
    }

    private func notAValue(_ key: String, because error: (any Error)?) -> DataError {
        DataError(
            code: .mappingFailed,
            message: "the defaults key \(key) does not hold \(Value.self) JSON, in \(name)",
            underlying: error
        )
    }

    private func store(_ values: [Value]) throws(DataError) {
        let encoder = JSONEncoder()
        var encoded: [(key: String, data: Data)] = []
        for value in values {
            do {
                encoded.append((key(value.id), try encoder.encode(value)))
            } catch {
                throw DataError(
                    code: .mappingFailed,
                    message: "cannot encode \(Value.self) with id \(value.id) for \(name)",
                    underlying: error
                )
            }
        }
        for (key, data) in encoded { defaults.set(data, forKey: key) }
    }

    private func answer<T: Sendable>(_ body: () throws -> T) -> Response<T> {
        Response(result: Result { try body() })
    }
}
