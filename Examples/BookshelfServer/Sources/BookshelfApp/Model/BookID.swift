import Foundation
public import InteractorsData

/// The id of a `/books/{id}` route, read from the path segment as the client sent it.
///
/// The router hands over the segment still percent-encoded; this decodes it (RFC 3986: `%2F` is a `/` inside the
/// id, not a separator) and refuses, with `DataError.invalidQuery` (a 400), ids that would not name one book: empty,
/// `.` or `..`, containing `/`, a control character (`%00` among them), malformed escapes, or longer than
/// ``maximumLength`` bytes.
public enum BookID {
    /// The longest id accepted, in UTF-8 bytes.
    public static let maximumLength = 256

    /// The decoded id of `segment`, or `DataError.invalidQuery` saying why it is refused.
    public static func decode(_ segment: Substring) throws(DataError) -> String {
        // The common case, an id of unreserved characters, needs no decoding.
        let needsDecoding = segment.utf8.contains(UInt8(ascii: "%"))
        guard let id = needsDecoding ? String(segment).removingPercentEncoding : String(segment) else {
            throw refused(segment, "it holds a malformed percent-escape")
        }
        guard !id.isEmpty else { throw refused(segment, "it is empty") }
        guard id != ".", id != ".." else { throw refused(segment, "it would name another resource") }
        guard id.utf8.count <= maximumLength else {
            throw refused(segment.prefix(32) + "…", "it is longer than \(maximumLength) bytes")
        }
        for scalar in id.unicodeScalars {
            if scalar == "/" { throw refused(segment, "it holds a '/'") }
            if scalar.properties.generalCategory == .control { throw refused(segment, "it holds a control character") }
        }
        return id
    }

    private static func refused(_ segment: some StringProtocol, _ reason: String) -> DataError {
        DataError(code: .invalidQuery, message: "the book id '\(segment)' is refused: \(reason)")
    }
}
