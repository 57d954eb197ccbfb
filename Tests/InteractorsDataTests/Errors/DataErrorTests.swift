import Foundation
import InteractorsData
import TestThreads
import Testing

/// Errors say what went wrong, where, and why.
@Suite(.onThreadsOfTheirOwn) struct DataErrorTests {
    struct Cause: Error, CustomStringConvertible {
        var description: String { "the cause" }
    }

    @Test func descriptionIncludesCodeMessageAndUnderlyingError() {
        let error = DataError(code: .corruptStore, message: "/tmp/notes.json is not a collection", underlying: Cause())
        #expect(error.description == "DataError.corruptStore: /tmp/notes.json is not a collection (the cause)")
        #expect(error.underlying is Cause)
    }

    @Test func descriptionWithoutUnderlyingErrorIsCodeAndMessage() {
        let error = DataError(code: .notFound, message: "nothing matches IdQuery(1)")
        #expect(error.description == "DataError.notFound: nothing matches IdQuery(1)")
        #expect(error.underlying == nil)
    }

    @Test func codesAreDistinctAndNamed() {
        let codes: [DataError.Code] = [
            .notFound, .queryNotSupported, .mappingFailed, .corruptStore, .storageFailed, .invalidQuery,
        ]
        #expect(Set(codes).count == codes.count)
        #expect(
            codes.map(\.description) == [
                "notFound", "queryNotSupported", "mappingFailed", "corruptStore", "storageFailed", "invalidQuery",
            ]
        )
    }

    /// What an HTTPError of a status a retry may mend says to do.
    static let retryLater = " (the server could not answer it now: send it again later, as an HTTPRetryPolicy does)"

    @Test func httpErrorCarriesStatusAndBody() {
        let error = HTTPError(status: 503, body: Data("try later".utf8))
        #expect(error.status == 503)
        #expect(error.bodyText == "try later")
        #expect(error.description == "HTTPError(503): try later" + Self.retryLater)
        #expect(HTTPError(status: 500, body: Data([0xFF])).bodyText == "\u{FFFD}")
    }

    @Test func httpHeadersAreLookedUpWhateverTheCase() {
        let headers = HTTPHeaders(["Retry-After": "7", "Content-Type": "text/plain"])
        #expect(headers["retry-after"] == "7" && headers["RETRY-AFTER"] == "7" && headers["Retry-After"] == "7")
        #expect(headers["x-none"] == nil)
        #expect(headers.description == "Content-Type: text/plain, Retry-After: 7")
        #expect(HTTPError(status: 503, headers: headers).headers["content-type"] == "text/plain")
        #expect(HTTPError(status: 503).description == "HTTPError(503): " + Self.retryLater)
    }

    @Test func aLongBodyIsQuotedUpToAKilobyteThenItsSize() {
        let error = HTTPError(status: 500, body: Data(repeating: UInt8(ascii: "x"), count: 51_200))
        #expect(
            error.description == "HTTPError(500): " + String(repeating: "x", count: 1_024) + "… (51200 bytes)"
                + Self.retryLater
        )
        #expect(
            HTTPError(status: 500, body: Data(repeating: 0x41, count: 1_024)).description.hasSuffix(
                "A" + Self.retryLater
            )
        )
    }

    @Test func anHTTPErrorMadeWithoutItsRequestHasNoMethodOrURL() {
        let error = HTTPError(status: 503, body: Data("try later".utf8))
        #expect(error.method == nil && error.url == nil)
        #expect(error.localizedDescription == "HTTPError(503): try later" + Self.retryLater)
    }

    @Test func anHTTPErrorQuotesItsURLWithoutQueryValuesUserOrFragment() {
        let url = URL(string: "https://ada:pw@[::1]:8443/a%20b/notes?token=s3cret&page=2&flag#frag")!
        let error = HTTPError(status: 401, body: Data("no".utf8), method: "DELETE", url: url)
        #expect(
            error.description
                == "HTTPError(401) DELETE https://[::1]:8443/a%20b/notes?token=…&page=…&flag: no (the server refused the "
                + "request's credentials: send valid ones (a TokenRefreshInterceptor refreshes a token and sends the "
                + "request again))"
        )
        #expect(error.url == url)
    }

    @Test func localizedDescriptionIsTheDescription() {
        let error: any Error = DataError(code: .notFound, message: "nothing matches IdQuery(1)")
        #expect(error.localizedDescription == "DataError.notFound: nothing matches IdQuery(1)")
    }
}
