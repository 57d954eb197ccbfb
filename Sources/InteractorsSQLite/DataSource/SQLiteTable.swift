import Foundation
import InteractorsData

/// How a ``SQLiteDataSource`` reads and writes its table: queries planned as row selections, values encoded to
/// and decoded from JSON, undecodable rows failed or skipped.
struct SQLiteTable<Value: Codable & Identifiable & Sendable>: Sendable where Value.ID: Codable & Sendable {
    let sql: TableSQL
    let undecodableRows: UndecodableRows
    /// The source's name in messages: "SQLiteDataSource<Note> (table notes in app.sqlite)".
    let sourceName: String
    /// Which database the table is in, for reporting a skipped row once: the file's full path (messages name the
    /// file only, and two directories may hold files of one name), or the in-memory database's identity.
    let databaseIdentity: String

    init(sql: TableSQL, undecodableRows: UndecodableRows, location: String, databaseIdentity: String) {
        self.sql = sql
        self.undecodableRows = undecodableRows
        self.sourceName = "SQLiteDataSource<\(Value.self)> (table \(sql.name) in \(location))"
        self.databaseIdentity = databaseIdentity
    }

    // MARK: Planning queries

    /// What answering `query` reads: which rows, and the condition a decoded value must meet.
    struct Plan: Sendable {
        let selection: RowSelection
        let isIncluded: (@Sendable (Value) -> Bool)?
    }

    /// The plan for `query`; `queryNotSupported` for a query this source does not answer.
    func plan(_ query: any Query) throws(DataError) -> Plan {
        if query is AllObjectsQuery { return Plan(selection: .all, isIncluded: nil) }
        if let query = query as? IdQuery<Value.ID> {
            return Plan(selection: .keys([try key(query.id)]), isIncluded: nil)
        }
        if let query = query as? IdsQuery<Value.ID> {
            var keys: [SQLiteKey] = []
            for id in query.ids { keys.append(try key(id)) }
            return Plan(selection: .keys(keys), isIncluded: nil)
        }
        if let query = query as? FilterQuery<Value> { return Plan(selection: .all, isIncluded: query.isIncluded) }
        if let query = query as? any AnyPageQuery, query.idType == Value.ID.self {
            if let invalid = DataError.invalidPage(query, for: sourceName) { throw invalid }
            let after = try query.anyAfter.map { after throws(DataError) in try key(after as! Value.ID) }
            return Plan(selection: .page(after: after, limit: query.limit), isIncluded: nil)
        }
        throw .queryNotSupported(query, by: sourceName)
    }

    func key(_ id: Value.ID) throws(DataError) -> SQLiteKey {
        try SQLiteKey(id, table: sql.name)
    }

    // MARK: Decoding (off the connection that read the rows)

    /// The values of `rows` that `plan` keeps, decoded.
    func values(_ plan: Plan, from rows: [StoredRow]) throws(DataError) -> [Value] {
        let decoded = try decode(rows)
        guard let isIncluded = plan.isIncluded else { return decoded }
        return decoded.filter(isIncluded)
    }

    private func decode(_ rows: [StoredRow]) throws(DataError) -> [Value] {
        try decodeEach(rows).compactMap { $0 }
    }

    /// Each row's value, in order; nil for a row left out because it does not decode (``UndecodableRows/skip``).
    func decodeEach(_ rows: [StoredRow]) throws(DataError) -> [Value?] {
        let decoder = JSONDecoder()
        if rows.count > 1, let values = Self.decodeTogether(rows, with: decoder) { return values }
        var values: [Value?] = []
        values.reserveCapacity(rows.count)
        for row in rows {
            do {
                values.append(try decoder.decode(Value.self, from: row.json))
            } catch {
                let problem = "row \(row.key) of \(sourceName) does not decode as \(Value.self)"
                guard undecodableRows == .skip else {
                    throw DataError(code: .mappingFailed, message: problem, underlying: error)
                }
                UndecodableRows.reportOnce(problem, in: databaseIdentity, error: error)
                values.append(nil)
            }
        }
        return values
    }

    /// The rows' values decoded in one pass, as one JSON array of the rows' texts: JSONDecoder's set-up is paid
    /// once, not once per row. Nil if any row does not decode, or is not one JSON value (the array would not have
    /// one element per row): the rows are then decoded one by one, which finds and reports the culprit.
    private static func decodeTogether(_ rows: [StoredRow], with decoder: JSONDecoder) -> [Value?]? {
        var array: [UInt8] = []
        array.reserveCapacity(rows.reduce(1) { $0 + $1.json.count + 1 })
        array.append(UInt8(ascii: "["))
        for row in rows {
            array.append(contentsOf: row.json)
            array.append(UInt8(ascii: ","))
        }
        array[array.count - 1] = UInt8(ascii: "]")
        guard let values = try? decoder.decode([Value].self, from: Data(array)), values.count == rows.count else {
            return nil
        }
        return values
    }

    // MARK: Writing (on the writer, inside a transaction)

    /// Stores `values` in order, each replacing the row with its id (and keeping that row's position). A value
    /// that does not encode fails with `mappingFailed` before anything is written. Each value's time in the cache
    /// index becomes `cacheTime` (nil, for a plain put: not stored by a repository). With `ifAbsent`, a row that
    /// has the id already fails the write with `conflict` (the transaction's savepoint then undoes it all).
    func put(
        _ values: [Value],
        ifAbsent: Bool = false,
        cacheTime: Date? = nil,
        on connection: SQLiteConnection
    ) throws(DataError) {
        try write(encode(values), cacheTime: cacheTime, ifAbsent: ifAbsent, on: connection)
    }

