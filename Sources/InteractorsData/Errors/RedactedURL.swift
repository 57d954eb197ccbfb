import Foundation

/// A URL as an error message or a log quotes it: scheme, host, port and path, with each query value replaced by
/// `…` (`?token=…&page=…`), and without user, password or fragment: a query value or a user name may be a secret
/// (an API key, a signed link), and messages end up in logs and crash reports.
struct RedactedURL: CustomStringConvertible {
    let url: URL

    init(_ url: URL) {
        self.url = url
    }

    var description: String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "(a URL of \(url.absoluteString.count) characters, not quoted)"
        }
        var text = ""
        if let scheme = components.scheme { text += scheme + ":" }
        if let host = components.percentEncodedHost {
            text += "//" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
            if let port = components.port { text += ":\(port)" }
        }
        text += components.percentEncodedPath
        if let query = components.percentEncodedQuery {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item in
                guard let equals = item.firstIndex(of: "=") else { return String(item) }
                return item[..<equals] + "=…"
            }
            text += "?" + items.joined(separator: "&")
        }
        return text
    }
}
