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
/// | `getAll(PageQuery(limit: n, after: id))` | `GET path?limit=n&after=id` (`after` left out when nil) |
/// | `put(value)` | `PUT path/{id}` with the value as JSON |
/// | `put(value, ifAbsent: true)` | the same, with `If-None-Match: *`; a 412 fails with ``DataError/Code/conflict`` |
/// | `putAll(values)` | one `PUT` per value, in order |
/// | `delete(IdQuery(id))`, `delete(IdQuery(id), ifPresent:)` | `DELETE path/{id}` (200 or 204; a 404 is ``DataError/Code/notFound``) |
/// | `deleteAll(AllObjectsQuery())` | `DELETE path` |
/// | `deleteAll(IdsQuery(ids))` | one `DELETE path/{id}` per id, every one sent (a 404 counts as deleted) |
///
/// Each id is put in the URL as exactly one path segment, percent-encoded (`"a/b"` is sent as `path/a%2Fb`); an
/// id that is empty, `"."` or `".."` would name another resource, so the call fails with
/// ``DataError/Code/invalidQuery`` and sends nothing (an ``IdsQuery`` holding one such id included).
///
/// A `PUT` answered with a JSON body answers with that body, the value as the server stored it; an empty body
/// means the value sent. A 404 fails with ``DataError/Code/notFound`` for every method (the server's word, with
/// the ``HTTPError`` as ``DataError/underlying``); other statuses fail with ``HTTPError``. Other queries, a
/// ``FilterQuery`` included, fail with ``DataError/Code/queryNotSupported``, without a request; for a server's
/// search endpoints, write a source of your own over the same client.
///
/// Give it an ``HTTPRetryPolicy`` to send requests again after failures that say the server could not be reached
/// or could not answer: the retries happen inside the source, so a ``CacheRepository`` over it sees only the last
/// failure. A `PUT` or `DELETE` is idempotent and is retried like a `GET`.
///
/// ```swift
/// let notes = RESTDataSource<Note>(client: client, path: "notes", retry: HTTPRetryPolicy(times: 2), timeout: .seconds(10))
/// ```
public struct RESTDataSource<Value: Codable & Identifiable & Sendable>: GetDataSource, PutDataSource,
    DeleteDataSource