    /// The rows of `values`, encoded; `mappingFailed` for the first that does not encode.
    func encode(_ values: [Value]) throws(DataError) -> [StoredRow] {
        let encoder = JSONEncoder()
        var rows: [StoredRow] = []
        rows.reserveCapacity(values.count)
        for value in values {
            let key = try key(value.id)
            do {
                rows.append(StoredRow(key: key, json: try encoder.encode(value)))
            } catch {
                throw DataError(
                    code: .mappingFailed,
                    message: "cannot encode \(Value.self) with id \(key) for \(sourceName)",
                    underlying: error
                )
            }
        }
        return rows
    }

    /// Stores `rows`, each with its time in the cache index (`cacheTime`, or none), and, unless it keeps a read's
    /// answer, a position in the order of writes.
    func write(
        _ rows: [StoredRow],
        cacheTime: Date?,
        takesPositions: Bool = true,
        ifAbsent: Bool = false,
        on connection: SQLiteConnection
    ) throws(DataError) {
        if takesPositions { try recordWrites(rows.map(\.key), deleted: false, on: connection) }
        let storedAt = Date().timeIntervalSince1970
        for row in rows {
            try connection.withStatement(ifAbsent ? sql.insertIfAbsent : sql.upsert) { statement throws(DataError) in
                statement.bind(row.key, at: 1)
                statement.bind(utf8: row.json, at: 2)
                statement.bind(storedAt, at: 3)
                try statement.run()
            }
            if ifAbsent, connection.changes == 0 { throw .conflict(row.key, in: sourceName) }
            try connection.withStatement(cacheTime == nil ? CacheIndexSQL.forgetTime : CacheIndexSQL.setTime) {
                statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                statement.bind(row.key, at: 2)
                if let cacheTime { statement.bind(cacheTime.timeIntervalSince1970, at: 3) }
                try statement.run()
            }
        }
    }

    /// Deletes the row of an `IdQuery`'s id, if there is one.
    func delete(_ query: any Query, on connection: SQLiteConnection) throws(DataError) {
        guard let query = query as? IdQuery<Value.ID> else { throw .queryNotSupported(query, by: sourceName) }
        try delete([key(query.id)], on: connection)
    }

    /// Deletes every row `query` selects. A `FilterQuery` is evaluated over the decoded rows.
    func deleteAll(_ query: any Query, on connection: SQLiteConnection) throws(DataError) {
        let plan = try plan(query)
        switch (plan.selection, plan.isIncluded) {
        case (.all, nil):
            try deleteEverything(on: connection)
        case (.keys(let keys), _):
            try delete(keys, on: connection)
        case (.page, _):
            try delete(sql.rows(plan.selection, on: connection).map(\.key), on: connection)
        case (.all, .some):
            let matches = try values(plan, from: sql.rows(.all, on: connection))
            var keys: [SQLiteKey] = []
            for value in matches { keys.append(try key(value.id)) }
            try delete(keys, on: connection)
        }
    }

    /// Deletes the row of the query's id; with `ifPresent`, `notFound` if there is none (told by the `DELETE`
    /// itself).
    func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, on connection: SQLiteConnection) throws(DataError) {
        try delete([key(query.id)], ifPresent: ifPresent ? query : nil, on: connection)
    }

    /// Deletes the rows of `keys`, their times, and their places in every list; unless it keeps a read's answer,
    /// each key (held or not) takes a position in the order of writes. A key without a row fails with `notFound`
    /// for `ifPresent`, the query that asked for it.
    func delete(
        _ keys: [SQLiteKey],
        takesPositions: Bool = true,
        ifPresent: (any Query)? = nil,
        on connection: SQLiteConnection
    ) throws(DataError) {
        if takesPositions { try recordWrites(keys, deleted: true, on: connection) }
        for key in keys {
            try connection.withStatement(sql.deleteOne) { statement throws(DataError) in
                statement.bind(key, at: 1)
                try statement.run()
            }
            if let ifPresent, connection.changes == 0 { throw .notFound(ifPresent, in: sourceName) }
            for forget in [CacheIndexSQL.forgetTime, CacheIndexSQL.leaveLists] {
                try connection.withStatement(forget) { statement throws(DataError) in
                    statement.bind(sql.name, at: 1)
                    statement.bind(key, at: 2)
                    try statement.run()
                }
            }
        }
    }

    /// Deletes every row, every time and every list: one write in the order of writes, which forgets those before.
    func deleteEverything(on connection: SQLiteConnection) throws(DataError) {
        try recordEverything(on: connection)
        try connection.withStatement(sql.deleteEverything) { statement throws(DataError) in try statement.run() }
        let forgets = [CacheIndexSQL.forgetAllTimes, CacheIndexSQL.dropAllLists, CacheIndexSQL.dropAllListItems]
        for forget in forgets + [PendingWritesSQL.dropAll] {
            try connection.withStatement(forget) { statement throws(DataError) in
                statement.bind(sql.name, at: 1)
                try statement.run()
            }
        }
    }
}
