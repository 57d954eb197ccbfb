import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// `UserDefaultsDataSource` on real defaults domains (`UserDefaults(suiteName:)`), each removed after its test.
@Suite(.onThreadsOfTheirOwn) struct UserDefaultsDataSourceTests {
    struct Setting: Codable, Identifiable, Sendable, Hashable {
        var id: String
        var value: String
    }

    /// A setting that fails to encode when told to.
    struct Fragile: Codable, Identifiable, Sendable {
        struct Refused: Error {}

        var id: String
        var refuses = false

        func encode(to encoder: any Encoder) throws {
            if refuses { throw Refused() }
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }
    }

    let theme = Setting(id: "theme", value: "dark")
    let language = Setting(id: "language", value: "fr")
    let sound = Setting(id: "sound", value: "off")

    @Test func eachValueIsStoredAsJSONDataUnderThePrefixAndItsId() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "settings.")
        #expect(try settings.put(theme).get() == theme)
        let stored = try #require(domain.defaults.data(forKey: "settings.theme"))
        #expect(try JSONDecoder().decode(Setting.self, from: stored) == theme)
        #expect(try settings.get(IdQuery("theme")).get() == theme)
        _ = try settings.put(Setting(id: "theme", value: "light")).get()
        #expect(try settings.get(IdQuery("theme")).get().value == "light")
    }

    @Test func aNewInstanceOnTheSameDomainFindsTheValues() throws {
        let domain = try DefaultsDomain()
        _ = try UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "s.").putAll([theme, sound]).get()
        let reopened = try #require(UserDefaults(suiteName: domain.name))
        let settings = UserDefaultsDataSource<Setting>(defaults: reopened, keyPrefix: "s.")
        #expect(try settings.getAll(AllObjectsQuery()).get() == [sound, theme])
    }

    @Test func getAllAnswersEveryValueUnderThePrefixByKeyAndNothingElse() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "settings.")
        let other = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "other.")
        _ = try settings.putAll([theme, language, sound]).get()
        _ = try other.put(Setting(id: "x", value: "y")).get()
        domain.defaults.set("unrelated", forKey: "settingsWithoutDot")
        domain.defaults.set(42, forKey: "launchCount")
        #expect(try settings.getAll(AllObjectsQuery()).get() == [language, sound, theme])
        #expect(try settings.getAll(IdsQuery(["theme", "nobody", "language"])).get() == [theme, language])
        #expect(try settings.getAll(IdQuery("sound")).get() == [sound])
        #expect(try settings.getAll(FilterQuery<Setting> { $0.value.count == 2 }).get() == [language])
        #expect(try settings.get(FilterQuery<Setting> { $0.value == "off" }).get() == sound)
        #expect(try other.getAll(AllObjectsQuery()).get().map(\.id) == ["x"])
    }

    @Test func missingValuesAndUnsupportedQueriesFailAsTheOtherLocalSourcesDo() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "settings.")
        _ = try settings.put(theme).get()
        let missing = try #require(settings.get(IdQuery("nobody")).error as? DataError)
        #expect(missing.code == .notFound)
        #expect(missing.message.contains("IdQuery(nobody)"))
        #expect((settings.get(IdQuery(1)).error as? DataError)?.code == .queryNotSupported)
        #expect((settings.getAll(IdsQuery([1])).error as? DataError)?.code == .queryNotSupported)
        #expect((settings.getAll(FilterQuery<Int> { _ in true }).error as? DataError)?.code == .queryNotSupported)
        #expect((settings.delete(AllObjectsQuery()).error as? DataError)?.code == .queryNotSupported)
        #expect(try settings.getAll(IdsQuery<String>([])).get().isEmpty)
    }

    @Test func deleteAllRemovesOnlyKeysUnderThePrefix() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "settings.")
        _ = try settings.putAll([theme, language, sound]).get()
        domain.defaults.set("kept", forKey: "settingsWithoutDot")
        domain.defaults.set("kept", forKey: "other.theme")
        try settings.delete(IdQuery("nobody")).get()
        try settings.delete(IdQuery("theme")).get()
        #expect(try settings.getAll(AllObjectsQuery()).get() == [language, sound])
        try settings.deleteAll(FilterQuery<Setting> { $0.id == "sound" }).get()
        #expect(try settings.getAll(AllObjectsQuery()).get() == [language])
        _ = try settings.putAll([theme, sound]).get()
        try settings.deleteAll(IdsQuery(["theme"])).get()
        try settings.deleteAll(AllObjectsQuery()).get()
        #expect(try settings.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(domain.defaults.string(forKey: "settingsWithoutDot") == "kept")
        #expect(domain.defaults.string(forKey: "other.theme") == "kept")
    }

    @Test func aKeyUnderThePrefixThatDoesNotDecodeFailsReadsNamingTheKey() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "settings.")
        _ = try settings.put(theme).get()
        domain.defaults.set(Data("{\"id\": 3}".utf8), forKey: "settings.broken")
        domain.defaults.set("plain text", forKey: "settings.text")
        let error = try #require(settings.getAll(AllObjectsQuery()).error as? DataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains("settings.broken"))
        let notData = try #require(settings.get(IdQuery("text")).error as? DataError)
        #expect(notData.code == .mappingFailed)
        #expect(notData.message.contains("settings.text"))
        // Reads that do not touch those keys still answer.
        #expect(try settings.get(IdQuery("theme")).get() == theme)
    }

    @Test func putAllWithAValueThatDoesNotEncodeStoresNone() throws {
        let domain = try DefaultsDomain()
        let fragile = UserDefaultsDataSource<Fragile>(defaults: domain.defaults, keyPrefix: "f.")
        let error = try #require(
            fragile.putAll([Fragile(id: "a"), Fragile(id: "b", refuses: true)]).error as? DataError
        )
        #expect(error.code == .mappingFailed)
        #expect(error.underlying is Fragile.Refused)
        #expect(domain.defaults.object(forKey: "f.a") == nil)
    }

    @Test func manyThreadsPuttingAtOnceLoseNothing() throws {
        let domain = try DefaultsDomain()
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "t.")
        onThreads(8) { thread in
            for index in 0..<50 { _ = settings.put(Setting(id: "\(thread)-\(index)", value: "v")) }
        }
        #expect(try settings.getAll(AllObjectsQuery()).get().count == 400)
    }

    @Test func registeredDefaultsAreNotTheSourcesValues() throws {
        let domain = try DefaultsDomain()
        // Registered defaults are the whole process's on Linux, and cannot be taken back: a prefix of its own.
        let prefix = "registered-\(UUID().uuidString)."
        let settings = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: prefix)
        let registered = try JSONEncoder().encode(Setting(id: "theme", value: "light"))
        domain.defaults.register(defaults: [prefix + "theme": registered, prefix + "flag": true])

        #expect(try settings.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(settings.get(IdQuery("theme")).dataError?.code == .notFound)
        _ = try settings.putAll([theme, sound]).get()
        #expect(try settings.getAll(AllObjectsQuery()).get() == [sound, theme])
        try settings.deleteAll(AllObjectsQuery()).get()
        #expect(try settings.getAll(AllObjectsQuery()).get().isEmpty)  // the registered default is not left over
        #expect(domain.defaults.data(forKey: prefix + "theme") == registered)  // and stays the app's default
        // As documented: a value stored equal, byte for byte, to its key's registered default reads as absent.
        domain.defaults.set(registered, forKey: prefix + "theme")
        #expect(settings.get(IdQuery("theme")).dataError?.code == .notFound)
    }

    @Test func sourcesWhosePrefixesNestNeverReadOrDeleteEachOthersValues() throws {
        let domain = try DefaultsDomain()
        let outer = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "notes.")
        let inner = UserDefaultsDataSource<Setting>(defaults: domain.defaults, keyPrefix: "notes.archive.")
        let archived = [Setting(id: "x", value: "archived"), Setting(id: "y", value: "archived too")]
        _ = try outer.putAll([theme, sound]).get()
        _ = try inner.putAll(archived).get()

        #expect(try outer.getAll(AllObjectsQuery()).get() == [sound, theme])
        #expect(try inner.getAll(AllObjectsQuery()).get() == archived)
        #expect(outer.get(IdQuery("archive.x")).dataError?.code == .notFound)  // notes.archive.x is the inner's x
        try outer.delete(IdQuery("archive.x")).get()
        try outer.deleteAll(AllObjectsQuery()).get()
        #expect(try outer.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(try inner.getAll(AllObjectsQuery()).get() == archived)
        _ = try outer.put(theme).get()
        try inner.deleteAll(AllObjectsQuery()).get()
        #expect(try outer.getAll(AllObjectsQuery()).get() == [theme])
    }

    @Test func theTestDomainIsRemovedAfterwards() throws {
        var name = ""
        do {
            let domain = try DefaultsDomain()
            name = domain.name
            domain.defaults.set("x", forKey: "k")
        }
        #expect(UserDefaults(suiteName: name)?.persistentDomain(forName: name)?.isEmpty ?? true)
    }
}

/// A defaults domain of its own for one test, removed (with everything in it) when the test drops it.
final class DefaultsDomain: @unchecked Sendable {
    // @unchecked Sendable: UserDefaults is thread-safe, though not marked Sendable on Linux.
    let name = "InteractorsDataTests.\(UUID().uuidString)"
    let defaults: UserDefaults

    init() throws {
        defaults = try #require(UserDefaults(suiteName: name))
    }

    deinit {
        defaults.removePersistentDomain(forName: name)
    }
}
