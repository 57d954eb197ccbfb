import DataTestSupport
import Interactors
import InteractorsData
import Testing

/// What `get` and `getAll` answer, on both local sources.
@Suite struct LocalSourceReadingTests {
    @Test(arguments: LocalSourceKind.allCases)
    func getAnswersTheStoredValue(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace])
        #expect(try local.source.get(IdQuery("grace")).get() == grace)
    }

    @Test(arguments: LocalSourceKind.allCases)
    func getOfMissingIdFailsWithNotFoundNamingTheQuery(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada])
        let error = try #require(local.source.get(IdQuery("nobody")).dataError)
        #expect(error.code == .notFound)
        #expect(error.description.contains("IdQuery(nobody)"))
    }

    @Test(arguments: LocalSourceKind.allCases)
    func getAllOfNothingIsEmpty(kind: LocalSourceKind) throws {
        let local = try kind.make()
        #expect(try local.source.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try local.source.getAll(IdsQuery(["nobody"])).get().isEmpty)
        #expect(try local.source.getAll(IdQuery("nobody")).get().isEmpty)
    }

    @Test(arguments: LocalSourceKind.allCases)
    func getAllKeepsTheOrderValuesWereFirstStoredIn(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace, alan])
        let renamed = Note(id: "ada", text: "Notes on the engine")
        _ = try local.source.put(renamed).get()
        #expect(try local.source.getAll(AllObjectsQuery()).get() == [renamed, grace, alan])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func getAllOfIdsAnswersThoseFoundInQueryOrder(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace, alan])
        let found = try local.source.getAll(IdsQuery(["alan", "nobody", "ada"])).get()
        #expect(found == [alan, ada])
    }

    @Test(arguments: LocalSourceKind.allCases)
    func filterQuerySelectsMatchesAndGetAnswersTheFirst(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada, grace, alan])
        let startsWithC = FilterQuery<Note> { $0.text.hasPrefix("Comp") }
        #expect(try local.source.getAll(startsWithC).get() == [grace, alan])
        #expect(try local.source.get(startsWithC).get() == grace)
        let error = try #require(local.source.get(FilterQuery<Note> { _ in false }).dataError)
        #expect(error.code == .notFound)
    }

    @Test(arguments: LocalSourceKind.allCases)
    func idQueryOfAnotherIdTypeIsNotSupported(kind: LocalSourceKind) throws {
        let local = try kind.make()
        try local.seed([ada])
        #expect(local.source.get(IdQuery(1)).dataError?.code == .queryNotSupported)
        #expect(local.source.getAll(IdsQuery([1, 2])).dataError?.code == .queryNotSupported)
        #expect(local.source.getAll(FilterQuery<Int> { _ in true }).dataError?.code == .queryNotSupported)
        #expect(local.source.delete(IdQuery(1)).dataError?.code == .queryNotSupported)
        #expect(local.source.deleteAll(IdsQuery([1])).dataError?.code == .queryNotSupported)
    }

    @Test(arguments: LocalSourceKind.allCases)
    func userDefinedQueryIsNotSupportedAndNamedInTheError(kind: LocalSourceKind) throws {
        let local = try kind.make()
        let error = try #require(local.source.getAll(TextSearchQuery(term: "engine")).dataError)
        #expect(error.code == .queryNotSupported)
        #expect(error.message.contains("TextSearchQuery"))
        #expect(local.source.get(TextSearchQuery(term: "engine")).dataError?.code == .queryNotSupported)
    }
}
