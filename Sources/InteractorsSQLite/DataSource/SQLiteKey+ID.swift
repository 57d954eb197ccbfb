import Foundation
import InteractorsData

extension SQLiteKey {
    /// The id this key was made from, read back as `ID`: the inverse of ``init(_:table:)``.
    ///
    /// An integer key is the id's JSON number; a text key is first tried as the id's JSON string (a `String`, a
    /// `UUID`, a `String`-backed enum), then as the id's own JSON text (a struct's sorted-keys JSON). Fails with
    /// `mappingFailed` if neither reads as an `ID` (a key another program wrote, or an id type that changed).
    func id<ID: Decodable>(as type: ID.Type, table: String) throws(DataError) -> ID {
        // The common id types, without a decoder.
        switch self {
        case .text(let text):
            if let id = text as? ID { return id }
            if ID.self == UUID.self, let uuid = UUID(uuidString: text) as? ID { return uuid }
        case .integer(let integer):
            if let id = Int(exactly: integer) as? ID { return id }
        }
        let decoder = JSONDecoder()
        switch self {
        case .integer(let integer):
            if let id = try? decoder.decode(ID.self, from: Data("\(integer)".utf8)) { return id }
        case .text(let text):
            if let string = try? JSONEncoder().encode(text), let id = try? decoder.decode(ID.self, from: string) {
                return id
            }
            if let id = try? decoder.decode(ID.self, from: Data(text.utf8)) { return id }
        }
        throw DataError(code: .mappingFailed, message: "the key \(self) in table \(table) is not a \(ID.self)")
    }
}
