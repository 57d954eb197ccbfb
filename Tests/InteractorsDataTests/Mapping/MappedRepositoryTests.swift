import DataTestSupport
import Interactors
import InteractorsData
import Testing

/// Entities over DTOs: reads map DTOs to entities, writes map back and answer with the base's answer, and a
/// mapping that throws is a `.mappingFailed` failure carrying what it threw.
@Suite struct MappedRepositoryTests {
    struct BadBody: Error {}

    let dtos = InMemoryDataSource<NoteDTO>()

    func repository(
        toEntity: @escaping @Sendable (NoteDTO) throws -> Note = { Note(id: $0.id, text: $0.body) },
        toDTO: @escaping @Sendable (Note) throws -> NoteDTO = { NoteDTO(id: $0.id, body: $0.text) }
    ) -> MappedRepository<NoteDTO, Note> {
        MappedRepository(SingleSourceRepository(dtos), toEntity: toEntity, toDTO: toDTO)
    }

    @Test func readsMapDTOsToEntities() throws {
        _ = try dtos.putAll([NoteDTO(id: "ada", body: "Analytical engine"), NoteDTO(id: "grace", body: "Compilers")])
            .get()
        #expect(try repository().get(IdQuery("ada")).get() == ada)
        #expect(try repository().getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try repository().getAll(IdsQuery(["grace"])).get() == [grace])
    }

    @Test func writesStoreDTOsAndAnswerWithTheBaseAnswerMappedBack() throws {
        let shouting = repository(toEntity: { Note(id: $0.id, text: $0.body.uppercased()) })
        #expect(try shouting.put(ada).get() == Note(id: "ada", text: "ANALYTICAL ENGINE"))
        #expect(try shouting.putAll([grace]).get() == [Note(id: "grace", text: "COMPILERS")])
        #expect(try dtos.getAll(AllObjectsQuery()).get().map(\.body) == ["Analytical engine", "Compilers"])
    }

    @Test func deletesPassTheQueryThrough() throws {
        _ = try dtos.putAll([NoteDTO(id: "ada", body: "a"), NoteDTO(id: "grace", body: "g")]).get()
        try repository().delete(IdQuery("ada")).get()
        #expect(try dtos.getAll(AllObjectsQuery()).get().map(\.id) == ["grace"])
        try repository().deleteAll(AllObjectsQuery()).get()
        #expect(try dtos.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func aFilterOnEntitiesIsAppliedToTheMappedDTOs() throws {
        _ = try dtos.putAll([NoteDTO(id: "ada", body: "Analytical engine"), NoteDTO(id: "grace", body: "Compilers")])
            .get()
        let compilers = FilterQuery<Note> { $0.text == "Compilers" }
        #expect(try repository().getAll(compilers).get() == [grace])
        try repository().deleteAll(compilers).get()
        #expect(try dtos.getAll(AllObjectsQuery()).get().map(\.id) == ["ada"])
    }

    @Test func aThrowingToEntityFailsWithMappingFailedAndTheThrownError() throws {
        _ = try dtos.put(NoteDTO(id: "ada", body: "a")).get()
        let failing = repository(toEntity: { _ in throw BadBody() })
        for error in [failing.get(IdQuery("ada")).dataError, failing.getAll(AllObjectsQuery()).dataError] {
            let error = try #require(error)
            #expect(error.code == .mappingFailed)
            #expect(error.underlying is BadBody)
        }
        #expect(failing.put(grace).dataError?.code == .mappingFailed)
    }

    @Test func aThrowingToDTOFailsWithoutWriting() throws {
        let failing = repository(toDTO: { _ in throw BadBody() })
        let error = try #require(failing.put(ada).dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.underlying is BadBody)
        #expect(failing.putAll([ada, grace]).dataError?.code == .mappingFailed)
        #expect(try dtos.getAll(AllObjectsQuery()).get().isEmpty)
    }

    @Test func theOperationReachesTheBase() throws {
        let main = RecordingSource("main")
        let cache = RecordingSource("cache")
        try cache.seed(ada)
        let mapped = MappedRepository(
            CacheRepository(main: main, cache: cache),
            toEntity: { NoteDTO(id: $0.id, body: $0.text) },
            toDTO: { Note(id: $0.id, text: $0.body) }
        )
        #expect(try mapped.get(IdQuery("ada"), operation: .cache).get() == NoteDTO(id: "ada", body: ada.text))
        _ = try mapped.put(NoteDTO(id: "grace", body: "g"), operation: .main).get()
        #expect(main.calls == ["put"] && cache.calls == ["get"])
    }

    @Test func aValueThatFailsToMapFailsEveryKindOfReadTheSameWayNamingOnlyTypeAndId() throws {
        _ = try dtos.putAll([NoteDTO(id: "ada", body: "Analytical engine"), NoteDTO(id: "bad", body: "secret diary")])
            .get()
        let failing = repository(toEntity: { dto in
            guard dto.id != "bad" else { throw BadBody() }
            return Note(id: dto.id, text: dto.body)
        })
        let failures = [
            failing.get(IdQuery("bad")).dataError,
            failing.getAll(AllObjectsQuery()).dataError,
            failing.getAll(IdsQuery(["ada", "bad"])).dataError,
            failing.getAll(FilterQuery<Note> { _ in true }).dataError,
            failing.getAll(FilterQuery<Note> { $0.id == "ada" }).dataError,  // the filter is applied to "bad" too
            failing.get(FilterQuery<Note> { _ in false }).dataError,
        ]
        for failure in failures {
            let error = try #require(failure)
            #expect(error.code == .mappingFailed)
            #expect(error.message == "cannot map NoteDTO with id bad to Note")
            #expect(!error.description.contains("secret"))
            #expect(error.underlying is BadBody)
        }
        #expect(try failing.get(IdQuery("ada")).get() == ada)
    }

    @Test func aWriteWhoseValueFailsToMapNamesOnlyTypeAndId() throws {
        let failing = repository(toDTO: { _ in throw BadBody() })
        let error = try #require(failing.put(Note(id: "ada", text: "secret diary")).dataError)
        #expect(error.message == "cannot map Note with id ada to NoteDTO")
        #expect(!error.description.contains("secret"))
    }

    @Test func deleteAllWithAFilterLeavesValuesThatDoNotMap() throws {
        _ = try dtos.putAll([NoteDTO(id: "ada", body: "a"), NoteDTO(id: "bad", body: "b")]).get()
        let failing = repository(toEntity: { dto in
            guard dto.id != "bad" else { throw BadBody() }
            return Note(id: dto.id, text: dto.body)
        })
        try failing.deleteAll(FilterQuery<Note> { _ in true }).get()
        #expect(try dtos.getAll(AllObjectsQuery()).get().map(\.id) == ["bad"])
    }
}
