import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

// The code blocks of Sources/InteractorsData/InteractorsData.docc/ChoosingAStore.md: the cache swap is compiled
// (it names a server the tests do not reach), the offline restart runs against a port nothing listens on, the
// settings run on a defaults domain of their own.

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

    @Test func anAppStartedAgainOfflineAnswersItsLastListWithItsAge() throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: appSupport) }
        try storeAList(in: appSupport)
        // Nothing listens on port 1: every request fails at once with a URLError, as without network.
        let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:1")!)
        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let notes = CacheRepository(
            main: RESTDataSource<Note>(client: client, path: "notes"),
            cache: try SQLiteDataSource<Note>(database: database, table: "notes")
        )

        let last = try notes.fetchAll(AllObjectsQuery(), operation: .mainSync).get()
        if case .cacheAfterFailure = last.origin, let storedAt = last.storedAt {
            print("offline: \(last.value.count) notes, last updated \(storedAt)")
        }

        #expect(last.value.map(\.id) == ["n1", "n2"])
        #expect({ if case .cacheAfterFailure(let error) = last.origin { error is URLError } else { false } }())
        #expect(last.storedAt != nil)
    }

    /// The app's last run: the server's list, stored in the database at `appSupport`.
    func storeAList(in appSupport: URL) throws {
        let server = InMemoryDataSource<Note>()
        _ = try server.putAll([Note(id: "n1", text: "Buy milk"), Note(id: "n2", text: "Call Ada")]).get()
        let database = try SQLiteDatabase(fileURL: appSupport.appendingPathComponent("app.sqlite"))
        let cache = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try CacheRepository(main: server, cache: cache).getAll(AllObjectsQuery()).get()
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
