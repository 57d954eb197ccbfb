/// What to read or delete: an id, a list of ids, everything, a condition, or a query of your own.
///
/// ```swift
/// notes.get(IdQuery("n1"))
/// notes.getAll(IdsQuery(["n1", "n2"]))
/// notes.getAll(AllObjectsQuery())
/// notes.getAll(FilterQuery<Note> { $0.isPinned })
/// ```
///
/// A data source answers the queries it understands and fails every other with
/// ``DataError/Code/queryNotSupported``, never with a crash. Define your own queries for sources of your own
/// (a search term for a REST endpoint, a SQL condition): a query is any `Sendable` value.
public protocol Query: Sendable {}
