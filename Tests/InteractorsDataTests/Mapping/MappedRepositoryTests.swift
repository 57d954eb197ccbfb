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
}
