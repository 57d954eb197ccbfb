import Foundation
import InteractorsData

/// A pending write as read (in one read transaction; decoded after it).
struct PendingRow: Sendable {
    let key: SQLiteKey
    let position: Int
    let json: Data?
    let queuedAt: Double
    let attempts: Int
    let errorCode: String?
    let errorMessage: String?
}

/// The pending writes read, with the epoch of the order their positions are in.
struct PendingRows: Sendable {
    let epoch: UInt64
    let rows: [PendingRow]
}

// MARK: Pending writes, in the transaction of the change that makes or settles them

extension SQLiteTable {
    /// The ids with a pending write: every one, those of deletes, and those of puts in order.
    struct PendingKeys {
        var all: Set<SQLiteKey> = []
        var deletions: Set<SQLiteKey> = []
        var puts: [SQLiteKey] = []
    }

    func pendingKeys(on connection: SQLiteConnection) throws(DataError) -> PendingKeys {
        try connection.withStatement(PendingWritesSQL.selectKeys) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            var keys = PendingKeys()
            while try statement.step() {
                let key = statement.key(at: 0)
                keys.all.insert(key)
                if statement.integer(at: 1) != 0 { keys.deletions.insert(key) } else { keys.puts.append(key) }
            }
            return keys
        }
    }

    /// Applies `change`'s pending-writes step (`rows` its values, encoded); answers what is left of the change and
    /// its rows for the other steps, or nil when the step did all there was to do.
    func applyPendingStep(
        _ change: CacheChange<Value>,
        _ rows: [StoredRow],
        on connection: SQLiteConnection
    ) throws(DataError) -> (change: CacheChange<Value>, rows: [StoredRow])? {
        let step = change.pendingWrites
        switch step.kind {
        case .failedAgain:
            guard let position = step.position, position.epoch == (try writePosition(on: connection)).epoch else {
                return nil
            }
            try connection.withStatement(PendingWritesSQL.failedAgain) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(Int(position.sequence), at: 2)
                if let error = step.lastError {
                    statement.bind("\(error.code)", at: 3)
                    statement.bind(error.message, at: 4)
                }
                try statement.run()
            }
            return nil
        case .settle:
            let (change, rows, removed) = try leavingOut(change, rows, pendingAfter: step.position, on: connection)
            for key in rows.map(\.key) + removed { try dropPending(key, on: connection) }
            return (change, rows)
        case .keep:
            let (change, rows, removed) = try leavingOut(change, rows, pendingAfter: step.position, on: connection)
            try keep(change, rows, removed: removed, lastError: step.lastError, on: connection)
            return nil
        default:
            return (change, rows)
        }
    }

    /// `change` and `rows` without the ids whose pending write was made after `position`, and the keys of the
    /// change's removal by ids that are left.
    private func leavingOut(
        _ change: CacheChange<Value>,
        _ rows: [StoredRow],
        pendingAfter position: CacheWritePosition?,
        on connection: SQLiteConnection
    ) throws(DataError) -> (CacheChange<Value>, [StoredRow], removed: [SQLiteKey]) {
        var removedIDs: [Value.ID] = []
        if case .ids(let ids) = change.removal { removedIDs = ids }
        guard let position else {
            var removed: [SQLiteKey] = []
            for id in removedIDs { removed.append(try key(id)) }
            return (change, rows, removed)
        }
        let epoch = try writePosition(on: connection).epoch
        func isLater(_ key: SQLiteKey) throws(DataError) -> Bool {
            guard let pending = try pendingPosition(of: key, on: connection) else { return false }
            // Before the first write (epoch 0), or of another order: every pending write is later.
            guard position.epoch != 0, position.epoch == epoch else { return true }
            return pending > Int(position.sequence)
        }
        var change = change
        var keptValues: [Value] = []
        var keptRows: [StoredRow] = []
        for (value, row) in zip(change.values, rows) where try !isLater(row.key) {
            keptValues.append(value)
            keptRows.append(row)
        }
        change.values = keptValues
        var removed: [SQLiteKey] = []
        var keptIDs: [Value.ID] = []
        for id in removedIDs {
            let key = try key(id)
            if try isLater(key) { continue }
            keptIDs.append(id)
            removed.append(key)
        }
        if case .ids = change.removal { change.removal = .ids(keptIDs) }
        return (change, keptRows, removed)
    }

    /// Applies `change` as a write the main source could not take: its rows stored and its `removed` keys deleted
    /// (left in the lists), each becoming the id's pending write at the position it takes.
    private func keep(
        _ change: CacheChange<Value>,
        _ rows: [StoredRow],
        removed: [SQLiteKey],
        lastError: DataError?,
        on connection: SQLiteConnection
    ) throws(DataError) {
        let queuedAt = change.date.timeIntervalSince1970
        if !removed.isEmpty {
            try recordWrites(removed, deleted: true, on: connection)
            let first = Int(try writePosition(on: connection).sequence) - removed.count + 1
            for (offset, key) in removed.enumerated() {
                // The row and its time go; its places in the lists stay (see `PendingWriteStore`).
                try connection.withStatement(sql.deleteOne) { statement throws(DataError) in
                    statement.bind(key, at: 1)
                    try statement.run()
                }
                try connection.withStatement(CacheIndexSQL.forgetTime) { statement throws(DataError) in
                    statement.bind(sql.name, at: 1)
                    statement.bind(key, at: 2)
                    try statement.run()
                }
                try keepPending(key, json: nil, at: first + offset, queuedAt: queuedAt, lastError, on: connection)
            }
        }
        if !rows.isEmpty {
            try write(rows, cacheTime: change.date, on: connection)
            let first = Int(try writePosition(on: connection).sequence) - rows.count + 1
            for (offset, row) in rows.enumerated() {
                try keepPending(
                    row.key,
                    json: row.json,
                    at: first + offset,
                    queuedAt: queuedAt,
                    lastError,
                    on: connection
                )
            }
            try extend(change.extendedListKeys, with: rows.map(\.key), on: connection)
        }
    }

    private func keepPending(
        _ key: SQLiteKey,
        json: Data?,
        at position: Int,
        queuedAt: Double,
        _ lastError: DataError?,
        on connection: SQLiteConnection
    ) throws(DataError) {
        try connection.withStatement(PendingWritesSQL.keep) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(key, at: 2)
            statement.bind(position, at: 3)
            if let json { statement.bind(utf8: json, at: 4) }
            statement.bind(queuedAt, at: 5)
            if let lastError {
                statement.bind("\(lastError.code)", at: 6)
                statement.bind(lastError.message, at: 7)
            }
            try statement.run()
        }
    }

    private func pendingPosition(of key: SQLiteKey, on connection: SQLiteConnection) throws(DataError) -> Int? {
        try connection.withStatement(PendingWritesSQL.selectPosition) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(key, at: 2)
            return try statement.step() ? statement.integer(at: 0) : nil
        }
    }

    private func dropPending(_ key: SQLiteKey, on connection: SQLiteConnection) throws(DataError) {
        try connection.withStatement(PendingWritesSQL.drop) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(key, at: 2)
            try statement.run()
        }
    }

    // MARK: Reading them (in one read transaction; decoded after it)

    /// The pending writes after `position` (all for nil; a position of another order is before every one), at
    /// most `limit`, in order.
    func pendingRows(
        after position: CacheWritePosition?,
        limit: Int?,
        on connection: SQLiteConnection
    ) throws(DataError) -> PendingRows {
        try connection.reading { () throws(DataError) -> PendingRows in
            let epoch = try writePosition(on: connection).epoch
            let after = position.flatMap { $0.epoch == epoch ? Int($0.sequence) : nil } ?? 0
            let rows = try connection.withStatement(PendingWritesSQL.selectAfter) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(after, at: 2)
                statement.bind(limit ?? -1, at: 3)
                var rows: [PendingRow] = []
                while try statement.step() {
                    rows.append(
                        PendingRow(
                            key: statement.key(at: 0),
                            position: statement.integer(at: 1),
                            json: statement.optionalUTF8Data(at: 2),
                            queuedAt: statement.double(at: 3) ?? 0,
                            attempts: statement.integer(at: 4),
                            errorCode: statement.optionalUTF8Data(at: 5).map { String(decoding: $0, as: UTF8.self) },
                            errorMessage: statement.optionalUTF8Data(at: 6).map { String(decoding: $0, as: UTF8.self) }
                        )
                    )
                }
                return rows
            }
            return PendingRows(epoch: epoch, rows: rows)
        }
    }

    /// The pending writes of `pending`, decoded (a put whose value ``UndecodableRows/skip`` leaves out is left out).
    func pendingWrites(_ pending: PendingRows) throws(DataError) -> [PendingWrite<Value>] {
        let puts = pending.rows.compactMap { row in row.json.map { StoredRow(key: row.key, json: $0) } }
        var values = try decodeEach(puts).makeIterator()
        var writes: [PendingWrite<Value>] = []
        writes.reserveCapacity(pending.rows.count)
        for row in pending.rows {
            var value: Value?
            if row.json != nil {
                guard let decoded = values.next() ?? nil else { continue }
                value = decoded
            }
            let id: Value.ID
            if let value { id = value.id } else { id = try row.key.id(as: Value.ID.self, table: sql.name) }
            writes.append(
                PendingWrite(
                    id: id,
                    value: value,
                    queuedAt: Date(timeIntervalSince1970: row.queuedAt),
                    attempts: row.attempts,
                    lastError: row.errorCode.map { DataError(code: .named($0), message: row.errorMessage ?? "") },
                    position: CacheWritePosition(epoch: pending.epoch, sequence: UInt64(row.position))
                )
            )
        }
        return writes
    }
}
