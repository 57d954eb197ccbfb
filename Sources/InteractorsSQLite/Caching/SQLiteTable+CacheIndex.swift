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
    /// Applies `change` in the steps `CacheChange` lists; the caller's transaction makes it all or nothing. A
    /// change with a read position is a read's answer: see ``applyAnswer(_:_:as:on:)``.
    func apply(_ change: CacheChange<Value>, on connection: SQLiteConnection) throws(DataError) {
        let encoded = try encode(change.values)  // a value that does not encode fails it before anything is written
        // The pending writes first (SQLiteTable+PendingWrites.swift).
        guard let (change, rows) = try applyPendingStep(change, encoded, on: connection) else { return }
        if let readPosition = change.readPosition {
            return try applyAnswer(change, rows, as: readPosition, on: connection)
        }
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
            try replaceList(listKey, with: rows.map(\.key), at: change.date, on: connection)
        }
        // 4. The lists they join.
        try extend(change.extendedListKeys, with: rows.map(\.key), on: connection)
    }

    /// Applies a read's answer as of `readPosition`: the ids written since keep what those writes left, and
    /// nothing is written if the order no longer tells which ids those are.
    private func applyAnswer(
        _ change: CacheChange<Value>,
        _ rows: [StoredRow],
        as readPosition: CacheWritePosition,
        on connection: SQLiteConnection
    ) throws(DataError) {
        guard let since = try writes(since: readPosition, on: connection) else { return }
        // An id with a pending write is left as that write left it, as one written since the read was sent is.
        let pending = try pendingKeys(on: connection)
        let touched = since.touched.union(pending.all)
        // 1. What goes first, but what was written since.
        switch change.removal {
        case .nothing:
            break
        case .ids(let ids):
            var keys: [SQLiteKey] = []
            for id in ids { keys.append(try key(id)) }
            try delete(keys.filter { !touched.contains($0) }, takesPositions: false, on: connection)
        case .allOthers:
            let kept = Set(rows.map(\.key))
            let gone = try allKeys(on: connection).filter { !kept.contains($0) && !touched.contains($0) }
            try delete(gone, takesPositions: false, on: connection)
        case .all:
            let gone = try allKeys(on: connection).filter { !touched.contains($0) }
            try delete(gone, takesPositions: false, on: connection)
            try dropLists(on: connection)
        }
        // 2. The values, but those written since.
        let stored = rows.filter { !touched.contains($0.key) }
        try write(stored, cacheTime: change.date, takesPositions: false, on: connection)
        // 3. The list: the answer's ids the table holds now (those put since stay, those deleted since stay out);
        // for the list of everything, with the values put since.
        if let listKey = change.listKey {
            var keys: [SQLiteKey] = []
            for row in rows {
                if touched.contains(row.key), !pending.deletions.contains(row.key) {
                    guard try holds(row.key, on: connection) else { continue }
                }
                keys.append(row.key)
            }
            if case .allOthers = change.removal {
                var listed = Set(keys)
                for key in since.put + pending.puts where listed.insert(key).inserted {
                    if try holds(key, on: connection) { keys.append(key) }
                }
            }
            try replaceList(listKey, with: keys, at: change.date, on: connection)
        }
        // 4. The lists the stored values join.
        try extend(change.extendedListKeys, with: stored.map(\.key), on: connection)
    }

    private func allKeys(on connection: SQLiteConnection) throws(DataError) -> [SQLiteKey] {
        try connection.withStatement(sql.cacheIndex.selectKeys) { statement throws(DataError) in
            var keys: [SQLiteKey] = []
            while try statement.step() { keys.append(statement.key(at: 0)) }
            return keys
        }
    }

    /// Whether the table holds a row of `key`.
    private func holds(_ key: SQLiteKey, on connection: SQLiteConnection) throws(DataError) -> Bool {
        try connection.withStatement(sql.selectOne) { statement throws(DataError) in
            statement.bind(key, at: 1)
            return try statement.step()
        }
    }

    /// Makes the list under `listKey` the ids of `keys`, in order, stored at `storedAt`.
    private func replaceList(
        _ listKey: String,
        with keys: [SQLiteKey],
        at storedAt: Date,
        on connection: SQLiteConnection
    ) throws(DataError) {
        try connection.withStatement(CacheIndexSQL.setList) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(listKey, at: 2)
            statement.bind(storedAt.timeIntervalSince1970, at: 3)
            try statement.run()
        }
        try connection.withStatement(CacheIndexSQL.clearList) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(listKey, at: 2)
            try statement.run()
        }
        try add(keys, to: listKey, from: 0, on: connection)
    }

    private func dropLists(on connection: SQLiteConnection) throws(DataError) {
        for drop in [CacheIndexSQL.dropAllLists, CacheIndexSQL.dropAllListItems] {
            try connection.withStatement(drop) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                try statement.run()
            }
        }
    }

    /// Appends `keys` to each list of `listKeys` that exists and lacks them: O(log n) per key, whatever the
    /// lists' lengths (the list's end and each key's membership are found through the index).
    func extend(_ listKeys: [String], with keys: [SQLiteKey], on connection: SQLiteConnection) throws(DataError) {
        for listKey in listKeys {
            let exists = try connection.withStatement(CacheIndexSQL.selectList) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(listKey, at: 2)
                return try statement.step()
            }
            guard exists else { continue }
            var next = try connection.withStatement(CacheIndexSQL.selectNextListPosition) {
                statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(listKey, at: 2)
                _ = try statement.step()
                return statement.integer(at: 0)
            }
            var seen = Set<SQLiteKey>()
            for key in keys where seen.insert(key).inserted {
                let listed = try connection.withStatement(CacheIndexSQL.selectListHolds) {
                    statement throws(DataError) in
                    statement.bind(sql.name, at: 1)
                    statement.bind(listKey, at: 2)
                    statement.bind(key, at: 3)
                    return try statement.step()
                }
                guard !listed else { continue }
                try add([key], to: listKey, from: next, on: connection)
                next += 1
            }
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
