public import InteractorsData
public import Logging
public import PostgresNIO

/// One table of a PostgreSQL database keeping values of one type: each operation a ``PostgresCall`` (what to do on a
/// connection), which ``run(_:)`` awaits (the plain twin) and ``response(_:)`` starts as a `Response` (what
/// ``PostgresDataSource`` answers), the same work and the same deadline either way.
///
/// The table has a text primary key, the value as `jsonb`, and the order values were first stored (a put that
/// replaces a value keeps its place): see ``PostgresTableSQL``. Every call fails with a `DataError`, coded as
/// `SQLiteDataSource` codes its own (see ``PostgresTable/dataError(_:_:)``), or with `CancellationError` when its
/// task is cancelled.
///
/// - **A deadline.** Each call gives up after ``deadline`` (waiting for a connection included) with
///   `storageFailed`: while the server is down, the pool would otherwise keep a request waiting for the connection
///   it retries. A PUT that timed out may still have committed; one answered has.
/// - **Cancellation.** A call cancelled while it waits for a connection leaves the pool's queue and never runs.
///   One cancelled while its statement runs asks the server to cancel that statement (`pg_cancel_backend`, over a
///   connection of its own, since the pool's may all be busy), which rolls it back, and keeps its connection out
///   of the pool until that request is done, so it cannot cancel a later statement of another call. (Closing the
///   connection instead would leave PostgresNIO 1.33 waiting forever for a query sent on it after the close.)
public struct PostgresTable<Value: Codable & Identifiable & Sendable>: Sendable where Value.ID == String {
    /// The client whose connections the calls use; it must be running (it is a service of the server's group).
    public let client: PostgresClient
    /// The table's statements.
    public let sql: PostgresTableSQL
    /// How long one call may take, waiting for a connection included.
    public let deadline: Duration
    /// The source's name in messages: "PostgresTable<Book> (table books in postgres://…)".
    public let sourceName: String
    let location: PostgresLocation
    let logger: Logger
    let backends = BackendProcesses()

    /// The table `name` of the database `location` names, through `client`; nothing is sent until a call.
    /// `storageFailed` for a name that is not a plain SQL identifier (see ``PostgresTableSQL``).
    public init(
        client: PostgresClient,
        name: String,
        location: PostgresLocation,
        deadline: Duration = .milliseconds(750),
        logger: Logger
    ) throws(DataError) {
        self.client = client
        self.sql = try PostgresTableSQL(table: name)
        self.deadline = deadline
        self.sourceName = "PostgresTable<\(Value.self)> (table \(name) in \(location))"
        self.location = location
        self.logger = logger
    }

    // MARK: Reading

    /// The value with `id`; `notFound` when there is none.
    public func get(_ id: String) -> PostgresCall<Value> {
        call("get") { [sql, logger, sourceName] connection in
            let rows = try await connection.query(sql.selectOne(id), logger: logger)
            for try await body in rows.decode(JSONB<Value>.self) { return body.wrapped }
            throw DataError(code: .notFound, message: "no row with id '\(id)' in \(sourceName)")
        }
    }

    /// The values `selection` names: every value in the order first stored, those of some ids in the ids' order
    /// (those found), those a condition keeps, or a page in the ids' order.
    public func list(_ selection: PostgresSelection<Value>) -> PostgresCall<[Value]> {
        call("getAll") { [sql, logger] connection in
            switch selection {
            case .ids(let ids):
                var found: [String: Value] = [:]
                for try await (id, body) in try await connection.query(sql.selectSome(ids), logger: logger)
                    .decode((String, JSONB<Value>).self)
                {
                    found[id] = body.wrapped
                }
                return ids.compactMap { found[$0] }
            case .page(let limit, let after):
                var values: [Value] = []
                for try await (_, body) in try await connection.query(
                    sql.selectPage(limit: limit, after: after),
                    logger: logger
                ).decode((String, JSONB<Value>).self) {
                    values.append(body.wrapped)
                }
                return values
            case .all, .matching:
                var values: [Value] = []
                for try await body in try await connection.query(sql.selectAll, logger: logger)
                    .decode(JSONB<Value>.self)
                where selection.keeps(body.wrapped) {
                    values.append(body.wrapped)
                }
                return values
            }
        }
    }

    /// How many rows the table holds.
    public func count() -> PostgresCall<Int> {
        call("count") { [sql, logger] connection in
            for try await count in try await connection.query(sql.count, logger: logger).decode(Int.self) {
                return count
            }
            return 0
        }
    }

    // MARK: Writing

