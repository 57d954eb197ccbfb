/// The object with one id.
///
/// A source answers it only when `ID` is its values' id type; an `IdQuery<Int>` sent to a source keyed by
/// `String` fails with ``DataError/Code/queryNotSupported``.
public struct IdQuery<ID: Hashable & Sendable>: Query, CustomStringConvertible {
    /// The id asked for.
    public let id: ID

    /// A query for the object with `id`.
    public init(_ id: ID) {
        self.id = id
    }

    /// `IdQuery(<id>)`, for error messages and logs.
    public var description: String { "IdQuery(\(id))" }
}