where Value.ID: Sendable {
    private let client: HTTPClient
    private let path: String
    private let retry: HTTPRetryPolicy
    private let timeout: Duration?

    /// A source for the collection at `path` on `client`'s server.
    ///
    /// - Parameters:
    ///   - client: The client that sends the requests.
    ///   - path: The collection's path, relative to the client's base URL.
    ///   - retry: When each request is sent again, and after how long; by default never.
    ///   - timeout: How long each request may wait for its answer (every request's ``Endpoint/timeout``); `nil`
    ///     keeps the session's own.
    public init(client: HTTPClient, path: String, retry: HTTPRetryPolicy = .none, timeout: Duration? = nil) {
        self.client = client
        self.path = path
        self.retry = retry
        self.timeout = timeout
    }

    /// `GET path/{id}` for an ``IdQuery``.
    public func get(_ query: any Query) -> Response<Value> {
        guard let query = query as? IdQuery<Value.ID> else { return unsupported(query) }
        if let invalid = invalid([query.id], in: query) { return Response(error: invalid) }
        return send(item(.get, query.id, decode: Endpoint<Value>.decodeJSON), for: query)
    }

    /// `GET path` for ``AllObjectsQuery``; `GET path/{id}` for each id of an ``IdsQuery`` or ``IdQuery``;
    /// `GET path?limit=N&after=ID` for a ``PageQuery``.
    public func getAll(_ query: any Query) -> Response<[Value]> {
        if query is AllObjectsQuery {
            return send(Endpoint(.get, .segments(collection), [], [:], nil, nil, Endpoint.decodeJSON), for: query)
        }
        if let page = query as? any AnyPageQuery { return getPage(page) }
        let ids: [Value.ID]
        if let query = query as? IdsQuery<Value.ID> {
            ids = query.ids
        } else if let query = query as? IdQuery<Value.ID> {
            ids = [query.id]
        } else {
            return unsupported(query)
        }
        if let invalid = invalid(ids, in: query) { return Response(error: invalid) }
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
        put(value, ifAbsent: false)
    }

    /// One `PUT` per value, each sent once the one before has answered, so the server stores them in order;
    /// answers with the stored values. Every value is sent, whatever the ones before it answered: when some fail,
    /// the call fails with ``DataError/Code/partiallyApplied`` (``DataError/failedIDs`` the ids that failed,
    /// ``DataError/underlying`` the first failure), or with the first failure when none was stored. An invalid id
    /// fails it before anything is sent.
    public func putAll(_ values: [Value]) -> Response<[Value]> {
        if let invalid = invalid(values.map(\.id), in: IdsQuery(values.map(\.id))) { return Response(error: invalid) }
        typealias Outcome = (stored: [Value], failures: [(id: Value.ID, error: any Error)])
        let sent = values.reduce(Response<Outcome>(value: ([], []))) { previous, value in
            previous.flatMap { outcome in
                put(value).then { result -> Response<Outcome> in
                    switch result {
                    case .success(let stored): return Response(value: (outcome.stored + [stored], outcome.failures))
                    case .failure(let error) where HTTPClient.isCancellation(error): return Response(error: error)
                    case .failure(let error):
                        return Response(value: (outcome.stored, outcome.failures + [(value.id, error)]))
                    }
                }
            }
        }
        return sent.map { [name] outcome in
            let ids = values.map(\.id)
            if let error = DataError.batch(
                "putAll",
                of: ids,
                in: name,
                failures: outcome.failures,
                applied: outcome.stored
            ) {
                throw error
            }
            return outcome.stored
        }
    }

    /// `DELETE path/{id}` for an ``IdQuery``.
    public func delete(_ query: any Query) -> Response<Void> {
        guard let query = query as? IdQuery<Value.ID> else { return unsupported(query) }
        if let invalid = invalid([query.id], in: query) { return Response(error: invalid) }
        var endpoint = item(.delete, query.id, decode: Endpoint<Void>.ignoreBody)
        endpoint.commitsWhenSent = true
        return send(endpoint, for: query)
    }

    /// `DELETE path` for ``AllObjectsQuery``; one `DELETE path/{id}` per id of an ``IdsQuery`` or ``IdQuery``.
    public func deleteAll(_ query: any Query) -> Response<Void> {
        if query is AllObjectsQuery {
            var endpoint = Endpoint(.delete, .segments(collection), [], [:], nil, nil, Endpoint.ignoreBody)
            endpoint.commitsWhenSent = true
            return send(endpoint, for: query)
        }
        if let query = query as? IdQuery<Value.ID> { return delete(query) }
        guard let query = query as? IdsQuery<Value.ID> else { return unsupported(query) }
        if let invalid = invalid(query.ids, in: query) { return Response(error: invalid) }
        // Every DELETE is sent, whatever the others answer; a 404 counts as deleted (it is gone either way). The
        // first goes alone, the others together once it has answered: a call cancelled before the first was sent
        // sends nothing, one cancelled later answers what the server did (see `Resolver.commitToOutcome()`).
        let deletion: @Sendable (Value.ID) -> Response<(any Error)?> = { id in
            delete(IdQuery(id)).map { (any Error)?.none }.recover { error -> (any Error)? in
                if HTTPClient.isCancellation(error) { throw error }
                return error.isDataError(.notFound) ? nil : error
            }
        }
        guard let first = query.ids.first else { return Response(value: ()) }
        let sent = deletion(first).flatMap { firstError in
            Response<[(any Error)?]>.all(query.ids.dropFirst().map(deletion)).map { [firstError] + $0 }
        }
        return sent.map { [name] errors in
            let failures = zip(query.ids, errors).compactMap { id, error in error.map { (id: id, error: $0) } }
            if let error = DataError.batch("deleteAll", of: query.ids, in: name, failures: failures) { throw error }
        }
    }

    var name: String {
        "RESTDataSource<\(Value.self)> at \(RedactedURL(client.baseURL.appendingPathComponent(path)))"
    }

    /// The collection's path, one segment per `/`-separated part.
    var collection: [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The endpoint for the item with `id`: the collection's segments, then the id as one segment.
    func item<Output>(
        _ method: HTTPMethod,
        _ id: Value.ID,
        decode: @escaping @Sendable (Data, HTTPURLResponse) throws -> Output
    ) -> Endpoint<Output> {
        Endpoint(method: method, pathSegments: collection + ["\(id)"], decode: decode)
    }

    /// The failure for the first id that cannot be one path segment, if any: nothing is sent then.
    func invalid(_ ids: [Value.ID], in query: any Query) -> DataError? {
        guard let id = ids.first(where: { URLEncoding.isUnsafeSegment("\($0)") }) else { return nil }
        return DataError(
            code: .invalidQuery,
            message: "the id \"\(id)\" in \(query) cannot be sent to \(name): it would name another resource",
        )
    }

    /// Sends `endpoint` with the source's timeout and retry policy, turning a 404 into
    /// ``DataError/Code/notFound`` for `query`.
    func send<Output>(_ endpoint: Endpoint<Output>, for query: any Query) -> Response<Output> {
        let name = name
        var endpoint = endpoint
        if let timeout { endpoint.timeout = timeout }
        return client.send(endpoint, retry: retry).mapError { error in
            guard let http = error as? HTTPError, http.status == 404 else { return error }
            return DataError(code: .notFound, message: "nothing matches \(query) in \(name)", underlying: http)
        }
    }

    func unsupported<Output>(_ query: any Query) -> Response<Output> {
        Response(error: DataError.queryNotSupported(query, by: name))
    }
}
