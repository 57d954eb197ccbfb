import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Following a redirect (RFC 9110, section 15.4)

extension HTTPClient {
    /// The request a redirect `response` to `request` asks for; nil if it is not a redirect with a usable
    /// `Location`.
    static func redirection(of request: URLRequest, by response: HTTPURLResponse) -> URLRequest? {
        let status = response.statusCode
        guard [301, 302, 303, 307, 308].contains(status), let from = request.url,
            let location = HTTPHeaders(response)["Location"],
            let target = URL(string: location, relativeTo: from)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        if status != 307, status != 308, method != "GET", method != "HEAD" {
            // The user agent changes the method to GET and drops the body, and the headers that described it.
            next.httpMethod = "GET"
            next.httpBody = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if !isSameOrigin(from, target) {
            // Credentials are for the origin they were given to: never hand them to another host.
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return next
    }

    /// Whether two URLs share scheme, host name and port. Names are compared, not addresses: `127.0.0.1` and
    /// `localhost` are two origins.
    static func isSameOrigin(_ one: URL, _ other: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(one) == origin(other)
    }
}
