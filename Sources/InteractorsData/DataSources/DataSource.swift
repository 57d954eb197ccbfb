/// A source that reads, stores and deletes values: ``InMemoryDataSource``, ``FileDataSource``,
/// ``RESTDataSource``, or one of your own.
public typealias DataSource<Value> = GetDataSource<Value> & PutDataSource<Value> & DeleteDataSource<Value>
