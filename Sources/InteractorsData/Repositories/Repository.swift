/// A repository that reads, stores and deletes values: ``CacheRepository``, ``SingleSourceRepository``,
/// ``MappedRepository``, or one of your own.
///
/// It adds nothing to the three protocols it refines, so a type that adopts it implements ``GetRepository``,
/// ``PutRepository`` and ``DeleteRepository``; being one protocol, it can constrain a generic parameter:
///
/// ```swift
/// struct Logged<Base: Repository>: Repository {
///     let base: Base
///     func get(_ query: any Query, operation: RepositoryOperation) -> Response<Base.Value> {
///         base.get(query, operation: operation)
///     }
///     // ...
/// }
/// ```
///
/// Every parameter of the library that takes a repository (the CRUD interactors', ``MappedRepository``'s) also
/// takes a type that adopts the three protocols one by one, as before `Repository` was a protocol of its own.
public protocol Repository<Value>: GetRepository, PutRepository, DeleteRepository {}

extension CacheRepository: Repository {}
extension SingleSourceRepository: Repository {}
extension MappedRepository: Repository {}

/// What the library's parameters that take a repository accept: a ``Repository``, or any type that adopts the
/// three protocols one by one (what `Repository` was before it became a protocol of its own).
typealias RepositoryParts<Value> = GetRepository<Value> & PutRepository<Value> & DeleteRepository<Value>
