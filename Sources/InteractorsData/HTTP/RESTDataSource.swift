import Foundation
public import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A collection on a JSON REST server, through an ``HTTPClient``.
///
/// ```swift
/// let notes = RESTDataSource<Note>(client: client, path: "notes")
/// let note = try notes.get(IdQuery("n1")).get()     // GET notes/n1
/// ```
///
/// | Call | Request |
/// |---|---|
/// | `getAll(AllObjectsQuery())` | `GET path` |
/// | `get(IdQuery(id))`, `getAll(IdQuery(id))` | `GET path/{id}` |
/// | `getAll(IdsQuery(ids))` | `GET path/{id}` per id; those found, in query order |
/// | `put(value)` | `PUT path/{id}` with the value as JSON |
/// | `putAll(values)` | one `PUT` per value, in order |
/// | `delete(IdQuery(id))` | `DELETE path/{id}` (200 or 204) |
/// | `deleteAll(AllObjectsQuery())` | `DELETE path` |
/// | `deleteAll(IdsQuery(ids))` | one `DELETE path/{id}` per id |
///
/// A `PUT` answered with a JSON body answers with that body, the value as the server stored it; an empty body
/// means the value sent. A 404 fails with ``DataError/Code/notFound`` for every method (the server's word, with
/// the ``HTTPError`` as ``DataError/underlying``); other statuses fail with ``HTTPError``. Other queries, a
/// ``FilterQuery`` included, fail with ``DataError/Code/queryNotSupported``, without a request; for a server's
/// search endpoints, write a source of your own over the same client.
public struct RESTDataSource<Value: Codable & Identifiable & Sendable>: GetDataSource, PutDataSource,
    DeleteDataSource
where Value.ID: Sendable {
    private let client: HTTPClient
    private let path: String

    /// A source for the collection at `path` on `client`'s server.
    public init(client: HTTPClient, path: String) {
        self.client = client
        self.path = path
    }

    /// `GET path/{id}` for an ``IdQuery``.
    public func get(_ query: any Query) -> Response<Value> {
        guard let query = query as? IdQuery<Value.ID> else { return unsupported(query) }
        return send(.get(itemPath(query.id), as: Value.self), for: query)
    }

    /// `GET path` for ``AllObjectsQuery``; `GET path/{id}` for each id of an ``IdsQuery`` or ``IdQuery``.
    public func getAll(_ query: any Query) -> Response<[Value]> {
        if query is AllObjectsQuery { return send(.get(path, as: [Value].self), for: query) }
        let ids: [Value.ID]
        if let query = query as? IdsQuery<Value.ID> {
            ids = query.ids
        } else if let query = query as? IdQuery<Value.ID> {
            ids = [query.id]
        } else {
            return unsupported(query)
        }
        let lookups = ids.map { id in
            get(IdQuery(id)).map { Optional($0) }.recover { error in
                guard error.isDataError(.notFound) else { throw error }
                return nil
            }
        }
        return Response<[Value?]>.all(lookups).map { $0.compactMap { $0 } }
    }

    /// `PUT path/{id}` with `value` as JSON; answers with the server's JSON answer, or `value` if it is empty.
    public func put(_ value: Value) -> Response<Value> {
        let endpoint: Endpoint<Value>
        do {
            endpoint = Endpoint(
                method: .put,
                path: itemPath(value.id),
                headers: Endpoint<Value>.jsonHeaders,
                body: try Endpoint<Value>.encodeJSON(value)
            ) { data, _ in
                data.isEmpty ? value : try JSONDecoder().decode(Value.self, from: data)
            }
        } catch {
            return Response(error: error)
        }
        return send(endpoint, for: IdQuery(value.id))
    }

    /// One `PUT` per value, each sent once the one before has succeeded, so the server stores them in order;
    /// answers with the stored values. The first failure fails the response and the rest are not sent.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        values.reduce(Response(value: [])) { previous, value in
            previous.flatMap { stored in put(value).map { stored + [$0] } }
        }
    }

    /// `DELETE path/{id}` for an ``IdQuery``.
    public func delete(_ query: any Query) -> Response<Void> {
        guard let query = query as? IdQuery<Value.ID> else { return unsupported(query) }
        return send(.delete(itemPath(query.id)), for: query)
    }

    /// `DELETE path` for ``AllObjectsQuery``; one `DELETE path/{id}` per id of an ``IdsQuery`` or ``IdQuery``.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        if query is AllObjectsQuery { return send(.delete(path), for: query) }
        if let query = query as? IdQuery<Value.ID> { return delete(query) }
        guard let query = query as? IdsQuery<Value.ID> else { return unsupported(query) }
        return Response<[Void]>.all(query.ids.map { delete(IdQuery($0)) }).map { _ in }
    }

    private var name: String { "RESTDataSource<\(Value.self)> at \(client.baseURL.appendingPathComponent(path))" }

    private func itemPath(_ id: Value.ID) -> String {
        "\(path)/\(id)"
    }

    /// Sends `endpoint`, turning a 404 into ``DataError/Code/notFound`` for `query`.
    private func send<Output>(_ endpoint: Endpoint<Output>, for query: any Query) -> Response<Output> {
        let name = name
        return client.send(endpoint).mapError { error in
            guard let http = error as? HTTPError, http.status == 404 else { return error }
            return DataError(code: .notFound, message: "nothing matches \(query) in \(name)", underlying: http)
        }
    }

    private func unsupported<Output>(_ query: any Query) -> Response<Output> {
        Response(error: DataError.queryNotSupported(query, by: name))
    }
}