    /// Stores `value`, replacing the row with its id (which keeps its place); answers once committed.
    /// `mappingFailed` at once when the value does not encode.
    ///
    /// With `ifAbsent`, only if no row has its id, and otherwise fails with `conflict` having written nothing: one
    /// `INSERT … ON CONFLICT DO NOTHING`, so of several such puts of one new id at once exactly one inserts (the
    /// others wait for its commit, then insert nothing).
    public func put(_ value: Value, ifAbsent: Bool = false) throws(DataError) -> PostgresCall<Value> {
        let statement = try encoded { () throws -> PostgresQuery in
            try ifAbsent ? sql.insertIfAbsent(value) : sql.upsert(value)
        }
        return call("put") { [self] connection in
            let inserted = try await write(statement, on: connection)
            if ifAbsent, inserted == 0 {
                throw DataError(
                    code: .conflict,
                    message: "\(sourceName) already holds a value with id \(value.id); nothing was written"
                )
            }
            return value
        }
    }

    /// Stores `values` in order, in one transaction: all of them, or none. `mappingFailed` at once when one does
    /// not encode.
    public func putAll(_ values: [Value]) throws(DataError) -> PostgresCall<[Value]> {
        let statements = try encoded { () throws -> [PostgresQuery] in try values.map(sql.upsert) }
        return call("putAll") { [logger] connection in
            try await connection.withTransaction(logger: logger) { connection in
                for statement in statements { try await connection.query(statement, logger: logger) }
            }
            return values
        }
    }

    /// Deletes the row of `id`; succeeds when there is none, unless `ifPresent`: then fails with `notFound`, as the
    /// `DELETE` itself tells (no row came back), with no read before it that another write could overtake.
    public func delete(_ id: String, ifPresent: Bool = false) -> PostgresCall<Void> {
        call("delete") { [self] connection in
            let deleted = try await write(sql.deleteOne(id), on: connection)
            if ifPresent, deleted == 0 {
                throw DataError(code: .notFound, message: "no row with id '\(id)' in \(sourceName)")
            }
        }
    }

    /// Deletes the rows `selection` names, in one transaction.
    public func delete(_ selection: PostgresSelection<Value>) -> PostgresCall<Void> {
        call("deleteAll") { [self] connection in
            switch selection {
            case .all:
                try await write(sql.deleteAll, on: connection)
            case .ids(let ids):
                try await write(sql.deleteSome(ids), on: connection)
            case .page(let limit, let after):
                try await connection.withTransaction(logger: logger) { connection in
                    var ids: [String] = []
                    for try await (id, _) in try await connection.query(
                        sql.selectPage(limit: limit, after: after),
                        logger: logger
                    ).decode((String, JSONB<Value>).self) {
                        ids.append(id)
                    }
                    try await connection.query(sql.deleteSome(ids), logger: logger)
                }
            case .matching(let isIncluded):
                try await connection.withTransaction(logger: logger) { connection in
                    var ids: [String] = []
                    for try await body in try await connection.query(sql.selectAllForUpdate, logger: logger)
                        .decode(JSONB<Value>.self)
                    where isIncluded(body.wrapped) {
                        ids.append(body.wrapped.id)
                    }
                    try await connection.query(sql.deleteSome(ids), logger: logger)
                }
            }
        }
    }

    /// Runs `statement` (an INSERT, an UPDATE or a DELETE, in a transaction of its own) and returns once the server
    /// has committed it, with the number of rows the statement returned (a `RETURNING` clause's rows: those it
    /// inserted or deleted).
    ///
    /// PostgresNIO ends a query at its CommandComplete, but in the extended query protocol a statement outside a
    /// transaction block commits only at the Sync that follows, which the server answers with ReadyForQuery
    /// (PostgreSQL's protocol, "Extended Query"): a server stopped in between sends the CommandComplete and rolls
    /// the statement back. The next query on the connection starts only after that ReadyForQuery, so its answer
    /// says the write is committed; a connection lost first fails the call, and the write is not acknowledged.
    @discardableResult
    func write(_ statement: PostgresQuery, on connection: PostgresConnection) async throws -> Int {
        var returned = 0
        for try await _ in try await connection.query(statement, logger: logger) { returned += 1 }
        try await connection.query(sql.afterCommit, logger: logger)
        return returned
    }

    // MARK: Creating

    /// Creates the table when it is missing, waiting up to `deadline` for the server (the pool retries a server
    /// that is not up yet). Instances that start together take turns (a transaction-scoped advisory lock: two
    /// `CREATE TABLE IF NOT EXISTS` at once can both try to create it). `corruptStore` if a table of that name
    /// exists but is not one this source keeps.
    public func create(within deadline: Duration) -> PostgresCall<Void> {
        call("create", deadline: deadline) { [sql, logger, sourceName] connection in
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query(sql.lockCreation, logger: logger)
                try await connection.query(sql.create, logger: logger)
            }
            do {
                try await connection.query(sql.checkColumns, logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState]?.hasPrefix("42") == true {
                throw DataError(
                    code: .corruptStore,
                    message: "\(sourceName) exists but is not a table this source keeps (another program's?)",
                    underlying: error
                )
            }
        }
    }

    /// A statement built from a value; `mappingFailed` when the value does not encode.
    private func encoded<T>(_ build: () throws -> T) throws(DataError) -> T {
        do {
            return try build()
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot encode \(Value.self) as JSON for \(sourceName)",
                underlying: error
            )
        }
    }
}
