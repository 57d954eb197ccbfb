/// The objects for which a condition holds, for sources that hold their values locally
/// (``InMemoryDataSource``, ``FileDataSource``).
///
/// ```swift
/// let pinned = try notes.getAll(FilterQuery<Note> { $0.isPinned }).get()
/// ```
///
/// `get` answers with the first match, in the source's order; `deleteAll` deletes every match. A remote source
/// cannot run a closure on the server and fails it with ``DataError/Code/queryNotSupported``.
public struct FilterQuery<Value>: Query, CustomStringConvertible {
    /// The condition: `true` for the objects the query selects.
    public let isIncluded: @Sendable (Value) -> Bool

    /// A query for the objects for which `isIncluded` returns `true`.
    public init(_ isIncluded: @escaping @Sendable (Value) -> Bool) {
        self.isIncluded = isIncluded
    }

    /// `FilterQuery<Value>`, for error messages and logs.
    public var description: String { "FilterQuery<\(Value.self)>" }
}
