import Foundation
import InteractorsData

/// A value's id as it is stored in the `id` column: the key that finds, replaces and deletes its row.
///
/// The encoding is stable, so a database written by one version of an app is read by the next: a `String` id
/// (and anything that encodes as a single string: a `UUID`, a `String`-backed enum) is stored as that text; an
/// integer id (anything that encodes as a single whole number that fits in 64 bits) as that integer; any other id
/// (a struct, an array) as its JSON text with sorted keys and no white space. The column has no type affinity, so
/// SQLite keeps each key as it was given and compares text with text and integers with integers.
enum SQLiteKey: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case text(String)

    /// The key of `id`; fails with `mappingFailed` if `id` does not encode.
    init(_ id: some Encodable, table: String) throws(DataError) {
        // The common id types, without an encoder: the same keys the JSON route gives them.
        switch id {
        case let text as String:
            self = .text(text)
            return
        case let integer as Int:
            self = .integer(Int64(integer))
            return
        case let uuid as UUID:
            self = .text(uuid.uuidString)
            return
        default:
            break
        }
        let json: Data
        do {
            json = try Self.encoder.encode(id)
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot encode the id \(id) for table \(table)",
                underlying: error
            )
        }
        if let text = try? JSONDecoder().decode(String.self, from: json) {
            self = .text(text)
        } else if let integer = try? JSONDecoder().decode(Int64.self, from: json) {
            self = .integer(integer)
        } else {
            self = .text(String(decoding: json, as: UTF8.self))
        }
    }

    /// The key as it reads in a message: the id's text or number.
    var description: String {
        switch self {
        case .integer(let integer): "\(integer)"
        case .text(let text): text
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
