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
/// `IdsQuery` (in the query's order), `AllObjectsQuery` (in the order first stored) and `FilterQuery` (evaluated in
/// Swift over the rows); `put` an upsert answered once committed; `delete` of a missing id succeeds; `putAll` and
/// `deleteAll` each one transaction; any other query fails with `queryNotSupported` at once.
///
/// Each call starts the table's `async` call in a task and returns its `Response` at once: cancelling the
/// response cancels the task, and so the statement (see ``PostgresTable``).
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
        if let query = query as? IdQuery<String> {
            return Response { [table] in try await table.value(query.id) }
        }
        return plan(query) { [table] selection in
            guard let first = try await table.values(selection).first else {
                throw DataError(code: .notFound, message: "nothing matches \(query) in \(table.sourceName)")
            }
            return first
        }
    }

    /// Every value `query` selects.
    public func getAll(_ query: any Query) -> Response<[Value]> {
        plan(query) { [table] selection in try await table.values(selection) }
    }

    /// Stores `value`, replacing the value with its id; answers once committed.
    public func put(_ value: Value) -> Response<Value> {
        Response { [table] in try await table.put(value) }
    }

    /// Stores `values`, in order, in one transaction.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        Response { [table] in try await table.putAll(values) }
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
        return Response { [table] in try await table.delete(query.id) }
    }

    /// Deletes every value `query` selects, in one transaction; `AllObjectsQuery` empties the table.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        plan(query) { [table] selection in try await table.delete(selection) }
    }

    /// A response running `body` with `query`'s selection, or failing at once when the source cannot answer it.
    private func plan<T: Sendable>(
        _ query: any Query,
        _ body: @escaping @Sendable (PostgresSelection<Value>) async throws -> T
    ) -> Response<T> {
        do {
            let selection = try PostgresSelection<Value>(query, source: table.sourceName)
            return Response { try await body(selection) }
        } catch {
            return Response(error: error)
        }
    }
}
