import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: What the client does with redirects

extension HTTPClient {
    /// What the client does with a redirect (a 301, 302, 303, 307 or 308 answer with a `Location`).
    ///
    /// ```swift
    /// let client = HTTPClient(baseURL: api, headers: ["X-Request-Source": "app"], redirects: .follow(forwarding: ["X-Request-Source"]))
    /// ```
    ///
    /// Followed redirects keep what the request says, as RFC 9110 §15.4 does: 307 and 308 resend the method, the
    /// body and the headers; 301 and 302 turn a POST (only a POST) into a GET without a body, and 303 turns
    /// every method but GET and HEAD into one; other methods are resent as they were. A hop to another origin
    /// (scheme, host name or port) than the request first sent carries only the headers that say how to read
    /// the answer or the body (`Accept`, `Accept-Encoding`, `Accept-Language`, `Content-Language`,
    /// `Content-Type`, `User-Agent`) and the names given to ``follow(forwarding:)``; `Authorization`,
    /// `Proxy-Authorization` and `Cookie` never.
    public struct Redirects: Sendable, Hashable {
        /// Whether redirects are followed.
        public let isFollowing: Bool

        /// The names of the headers that also follow a redirect to another origin, in lower case.
        public let forwardedHeaderNames: Set<String>

        private init(isFollowing: Bool, forwardedHeaderNames: Set<String>) {
            self.isFollowing = isFollowing
            self.forwardedHeaderNames = forwardedHeaderNames
        }

        /// Follows redirects, at most 10 per send, as RFC 9110 says; no header of the app's own reaches another
        /// origin. The same as `.follow(forwarding: [])`.
        public static let follow = Redirects.follow(forwarding: [])

        /// Follows redirects as ``follow`` does, and lets the headers called `names` (compared without regard to
        /// case) reach another origin too. `Authorization`, `Proxy-Authorization` and `Cookie` never do, listed or
        /// not.
        public static func follow(forwarding names: Set<String>) -> Redirects {
            Redirects(isFollowing: true, forwardedHeaderNames: Set(names.map { $0.lowercased() }))
        }

        /// Fails the response with an ``HTTPError`` carrying the redirect's status and headers.
        public static let refuse = Redirects(isFollowing: false, forwardedHeaderNames: [])
    }
}

// MARK: Following a redirect (RFC 9110, section 15.4)

extension HTTPClient {
    /// The headers a hop to another origin keeps, besides the app's list: how to read the answer and the body.
    static let headersForAnyOrigin: Set<String> = [
        "accept", "accept-encoding", "accept-language", "content-language", "content-type", "user-agent",
    ]

    /// The credentials that stay at their origin, whatever the app lists.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The headers that describe a body (RFC 9110 §15.4, step 5): dropped with the body when the method becomes
    /// a GET.
    static let bodyHeaders: Set<String> = [
        "content-encoding", "content-language", "content-location", "content-type", "content-length", "digest",
        "last-modified",
    ]

    /// The request a redirect `response` to `request` asks for; nil if it is not a redirect with a usable
    /// `Location`. `original` is the request as first sent (after the interceptors adapted it): its headers are
    /// the ones every hop starts from, so a hop back to its origin carries them all again.
    func redirection(of request: URLRequest, original: URLRequest, by response: HTTPURLResponse) -> URLRequest? {
        let status = response.statusCode
        guard [301, 302, 303, 307, 308].contains(status), let from = request.url,
            let location = HTTPHeaders(response)["Location"],
            let target = URL(string: location, relativeTo: from)?.absoluteURL
        else { return nil }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        // RFC 9110 §15.4.2-3: on 301 and 302 a user agent may change a POST to a GET (all browsers do); §15.4.4:
        // on 303 it retrieves the target with a GET (or a HEAD after a HEAD). Every other case resends the method.
        if ((status == 301 || status == 302) && method == "POST")
            || (status == 303 && method != "GET" && method != "HEAD")
        {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        let bodyless = next.httpMethod != (original.httpMethod ?? "GET")
        let crossesOrigin = original.url.map { !Self.isSameOrigin($0, target) } ?? true
        var headers: [String: String] = [:]
        for (name, value) in original.allHTTPHeaderFields ?? [:] {
            let lowered = name.lowercased()
            if bodyless, Self.bodyHeaders.contains(lowered) { continue }
            if crossesOrigin {
                // Credentials are for the origin they were given to (curl: CVE-2022-27776); so is whatever else
                // the app sent, unless it says otherwise.
                if Self.credentialHeaders.contains(lowered) { continue }
                guard Self.headersForAnyOrigin.contains(lowered) || redirects.forwardedHeaderNames.contains(lowered)
                else { continue }
            }
            headers[name] = value
        }
        for name in (next.allHTTPHeaderFields ?? [:]).keys { next.setValue(nil, forHTTPHeaderField: name) }
        for (name, value) in headers { next.setValue(value, forHTTPHeaderField: name) }
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
