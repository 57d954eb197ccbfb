import DataTestSupport
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// What `get` and `getAll` answer, on a file database and an in-memory one.
@Suite struct SQLiteDataSourceReadingTests {
    @Test(arguments: DatabaseKind.allCases)
    func getAnswersTheStoredValue(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace])
        #expect(try notes.get(IdQuery("grace")).get() == grace)
    }

    @Test(arguments: DatabaseKind.allCases)
    func getOfMissingIdFailsWithNotFoundNamingTheQueryAndTable(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        let error = try #require(notes.get(IdQuery("nobody")).dataError)
        #expect(error.code == .notFound)
        #expect(error.description.contains("IdQuery(nobody)"))
        #expect(error.description.contains("table notes"))
    }

    @Test(arguments: DatabaseKind.allCases)
    func getAllOfNothingIsEmpty(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        #expect(try notes.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try notes.getAll(IdsQuery(["nobody"])).get().isEmpty)
        #expect(try notes.getAll(IdQuery("nobody")).get().isEmpty)
    }

    @Test(arguments: DatabaseKind.allCases)
    func getAllKeepsTheOrderValuesWereFirstStoredIn(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace, alan])
        let renamed = Note(id: "ada", text: "Notes on the engine")
        _ = try notes.put(renamed).get()
        #expect(try notes.getAll(AllObjectsQuery()).get() == [renamed, grace, alan])
    }

    @Test(arguments: DatabaseKind.allCases)
    func getAllOfIdsAnswersThoseFoundInQueryOrder(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace, alan])
        #expect(try notes.getAll(IdsQuery(["alan", "nobody", "ada"])).get() == [alan, ada])
        #expect(try notes.getAll(IdsQuery(["ada", "ada"])).get() == [ada, ada])
        #expect(try notes.getAll(IdQuery("grace")).get() == [grace])
    }

    @Test(arguments: DatabaseKind.allCases)
    func filterQuerySelectsMatchesAndGetAnswersTheFirst(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada, grace, alan])
        let startsWithC = FilterQuery<Note> { $0.text.hasPrefix("Comp") }
        #expect(try notes.getAll(startsWithC).get() == [grace, alan])
        #expect(try notes.get(startsWithC).get() == grace)
        #expect(notes.get(FilterQuery<Note> { _ in false }).dataError?.code == .notFound)
    }

    @Test(arguments: DatabaseKind.allCases)
    func idQueryOfAnotherIdTypeIsNotSupported(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.notes([ada])
        #expect(notes.get(IdQuery(1)).dataError?.code == .queryNotSupported)
        #expect(notes.getAll(IdsQuery([1, 2])).dataError?.code == .queryNotSupported)
        #expect(notes.getAll(FilterQuery<Int> { _ in true }).dataError?.code == .queryNotSupported)
        #expect(notes.delete(IdQuery(1)).dataError?.code == .queryNotSupported)
        #expect(notes.deleteAll(IdsQuery([1])).dataError?.code == .queryNotSupported)
    }

    @Test(arguments: DatabaseKind.allCases)
    func userDefinedQueryIsNotSupportedAndNamedInTheError(kind: DatabaseKind) throws {
        let database = try kind.make()
        let notes = try database.source()
        let error = try #require(notes.getAll(TextSearchQuery(term: "engine")).dataError)
        #expect(error.code == .queryNotSupported)
        #expect(error.message.contains("TextSearchQuery"))
        #expect(notes.get(TextSearchQuery(term: "engine")).dataError?.code == .queryNotSupported)
    }
}
