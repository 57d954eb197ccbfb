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
/// ``AllObjectsQuery``, ``FilterQuery`` and ``PageQuery``, like ``InMemoryDataSource``; ``AllObjectsQuery`` answers every
/// value of the source under the prefix, and nothing else in the defaults, ordered by key. A key under the prefix
/// that does not hold a value's JSON fails reads with ``DataError/Code/mappingFailed``, naming the key.
///
/// The source sees only its own values:
/// - **Registered defaults are not its values.** A key whose value is the one `register(defaults:)` (or a
///   command-line argument) gives it reads as absent, and `deleteAll` leaves it. So a value the source stores
///   that is equal, byte for byte, to the registered default of its key reads as absent too: Linux's Foundation
///   gives no other way to tell a stored value from a registered one.
/// - **Prefixes may nest.** A source under `"notes."` and one under `"notes.archive."` never read or delete each
///   other's values: a value's JSON carries its id, and a key holds the source's value only if it is
///   `keyPrefix + "\(id)"` of that id. The one collision keys cannot avoid is an outer id that spells the inner
///   prefix's remainder and one of its ids (`"archive.x"` under `"notes."` and `"x"` under `"notes.archive."` are
///   both `notes.archive.x`): the last write to that key wins. `deleteAll` removes only the keys that hold the
///   source's values, and leaves a key that does not decode.
/// - Keys are the platform's strings: unlike the other stores, ids are compared as `UserDefaults` compares keys.
///
/// `UserDefaults` is not a database: it keeps everything in memory and writes it out when it sees fit, a write is
/// not synced to the disk before it returns, and `putAll` is not atomic (a value that does not encode stores
/// none of them, though), nor are `put(_:ifAbsent:)` and `delete(_:ifPresent:)`, which read, then write. For more than a few hundred values, or anything that must survive a crash, use
/// ``FileDataSource`` or a SQLite store.
public final class UserDefaultsDataSource<Value: Codable & Identifiable & Sendable>: DataSource, @unchecked Sendable
where Value.ID: Sendable {
    // @unchecked Sendable: `UserDefaults` is documented thread-safe, though not marked `Sendable` on Linux.

    /// The defaults the values are kept in.
    public let defaults: UserDefaults
    /// What every key of this source starts with.
    public let keyPrefix: String

    private var name: String { "UserDefaultsDataSource<\(Value.self)> (keys \(keyPrefix)…)" }

    #if !canImport(Darwin)
    /// A defaults domain nothing writes to: what it answers for a key is what the process registered for it.
    private let registrationProbe = UserDefaults(suiteName: "InteractorsData.UserDefaultsDataSource.registered")
    #endif

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

    /// Deletes the value with the ``IdQuery``'s id; succeeds if there is none. A key holding another source's
    /// value (a source whose prefix nests in this one's) is left alone.
    public func delete(_ query: any Query) -> Response<Void> {
        answer { [name] in
            for id in try ValueCollection<Value>().idsToDelete(query, source: name) where !self.holdsOthersValue(id) {
                self.defaults.removeObject(forKey: self.key(id))
            }
        }
    }

    /// Deletes every value `query` selects; ``AllObjectsQuery`` removes every key that holds one of the source's
    /// values, and no other.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        answer { [name] in
            let selected = query is AllObjectsQuery ? try self.ownValues() : try self.selected(by: query)
            for id in try selected.idsToDeleteAll(query, source: name) {
                self.defaults.removeObject(forKey: self.key(id))
            }
        }
    }

    // MARK: Keys and values

    private func key(_ id: Value.ID) -> String {
        keyPrefix + "\(id)"
    }

    private func keysUnderPrefix() -> [String] {
        defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix(keyPrefix) && ownObject(forKey: $0) != nil }
            .sorted()
    }

    /// What `key` holds, unless it is what the registration domain (or the argument domain) gives it: that value is
    /// not the source's.
    private func ownObject(forKey key: String) -> Any? {
        guard let object = defaults.object(forKey: key) else { return nil }
        guard let given = givenValue(forKey: key) else { return object }
        return Self.isSame(object, given) ? nil : object
    }

    /// The value `register(defaults:)` or a command-line argument gives `key`, if any. Darwin's Foundation names
    /// the registration domain; Linux's keeps registered defaults for the whole process and answers them for a
    /// key that a domain lacks, so a domain never written to (``registrationProbe``) tells them.
    private func givenValue(forKey key: String) -> Any? {
        #if canImport(Darwin)
        return defaults.volatileDomain(forName: UserDefaults.argumentDomain)[key]
            ?? defaults.volatileDomain(forName: UserDefaults.registrationDomain)[key]
        #else
        return registrationProbe?.object(forKey: key)
        #endif
    }

    private static func isSame(_ first: Any, _ second: Any) -> Bool {
        if let first = first as? Data, let second = second as? Data { return first == second }
        if let first = first as? String, let second = second as? String { return first == second }
        if let first = first as? NSNumber, let second = second as? NSNumber { return first == second }
        if let first = first as? Date, let second = second as? Date { return first == second }
        if let first = first as? [Any], let second = second as? [Any] {
            return first.count == second.count && zip(first, second).allSatisfy(isSame)
        }
        if let first = first as? [String: Any], let second = second as? [String: Any] {
            return first.count == second.count
                && first.allSatisfy { key, value in second[key].map { isSame(value, $0) } ?? false }
        }
        return false
    }

    /// Whether the key of `id` holds a value whose own id names another key: another source's, whose prefix
    /// nests in this one's.
    private func holdsOthersValue(_ id: Value.ID) -> Bool {
        let key = key(id)
        guard let data = ownObject(forKey: key) as? Data,
            let value = try? JSONDecoder().decode(Value.self, from: data)
        else { return false }
        return self.key(value.id) != key
    }

    /// Every value of the source; a key that does not decode is skipped, not failed (for `deleteAll`).
    private func ownValues() throws(DataError) -> ValueCollection<Value> {
        let decoder = JSONDecoder()
        var values: [Value] = []
        for key in keysUnderPrefix() {
            guard let data = ownObject(forKey: key) as? Data, let value = try? decoder.decode(Value.self, from: data),
                self.key(value.id) == key
            else { continue }
            values.append(value)
        }
        return ValueCollection(values)
    }

    /// The values a query needs, decoded: only the ids' keys for ``IdQuery`` and ``IdsQuery``, every key under
    /// the prefix otherwise.
    private func selected(by query: any Query) throws(DataError) -> ValueCollection<Value> {
        let keys: [String]
        if let query = query as? IdQuery<Value.ID> {
            keys = [key(query.id)]
        } else if let query = query as? IdsQuery<Value.ID> {
            keys = query.ids.map(key)
        } else if query is AllObjectsQuery || query is FilterQuery<Value> || query is any AnyPageQuery {
            keys = keysUnderPrefix()
        } else {
            throw .queryNotSupported(query, by: name)
        }
        let decoder = JSONDecoder()
        var values: [Value] = []
        for key in keys {
            guard let stored = ownObject(forKey: key) else { continue }
            guard let data = stored as? Data else { throw notAValue(key, because: nil) }
            let value: Value
            do {
                value = try decoder.decode(Value.self, from: data)
            } catch {
                throw notAValue(key, because: error)
            }
            // A value whose id names another key is another source's, whose prefix nests in this one's.
            if self.key(value.id) == key { values.append(value) }
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
