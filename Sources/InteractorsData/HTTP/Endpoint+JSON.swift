import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: JSON endpoints
//
// The helpers send and expect JSON: bodies are encoded with a plain `JSONEncoder` and sent with
// `Content-Type: application/json`; answers are decoded with a plain `JSONDecoder`. For other strategies (dates,
// key styles), build the endpoint with `init(method:path:query:headers:body:decode:)`.

extension Endpoint where Output: Decodable {
    /// `GET path`, decoding the answer as JSON.
    public static func get(_ path: String, as type: Output.Type = Output.self) -> Endpoint {
        Endpoint(method: .get, path: path, headers: ["Accept": "application/json"], decode: decodeJSON)
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
    /// `DELETE path`; any 2xx answer succeeds, whatever its body.
    public static func delete(_ path: String) -> Endpoint<Void> {
        Endpoint(method: .delete, path: path) { _, _ in }
    }
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
