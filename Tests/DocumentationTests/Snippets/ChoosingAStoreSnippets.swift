import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

// The code blocks of Sources/InteractorsData/InteractorsData.docc/ChoosingAStore.md: the cache swap is compiled
// (it names a server the tests do not reach), the settings run on a defaults domain of their own.

@Suite private struct ChoosingAStoreSnippets {
    struct Note: Codable, Identifiable, Sendable {
        var id: String
        var text: String
    }

    struct Setting: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var value: String
    }

    func swappingTheCache(appSupport: URL) throws {
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!)

        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = CacheRepository(
            main: RESTDataSource<Note>(client: client, path: "notes"),
            cache: try SQLiteDataSource<Note>(database: database, table: "notes")
        )

        _ = notes
    }

    /// Compiled, not run: its handler runs on the main queue, which a Linux test process does not service.
    func observingAStore(cache: SQLiteDataSource<Note>) -> DataObservation {
        let observation = cache.observe(AllObjectsQuery(), on: DispatchQueue.main) { result in
            if case .success(let notes) = result { print("\(notes.count) notes") }
        }
        return observation
    }

    /// Compiled, not run: it writes the process's standard defaults. The test below runs the same calls on a
    /// domain of its own.
    func keepingSettings() throws {
        let settings = UserDefaultsDataSource<Setting>(keyPrefix: "settings.")
        _ = try settings.put(Setting(id: "theme", value: "dark")).get()  // JSON Data under "settings.theme"
        let theme = try settings.get(IdQuery("theme")).get()

        _ = theme
    }

    @Test func settingsAreKeptAsJSONUnderTheirPrefix() throws {
        let suite = "ChoosingAStoreSnippets.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let settings = UserDefaultsDataSource<Setting>(defaults: defaults, keyPrefix: "settings.")
        _ = try settings.put(Setting(id: "theme", value: "dark")).get()
        #expect(try settings.get(IdQuery("theme")).get().value == "dark")
        #expect(defaults.data(forKey: "settings.theme") != nil)
    }
}
