import BookshelfApp
import InteractorsData
import Testing

/// A path segment becomes one book's id, decoded per RFC 3986, or a 400.
@Suite struct BookIDTests {
    @Test(arguments: [("b1", "b1"), ("b%201", "b 1"), ("caf%C3%A9", "café"), ("a%25b", "a%b"), ("...", "...")])
    func aSegmentDecodesToItsId(segment: String, id: String) throws {
        #expect(try BookID.decode(Substring(segment)) == id)
    }

    @Test(arguments: ["", ".", "..", "%2E%2E", "a%2Fb", "a%00b", "%7F", "%zz", "%", String(repeating: "x", count: 257)])
    func aSegmentThatNamesNoSingleBookIsRefused(segment: String) {
        let error = #expect(throws: DataError.self) { try BookID.decode(Substring(segment)) }
        #expect(error?.code == .invalidQuery)
    }
}
