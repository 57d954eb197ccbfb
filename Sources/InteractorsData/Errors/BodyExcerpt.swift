import Foundation

/// The start of a body, for an error message: at most the first 1,024 bytes as UTF-8 text, then the body's size
/// when it is longer (`… (51200 bytes)`), so a message stays readable whatever the server sent.
struct BodyExcerpt: CustomStringConvertible {
    static let limit = 1_024

    let body: Data

    init(_ body: Data) {
        self.body = body
    }

    var description: String {
        guard body.count > Self.limit else { return String(decoding: body, as: UTF8.self) }
        return String(decoding: body.prefix(Self.limit), as: UTF8.self) + "… (\(body.count) bytes)"
    }
}
