/// The objects with the given ids. `getAll` answers with those found, in the query's order.
public struct IdsQuery<ID: Hashable & Sendable>: Query, CustomStringConvertible {
    /// The ids asked for, in the order results come back.
    public let ids: [ID]

    /// A query for the objects with `ids`.
    public init(_ ids: [ID]) {
        self.ids = ids
    }

    /// `IdsQuery([<ids>])`, for error messages and logs.
    public var description: String { "IdsQuery(\(ids))" }
}
