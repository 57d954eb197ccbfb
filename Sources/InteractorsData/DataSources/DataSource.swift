/// A source that reads, stores and deletes values: ``InMemoryDataSource``, ``FileDataSource``,
/// ``RESTDataSource``, ``UserDefaultsDataSource``, InteractorsSQLite's `SQLiteDataSource`, or one of your own.
///
/// It adds nothing to the three protocols it refines, so a type that adopts it implements ``GetDataSource``,
/// ``PutDataSource`` and ``DeleteDataSource``; being one protocol, it can constrain a generic parameter:
///
/// ```swift
/// struct Logged<Base: DataSource>: DataSource {
///     let base: Base
///     func get(_ query: any Query) -> Response<Base.Value> { base.get(query) }
///     // ...
/// }
/// ```
///
/// Every parameter of the library that takes a data source (``CacheRepository/init(main:cache:isValid:maxAge:fallback:onCacheFailure:answerFromCacheAfter:pendingWrites:)``,
/// ``SingleSourceRepository/init(_:)``) also takes a type that adopts the three protocols one by one, as before
/// `DataSource` was a protocol of its own.
public protocol DataSource<Value>: GetDataSource, PutDataSource, DeleteDataSource {}

// The stores that adopt `CacheIndexStore` (a refinement of `DataSource`) conform through it.
extension RESTDataSource: DataSource {}

/// What the library's parameters that take a data source accept: a ``DataSource``, or any type that adopts the
/// three protocols one by one (what `DataSource` was before it became a protocol of its own).
typealias DataSourceParts<Value> = GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>
