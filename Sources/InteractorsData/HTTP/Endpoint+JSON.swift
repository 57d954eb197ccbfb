public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: JSON endpoints
//
// The helpers send and expect JSON: bodies are encoded with a plain `JSONEncoder` and sent with
// `Content-Type: application/json`; answers are decoded with a plain `JSONDecoder`. For other strategies (dates,
// key styles), build the endpoint with `init(method:path:query:headers:body:timeout:decode:)`. A decoding
// endpoint given an empty body (a 204, an empty 200) fails with `mappingFailed`, saying the body was empty.

extension Endpoint where Output: Decodable {
    /// `GET path?query`, decoding the answer as JSON.
    public static func get(
        _ path: String,
        query: [URLQueryItem] = [],
        as type: Output.Type = Output.self
    ) -> Endpoint {
        Endpoint(method: .get, path: path, query: query, headers: ["Accept": "application/json"], decode: decodeJSON)
    }

    /// `DELETE path?query`, decoding the answer as JSON.
    public static func delete(
        _ path: String,
        query: [URLQueryItem] = [],
        as type: Output.Type = Output.self
    ) -> Endpoint {
        Endpoint(method: .delete, path: path, query: query, headers: ["Accept": "application/json"], decode: decodeJSON)
    }

    /// `POST path` with `body` as JSON, decoding the answer as JSON. Throws if `body` cannot be encoded.
    public static func post(_ path: String, body: some Encodable, as type: Output.Type = Output.self) throws -> Endpoint
    {
        try Endpoint(method: .post, path: path, headers: jsonHeaders, body: encodeJSON(body), decode: decodeJSON)
    }

    /// `PUT path` with `body` as JSON, decoding the answer as JSON. Throws if `body` cannot be encoded.
    public static func put(_ path: String, body: some Encodable, as type: Output.Type = Output.self) throws -> Endpoint
    {
        try Endpoint(method: .put, path: path, headers: jsonHeaders, body: encodeJSON(body), decode: decodeJSON)
    }

    @Sendable
    static func decodeJSON(_ data: Data, _ response: HTTPURLResponse) throws -> Output {
        try JSONDecoder().decode(Output.self, from: data)
    }
}

extension Endpoint where Output == Void {
    /// `DELETE path?query`; any 2xx answer succeeds, whatever its body.
    public static func delete(_ path: String, query: [URLQueryItem] = []) -> Endpoint<Void> {
        Endpoint(method: .delete, path: path, query: query, decode: ignoreBody)
    }

    /// `PUT path` with `body` as JSON; any 2xx answer succeeds, whatever its body. Throws if `body` cannot be
    /// encoded.
    public static func put(_ path: String, body: some Encodable) throws -> Endpoint<Void> {
        try Endpoint(method: .put, path: path, headers: jsonHeaders, body: encodeJSON(body), decode: ignoreBody)
    }

    /// `POST path` with `body` as JSON; any 2xx answer succeeds, whatever its body. Throws if `body` cannot be
    /// encoded.
    public static func post(_ path: String, body: some Encodable) throws -> Endpoint<Void> {
        try Endpoint(method: .post, path: path, headers: jsonHeaders, body: encodeJSON(body), decode: ignoreBody)
    }

    @Sendable
    static func ignoreBody(_ data: Data, _ response: HTTPURLResponse) {}
}

extension Endpoint {
    static var jsonHeaders: [String: String] {
        ["Content-Type": "application/json", "Accept": "application/json"]
    }

    static func encodeJSON(_ body: some Encodable) throws -> Data {
        do {
            return try JSONEncoder().encode(body)
        } catch {
            throw DataError(code: .mappingFailed, message: "cannot encode \(type(of: body)) as JSON", underlying: error)
        }
    }
}
