import Foundation

/// How an ``Endpoint``'s path and query become the URL's text: each piece percent-encoded here, once, and the URL
/// built from the encoded text (`appendingPathComponent` would encode a `%` a second time).
enum URLEncoding {
    /// RFC 3986's unreserved characters: the only ones a path segment or a query item keeps as they are.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    /// What a hand-written relative path may keep: a path's characters, less `;` (a parameter in some servers).
    private static let relativePathAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: ";"))

    /// A segment that would not name a resource under the path before it: empty, `.` or `..`.
    static func isUnsafeSegment(_ segment: String) -> Bool {
        segment.isEmpty || segment == "." || segment == ".."
    }

    /// `value` as one path segment or one query name or value: everything but the unreserved characters encoded.
    static func component(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The encoded path an endpoint appends to the base URL, without a leading `/`.
    static func path(_ form: Endpoint<some Sendable>.PathForm) -> String {
        switch form {
        case .relative(let path):
            let trimmed = path.drop { $0 == "/" }
            return trimmed.addingPercentEncoding(withAllowedCharacters: relativePathAllowed) ?? ""
        case .segments(let segments):
            return segments.map(component).joined(separator: "/")
        }
    }

    /// `base` followed by `encodedPath` and `query`; nil if the result is not a URL.
    static func url(base: URL, encodedPath: String, query: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
        if !encodedPath.isEmpty {
            var path = components.percentEncodedPath
            if !path.hasSuffix("/") { path += "/" }
            components.percentEncodedPath = path + encodedPath
        }
        if !query.isEmpty {
            let items = query.map { item in
                component(item.name) + (item.value.map { "=" + component($0) } ?? "")
            }
            components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + items)
                .joined(separator: "&")
        }
        return components.url
    }
}
