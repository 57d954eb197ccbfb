import Foundation
public import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Create-only puts, and deletes that say whether it was there

extension RESTDataSource {
    /// `PUT path/{id}` with `value` as JSON; answers with the server's JSON answer, or `value` if it is empty. With
    /// `ifAbsent`, the request carries `If-None-Match: *` (RFC 9110 §13.1.2: apply it only if the server has no
    /// current representation of the resource), and the server's `412 Precondition Failed` fails the call with
    /// ``DataError/Code/conflict``, the ``HTTPError`` as its ``DataError/underlying``. A server that ignores the
    /// header replaces the value.
    public func put(_ value: Value, ifAbsent: Bool) -> Response<Value> {
        let query = IdQuery(value.id)
        if let invalid = invalid([value.id], in: query) { return Response(error: invalid) }
        var endpoint = item(.put, value.id) { data, _ in
            data.isEmpty ? value : try JSONDecoder().decode(Value.self, from: data)
        }
        do {
            endpoint.body = try Endpoint<Value>.encodeJSON(value)
        } catch {
            return Response(error: error)
        }
        endpoint.headers = Endpoint<Value>.jsonHeaders
        endpoint.commitsWhenSent = true
        guard ifAbsent else { return send(endpoint, for: query) }
        endpoint.headers["If-None-Match"] = "*"
        return send(endpoint, for: query).mapError { [name] error in
            guard let http = error as? HTTPError, http.status == 412 else { return error }
            return DataError(
                code: .conflict,
                message: "\(name) already holds a value with id \(value.id) (412); nothing was written",
                underlying: http
            )
        }
    }

    /// `DELETE path/{id}`: the server's 404 fails with ``DataError/Code/notFound`` whether or not `ifPresent` says
    /// so, since a server tells; a local store's `delete` succeeds on a missing id unless `ifPresent`.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool) -> Response<Void> {
        delete(query)
    }
}
