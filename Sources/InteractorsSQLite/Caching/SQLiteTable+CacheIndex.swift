import Foundation
import InteractorsData

/// A row as the cache index reads it: its key, its value's JSON (nil when a list names a value the table no
/// longer holds), and when a repository stored it (nil: unknown).
struct IndexedRow: Sendable {
    let key: SQLiteKey
    let json: Data?
    let storedAt: Double?
}

/// A list as read: when it was stored, and its rows in order.
struct IndexedList: Sendable {
    let storedAt: Double
    let items: [IndexedRow]
}

// MARK: Reading (in one read transaction; decoded after it)

extension SQLiteTable {
    /// The rows of `ids` the table holds, in the order of `ids`, each with its time.
    func entryRows(_ ids: [Value.ID], on connection: SQLiteConnection) throws(DataError) -> [IndexedRow] {
        var keys: [SQLiteKey] = []
        for id in ids { keys.append(try key(id)) }
        return try connection.reading { () throws(DataError) in
            var rows: [IndexedRow] = []
            rows.reserveCapacity(keys.count)
            for key in keys {
                try connection.withStatement(sql.cacheIndex.selectEntry) { statement throws(DataError) in
                    statement.bind(sql.name, at: 1)
                    statement.bind(key, at: 2)
                    if try statement.step() {
                        rows.append(
                            IndexedRow(key: key, json: statement.utf8Data(at: 0), storedAt: statement.double(at: 1))
                        )
                    }
                }
            }
            return rows
        }
    }

    /// The list stored under `key`, with its rows; nil if there is none.
    func listRows(forKey key: String, on connection: SQLiteConnection) throws(DataError) -> IndexedList? {
        try connection.reading { () throws(DataError) -> IndexedList? in
            let storedAt = try connection.withStatement(CacheIndexSQL.selectList) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(key, at: 2)
                return try statement.step() ? statement.double(at: 0) : nil
            }
            guard let storedAt else { return nil }
            let items = try connection.withStatement(sql.cacheIndex.selectListItems) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(key, at: 2)
                var items: [IndexedRow] = []
                while try statement.step() {
                    items.append(
                        IndexedRow(
                            key: statement.key(at: 0),
                            json: statement.optionalUTF8Data(at: 1),
                            storedAt: statement.double(at: 2)
                        )
                    )
                }
                return items
            }
            return IndexedList(storedAt: storedAt, items: items)
        }
    }

    // MARK: Decoding

    /// The entries of `rows`, in order (a row left out by ``UndecodableRows/skip`` is left out).
    func entries(_ rows: [IndexedRow]) throws(DataError) -> [CacheEntry<Value>] {
        try decodedEntries(rows).compactMap(\.entry)
    }

    /// The list of `rows`: every id it names, and the entries of those the table holds.
    func list(_ list: IndexedList) throws(DataError) -> CachedList<Value> {
        var ids: [Value.ID] = []
        var entries: [CacheEntry<Value>] = []
        ids.reserveCapacity(list.items.count)
        entries.reserveCapacity(list.items.count)
        for (row, entry) in try decodedEntries(list.items) {
            if let entry {
                ids.append(entry.value.id)
                entries.append(entry)
            } else {
                // A value lost behind the index's back, or one that no longer decodes: the list names it still,
                // so the repository sees the list is not whole.
                ids.append(try row.key.id(as: Value.ID.self, table: sql.name))
            }
        }
        return CachedList(storedAt: Date(timeIntervalSince1970: list.storedAt), ids: ids, entries: entries)
    }

    /// Each row with its entry; nil where the table lacks the value or it was skipped.
    private func decodedEntries(_ rows: [IndexedRow]) throws(DataError) -> [(IndexedRow, entry: CacheEntry<Value>?)] {
        let present = rows.compactMap { row in row.json.map { StoredRow(key: row.key, json: $0) } }
        var values = try decodeEach(present).makeIterator()
        return rows.map { row in
            guard row.json != nil, let value = values.next() ?? nil else { return (row, nil) }
            return (row, CacheEntry(value: value, storedAt: row.storedAt.map(Date.init(timeIntervalSince1970:))))
        }
    }
}

// MARK: Writing (on the writer, inside the transaction)

extension SQLiteTable {
    /// Applies `change` in the steps `CacheChange` lists; the caller's transaction makes it all or nothing.
    func apply(_ change: CacheChange<Value>, on connection: SQLiteConnection) throws(DataError) {
        let rows = try encode(change.values)  // a value that does not encode fails it before anything is written
        // 1. What goes first.
        switch change.removal {
        case .nothing:
            break
        case .ids(let ids):
            var keys: [SQLiteKey] = []
            for id in ids { keys.append(try key(id)) }
            try delete(keys, on: connection)
        case .allOthers:
            let kept = Set(rows.map(\.key))
            try delete(allKeys(on: connection).filter { !kept.contains($0) }, on: connection)
        case .all:
            try deleteEverything(on: connection)
        }
        // 2. The values, with the change's time.
        try write(rows, cacheTime: change.date, on: connection)
        // 3. The list they make.
        if let listKey = change.listKey {
            try setList(listKey, storedAt: change.date, on: connection)
            try connection.withStatement(CacheIndexSQL.clearList) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(listKey, at: 2)
                try statement.run()
            }
            try add(rows.map(\.key), to: listKey, from: 0, on: connection)
        }
        // 4. The lists they join.
        for listKey in change.extendedListKeys {
            guard let (nextPosition, present) = try listIDs(listKey, on: connection) else { continue }
            var seen = present
            try add(
                rows.map(\.key).filter { seen.insert($0).inserted },
                to: listKey,
                from: nextPosition,
                on: connection
            )
        }
    }

    private func allKeys(on connection: SQLiteConnection) throws(DataError) -> [SQLiteKey] {
        try connection.withStatement(sql.cacheIndex.selectKeys) { statement throws(DataError) in
            var keys: [SQLiteKey] = []
            while try statement.step() { keys.append(statement.key(at: 0)) }
            return keys
        }
    }

    private func setList(_ listKey: String, storedAt: Date, on connection: SQLiteConnection) throws(DataError) {
        try connection.withStatement(CacheIndexSQL.setList) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(listKey, at: 2)
            statement.bind(storedAt.timeIntervalSince1970, at: 3)
            try statement.run()
        }
    }

    /// The position after the last of the list's ids, and those ids; nil if there is no such list.
    private func listIDs(
        _ listKey: String,
        on connection: SQLiteConnection
    ) throws(DataError)
        -> (nextPosition: Int, ids: Set<SQLiteKey>)?
    {
        let exists = try connection.withStatement(CacheIndexSQL.selectList) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(listKey, at: 2)
            return try statement.step()
        }
        guard exists else { return nil }
        return try connection.withStatement(CacheIndexSQL.selectListIDs) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(listKey, at: 2)
            var next = 0
            var ids: Set<SQLiteKey> = []
            while try statement.step() {
                next = statement.integer(at: 0) + 1
                ids.insert(statement.key(at: 1))
            }
            return (next, ids)
        }
    }

    private func add(
        _ keys: [SQLiteKey],
        to listKey: String,
        from position: Int,
        on connection: SQLiteConnection
    )
        throws(DataError)
    {
        for (offset, key) in keys.enumerated() {
            try connection.withStatement(CacheIndexSQL.addListItem) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(listKey, at: 2)
                statement.bind(position + offset, at: 3)
                statement.bind(key, at: 4)
                try statement.run()
            }
        }
    }
}
