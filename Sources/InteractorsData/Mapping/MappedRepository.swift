public import Interactors

/// A repository of entities over a repository of Data Transfer Objects: the domain sees `Entity`, the provider
/// speaks `DTO`.
///
/// ```swift
/// let notes = MappedRepository(
///     CacheRepository(main: RESTDataSource<NoteDTO>(client: client, path: "notes"), cache: noteCache),
///     toEntity: { dto in try Note(dto) },
///     toDTO: { note in NoteDTO(note) }
/// )
/// ```
///
/// Queries pass through unchanged (entities and DTOs share their ids), except a ``FilterQuery`` on entities,
/// which is applied to each DTO mapped to an entity. A write maps the entity to a DTO, writes it, and answers
/// with the base's answer mapped back.
///
/// A value that fails to map fails the call with ``DataError/Code/mappingFailed`` the same way for every kind of
/// query, with what the mapping threw as ``DataError/underlying``; for a ``FilterQuery`` read, every value the
/// filter is applied to must map. The message names the types and the id, never the value's contents (`cannot
/// map NoteDTO with id bad to Book`), so no private data reaches a log. A `deleteAll` with a ``FilterQuery``
/// leaves the values that do not map in place.
public struct MappedRepository<DTO: Identifiable & Sendable, Entity: Identifiable & Sendable>: GetRepository,
    PutRepository, DeleteRepository
where Entity.ID == DTO.ID, DTO.ID: Sendable {
    /// The values it reads and writes: the entities.
    public typealias Value = Entity

    private let base: any RepositoryParts<DTO>
    private let toEntity: @Sendable (DTO) throws -> Entity
    private let toDTO: @Sendable (Entity) throws -> DTO

    /// A repository of entities over `base`, converting with `toEntity` and `toDTO`.
    public init(
        _ base: some GetRepository<DTO> & PutRepository<DTO> & DeleteRepository<DTO>,
        toEntity: @escaping @Sendable (DTO) throws -> Entity,
        toDTO: @escaping @Sendable (Entity) throws -> DTO
    ) {
        self.base = base
        self.toEntity = toEntity
        self.toDTO = toDTO
    }

    /// The base's value for `query`, mapped to an entity.
    public func get(_ query: any Query, operation: RepositoryOperation) -> Response<Entity> {
        base.get(translated(query, keepingUnmappable: true), operation: operation).map { [toEntity] dto in
            try Self.convert(dto, toEntity)
        }
    }

    /// The base's values for `query`, mapped to entities.
    public func getAll(_ query: any Query, operation: RepositoryOperation) -> Response<[Entity]> {
        base.getAll(translated(query, keepingUnmappable: true), operation: operation).map { [toEntity] dtos in
            try dtos.map { try Self.convert($0, toEntity) }
        }
    }

    /// Stores `value` as a DTO; answers with the stored DTO mapped back.
    public func put(_ value: Entity, operation: RepositoryOperation) -> Response<Entity> {
        put(value, ifAbsent: false, operation: operation)
    }

    /// Stores `value` as a DTO, only if absent when `ifAbsent` says so (the base checks); answers with the stored
    /// DTO mapped back.
    public func put(_ value: Entity, ifAbsent: Bool, operation: RepositoryOperation) -> Response<Entity> {
        do {
            let dto = try Self.convert(value, toDTO)
            return base.put(dto, ifAbsent: ifAbsent, operation: operation).map { [toEntity] in
                try Self.convert($0, toEntity)
            }
        } catch {
            return Response(error: error)
        }
    }

    /// Stores `values` as DTOs; answers with the stored DTOs mapped back.
    public func putAll(_ values: [Entity], operation: RepositoryOperation) -> Response<[Entity]> {
        do {
            let dtos = try values.map { try Self.convert($0, toDTO) }
            return base.putAll(dtos, operation: operation).map { [toEntity] stored in
                try stored.map { try Self.convert($0, toEntity) }
            }
        } catch {
            return Response(error: error)
        }
    }

    /// The base's `delete`.
    public func delete(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        base.delete(translated(query, keepingUnmappable: false), operation: operation)
    }

    /// The base's `delete(_:ifPresent:operation:)`.
    public func delete(_ query: IdQuery<Entity.ID>, ifPresent: Bool, operation: RepositoryOperation) -> Response<Void> {
        base.delete(query, ifPresent: ifPresent, operation: operation)
    }

    /// The base's `deleteAll`; a ``FilterQuery`` leaves the values that do not map in place.
    public func deleteAll(_ query: any Query, operation: RepositoryOperation) -> Response<Void> {
        base.deleteAll(translated(query, keepingUnmappable: false), operation: operation)
    }

    /// A filter on entities becomes a filter on DTOs; every other query means the same to the base. A read keeps
    /// the DTOs that do not map, so mapping the answer fails as it would for any other query; a delete leaves them.
    private func translated(_ query: any Query, keepingUnmappable: Bool) -> any Query {
        guard let filter = query as? FilterQuery<Entity> else { return query }
        return FilterQuery<DTO> { [toEntity] dto in
            guard let entity = try? toEntity(dto) else { return keepingUnmappable }
            return filter.isIncluded(entity)
        }
    }

    private static func convert<Input: Identifiable, Output>(
        _ input: Input,
        _ transform: (Input) throws -> Output
    ) throws(DataError) -> Output {
        do {
            return try transform(input)
        } catch {
            throw DataError(
                code: .mappingFailed,
                message: "cannot map \(Input.self) with id \(input.id) to \(Output.self)",
                underlying: error
            )
        }
    }
}
