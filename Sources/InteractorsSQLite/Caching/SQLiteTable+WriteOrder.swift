import InteractorsData

/// The order of a source's writes, kept in the database (`interactors_cache_order` and
/// `interactors_cache_writes`, see ``CacheIndexSQL``): every put and delete of the table, from any connection or
/// process, takes the next position in the write's transaction, and the latest write of each id is kept for the
/// last ``SQLiteTable/writeOrderCapacity`` positions. A `CacheRepository` reads the position before it sends a
/// read to its main source; the read's answer then leaves the ids written since as those writes left them.
extension SQLiteTable {
    /// How many of the latest positions the order remembers, as the in-memory and file stores do.
    static var writeOrderCapacity: Int { 1_000 }

    /// The ids written after a read's position: all of them, and those put (not deleted since), oldest first.
    struct WritesSince {
        var touched: Set<SQLiteKey>
        var put: [SQLiteKey]
    }

    // MARK: Reading (any connection)

    /// Where the source is in its order of writes; position 0 of epoch 0 before its first write.
    func writePosition(on connection: SQLiteConnection) throws(DataError) -> CacheWritePosition {
        let order = try self.order(on: connection)
        return CacheWritePosition(epoch: UInt64(order.epoch), sequence: UInt64(order.position))
    }

    /// The writes after `readPosition`; nil if the order no longer tells them (another epoch, or older than the
    /// floor).
    func writes(
        since readPosition: CacheWritePosition,
        on connection: SQLiteConnection
    ) throws(DataError) -> WritesSince? {
        let order = try self.order(on: connection)
        if readPosition.epoch == 0 {  // before the first write: every write since is after it
            guard readPosition.sequence == 0, order.floor == 0 else { return nil }
        } else {
            guard readPosition.epoch == UInt64(order.epoch), readPosition.sequence >= UInt64(order.floor),
                readPosition.sequence <= UInt64(order.position)
            else { return nil }
        }
        return try connection.withStatement(CacheIndexSQL.selectWritesAfter) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(Int(readPosition.sequence), at: 2)
            var since = WritesSince(touched: [], put: [])
            while try statement.step() {
                let key = statement.key(at: 0)
                since.touched.insert(key)
                if statement.integer(at: 1) == 0 { since.put.append(key) }
            }
            return since
        }
    }

    private func order(on connection: SQLiteConnection) throws(DataError) -> (epoch: Int, position: Int, floor: Int) {
        try connection.withStatement(CacheIndexSQL.selectOrder) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            guard try statement.step() else { return (0, 0, 0) }
            return (statement.integer(at: 0), statement.integer(at: 1), statement.integer(at: 2))
        }
    }

    // MARK: Writing (on the writer, inside the transaction)

    /// Gives each of `keys` the next position, a put or a deletion.
    func recordWrites(_ keys: [SQLiteKey], deleted: Bool, on connection: SQLiteConnection) throws(DataError) {
        guard !keys.isEmpty else { return }
        let last = try takePositions(keys.count, on: connection)
        let first = last - keys.count + 1
        let oldestKept = last - Self.writeOrderCapacity + 1
        for (offset, key) in keys.enumerated() where first + offset >= oldestKept {
            try connection.withStatement(CacheIndexSQL.recordWrite) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(key, at: 2)
                statement.bind(first + offset, at: 3)
                statement.bind(deleted ? 1 : 0, at: 4)
                try statement.run()
            }
        }
        // Forget the positions that fell out of the window: at once if this write skipped some, else every 64
        // positions (the floor may lag; the writes above it are all there).
        if first < oldestKept || (first - 1) / 64 != last / 64, oldestKept > 1 {
            try forgetWrites(upTo: oldestKept - 1, on: connection)
        }
    }

    /// Takes a position for a write that may have touched any id (every row deleted), and forgets every write
    /// before it: a read sent earlier changes nothing.
    func recordEverything(on connection: SQLiteConnection) throws(DataError) {
        try forgetWrites(upTo: takePositions(1, on: connection), on: connection)
    }

    /// Takes `count` positions; the last one.
    private func takePositions(_ count: Int, on connection: SQLiteConnection) throws(DataError) -> Int {
        try connection.withStatement(CacheIndexSQL.takePositions) { statement throws(DataError) in
            statement.bind(sql.name, at: 1)
            statement.bind(Int(CacheWritePosition.newEpoch()), at: 2)
            statement.bind(count, at: 3)
            try statement.run()
        }
        return try order(on: connection).position
    }

    private func forgetWrites(upTo floor: Int, on connection: SQLiteConnection) throws(DataError) {
        for statementSQL in [CacheIndexSQL.raiseFloor, CacheIndexSQL.forgetWrites] {
            try connection.withStatement(statementSQL) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(floor, at: 2)
                try statement.run()
            }
        }
    }
}
