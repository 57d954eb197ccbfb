public import Interactors

/// A repository over one data source: every call goes to it, whatever the operation.
///
/// ```swift
/// let notes = SingleSourceRepository(FileDataSource<Note>(fileURL: url))
/// ```
public struct SingleSourceRepository<Value: Identifiable & Sendable>: GetRepository, PutRepository,
    DeleteRepository
where Value.ID: Sendable {
    private let source: any DataSourceParts<Value>

    /// A repository over `source`: a ``DataSource``, or a type that adopts ``GetDataSource``, ``PutDataSource``
    /// and ``DeleteDataSource`` one by one.
    public init(_ source: some GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>) {
        self.source = source
    }

    /// The source's `get`; the operation is ignored.
    public func get(_ query: any Query, operation: RepositoryOperation) -> Response<Value> {
        source.get(query)
    }

    /// The source's `getAll`; the operation is ignored.
    public func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Value]> {
        source.getAll(query)
    }

    /// The source's `put`; the operation is ignored.
    public func put(_ value: Value, operation: RepositoryOperation) -> Response<Value> {
        source.put(value)
    }

    /// The source's `putAll`; the operation is ignored.
    public func putAll(_ values: [Value], operation: RepositoryOperation) -> Response<[Value]> {
        source.putAll(values)
    }

    /// The source's `delete`; the operation is ignored.
    public func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        source.delete(query)
    }

    /// The source's `put(_:ifAbsent:)`; the operation is ignored.
    public func put(_ value: Value, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Value> {
        source.put(value, ifAbsent: ifAbsent)
    }

    /// The source's `delete(_:ifPresent:)`; the operation is ignored.
    public func delete(_ query: IdQuery<Value.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void> {
        source.delete(query, ifPresent: ifPresent)
    }

    /// The source's `deleteAll`; the operation is ignored.
    public func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        source.deleteAll(query)
    }
}
