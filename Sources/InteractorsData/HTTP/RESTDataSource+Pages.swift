import Foundation
import Interactors

// MARK: Pages

extension RESTDataSource {
    /// `GET path?limit=N&after=ID` (`after` left out for the first page), answered with the server's JSON array;
    /// the server pages. A page whose id type is not the values' one fails with
    /// ``DataError/Code/queryNotSupported``, one with a negative limit with ``DataError/Code/invalidQuery``,
    /// before anything is sent.
    func getPage(_ page: any AnyPageQuery) -> Response<[Value]> {
        guard page.idType == Value.ID.self else { return unsupported(page) }
        if let invalid = DataError.invalidPage(page, for: name) { return Response(error: invalid) }
        var items = [URLQueryItem(name: "limit", value: "\(page.limit)")]
        if let after = page.anyAfter { items.append(URLQueryItem(name: "after", value: "\(after)")) }
        return send(Endpoint(.get, .segments(collection), items, [:], nil, nil, Endpoint.decodeJSON), for: page)
    }
}
