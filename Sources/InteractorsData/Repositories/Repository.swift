/// A repository that reads, stores and deletes values: ``CacheRepository``, ``SingleSourceRepository``,
/// ``MappedRepository``, or one of your own.
public typealias Repository<Value> = GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>
