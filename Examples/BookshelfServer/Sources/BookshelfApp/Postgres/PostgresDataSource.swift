public import Interactors
public import InteractorsData

/// A data source over one PostgreSQL table: the library's `DataSource` protocol on a ``PostgresTable``, for the
/// repositories and CRUD interactors the library variant runs.
///
/// ```swift
/// let table = try PostgresTable<Book>(client: client, name: "books", location: location, logger: logger)
/// let books = PostgresDataSource(table)
/// executor.register(GetInteractor(repository: SingleSourceRepository(books), queue: .immediate))
/// ```
///
/// It answers as `SQLiteDataSource` does: `get` one value (`notFound` when none), `getAll` of `IdQuery`,
/// `IdsQuery` (in the query's order), `AllObjectsQuery` (in the order first stored), `FilterQuery` (evaluated in
/// Swift over the rows) and `PageQuery` (in the ids' byte order, through the primary key); `put` an upsert answered
/// once committed, `put(_:ifAbsent: true)` one `INSERT … ON CONFLICT DO NOTHING` (`conflict` when the id is
/// there); `delete` of a missing id succeeds, `delete(_:ifPresent: true)` fails with `notFound`, told by the
/// `DELETE`; `putAll` and `deleteAll` each one transaction; any other query fails with `queryNotSupported` at once.
///
/// Each call starts the table's call (``PostgresTable/response(_:)``, a task of its own) and returns its `Response`
/// at once: cancelling the response cancels the call, and so its statement (see ``PostgresTable``).
public struct PostgresDataSource<Value: Codable & Identifiable & Sendable>: DataSource where Value.ID == String {
    /// The table the calls go to.
    public let table: PostgresTable<Value>

    /// A source over `table`.
    public init(_ table: PostgresTable<Value>) {
        self.table = table
    }

    /// The one value `query` selects (an `IdQuery` reads one row; other queries the first of their answer);
    /// `notFound` when there is none.
    public func get(_ query: any Query) -> Response<Value> {
        if let query = query as? IdQuery<String> { return table.response(table.get(query.id)) }
        return plan(query) { selection in table.response(table.list(selection)) }.map { [table] values in
            guard let first = values.first else {
                throw DataError(code: .notFound, message: "nothing matches \(query) in \(table.sourceName)")
            }
            return first
        }
    }

    /// Every value `query` selects.
    public func getAll(_ query: any Query) -> Response<[Value]> {
        plan(query) { selection in table.response(table.list(selection)) }
    }

    /// Stores `value`, replacing the value with its id; answers once committed.
    public func put(_ value: Value) -> Response<Value> {
        put(value, ifAbsent: false)
    }

    /// Stores `value`; with `ifAbsent`, only if no row has its id (one statement), else fails with `conflict`.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        do {
            return table.response(try table.put(value, ifAbsent: ifAbsent))
        } catch {
            return Response(error: error)
        }
    }

    /// Stores `values`, in order, in one transaction.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        do {
            return table.response(try table.putAll(values))
        } catch {
            return Response(error: error)
        }
    }

    /// Deletes the value with the `IdQuery`'s id; succeeds when there is none.
    public func delete(_ query: any Query) -> Response<Void> {
        guard let query = query as? IdQuery<String> else {
            return Response(
                error: DataError(
                    code: .queryNotSupported,
                    message: "\(table.sourceName) deletes by IdQuery, not \(query)"
                )
            )
        }
        return table.response(table.delete(query.id))
    }

    /// Deletes the value with the query's id; with `ifPresent`, fails with `notFound` when the `DELETE` found none.
    public func delete(_ query: IdQuery<String>, ifPresent: Bool) -> Response<Void> {
        table.response(table.delete(query.id, ifPresent: ifPresent))
    }

    /// Deletes every value `query` selects, in one transaction; `AllObjectsQuery` empties the table.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        plan(query) { selection in table.response(table.delete(selection)) }
    }

    /// The response `start` makes of `query`'s selection, or one failing at once when the source cannot answer it.
    private func plan<T: Sendable>(
        _ query: any Query,
        _ start: (PostgresSelection<Value>) -> Response<T>
    ) -> Response<T> {
        do {
            return start(try PostgresSelection<Value>(query, source: table.sourceName))
        } catch {
            return Response(error: error)
        }
    }
}
