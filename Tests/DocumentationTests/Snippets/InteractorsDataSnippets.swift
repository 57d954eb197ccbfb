import Dispatch
import Foundation
import Interactors
import InteractorsData
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The code blocks of Sources/InteractorsData/InteractorsData.docc (InteractorsData.md and
// FromInteractorToDataSource.md), with the stand-ins they need. The blocks that talk to api.example.com are
// compiled, in the order the article builds its layers, and not run: the tests reach no network. The tests run
// the other blocks for real, with in-memory sources standing in for the server and a FileDataSource in a
// temporary directory.

extension Endpoint where Output == InteractorsDataSnippets.Token {
    /// Trades `token`'s refresh token for a new token.
    static func refresh(_ token: Output) -> Endpoint<Output> {
        Endpoint(method: .post, path: "oauth/token", body: Data(token.refresh.utf8)) { data, _ in
            try JSONDecoder().decode(Output.self, from: data)
        }
    }
}

@Suite struct InteractorsDataSnippets {
    // MARK: Stand-ins

    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var isPinned: Bool
        var fetchedAt: Date

        init(id: String, text: String = "", isPinned: Bool = false, fetchedAt: Date = .now) {
            self.id = id
            self.text = text
            self.isPinned = isPinned
            self.fetchedAt = fetchedAt
        }

        /// The entity for a transfer object; throws when it has no text.
        init(_ dto: NoteDTO) throws {
            guard let text = dto.body else { throw MissingText() }
            self.init(id: dto.id, text: text, isPinned: dto.pinned, fetchedAt: dto.fetchedAt)
        }
    }

    /// The server's shape of a note: its text may be missing, which the app cannot show.
    struct NoteDTO: Codable, Identifiable, Sendable {
        var id: String
        var body: String?
        var pinned: Bool
        var fetchedAt: Date

        init(id: String, body: String?, pinned: Bool, fetchedAt: Date) {
            self.id = id
            self.body = body
            self.pinned = pinned
            self.fetchedAt = fetchedAt
        }

        init(_ note: Note) {
            self.init(id: note.id, body: note.text, pinned: note.isPinned, fetchedAt: note.fetchedAt)
        }
    }

    struct MissingText: Error {}

    struct Profile: Decodable, Sendable { let name: String }

    /// Never written to: the blocks that use it are compiled, not run; the file test has a directory of its own.
    let appSupport = FileManager.default.temporaryDirectory
    let token = "Bearer secret"
    let note = Note(id: "n1", text: "Buy milk")

    @MainActor func show(_ notes: [Note]) {}

    struct Book: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var title: String
    }

    /// The app's token, as its login server hands it out.
    struct Token: Codable, Sendable {
        var access: String
        var refresh: String
        var expiresAt: Date
    }

    let savedToken = Token(access: "a1", refresh: "r1", expiresAt: .now + 3600)
    let authClient = HTTPClient(baseURL: URL(string: "https://login.example.com")!)

    let cacheURL = FileManager.default.temporaryDirectory.appendingPathComponent("books.json")
    let apiURL = URL(string: "https://api.example.com/v1")!
    func hideOfflineBanner() {}
    func showOfflineBanner(lastUpdated: Date?) {}

    // MARK: The overview (InteractorsData.md), compiled

    func overview() async throws {
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!)
        let notes = CacheRepository(
            main: RESTDataSource<Note>(client: client, path: "notes"),
            cache: FileDataSource<Note>(fileURL: appSupport.appendingPathComponent("notes.json"))
        )
        let getNote = GetInteractor(repository: notes, queue: DispatchQueue(label: "notes"))

        let note = try await getNote.execute(id: "n1").value  // the cache, else the server

        _ = note
    }

    // MARK: From interactor to data source: the layers, built one on another as the article does, compiled

    func fromInteractorToDataSource() async throws {
        let dtoCache = InMemoryDataSource<NoteDTO>()

        // Keep data on disk
        let cache = FileDataSource<Note>(fileURL: appSupport.appendingPathComponent("notes.json"))

        // Talk to a server
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!, headers: ["Authorization": token])
        let remote = RESTDataSource<Note>(client: client, path: "notes")

        let profile = try await client.send(.get("me", as: Profile.self)).value  // any endpoint, not only collections

        // Retry what the server could not answer
        let retry = HTTPRetryPolicy(
            times: 4,
            delay: .milliseconds(200),
            backoff: 2,
            maxDelay: .seconds(5),
            jitter: 0.2
        )
        let resilient = RESTDataSource<Note>(client: client, path: "notes", retry: retry, timeout: .seconds(10))

        let once = HTTPRetryPolicy(times: 2)  // a POST is sent again only if it never reached the server
        let created = try await client.send(.post("notes", body: note, as: Note.self), retry: once).value

        let keyed = HTTPClient(baseURL: apiURL, idempotencyKeys: true)
        let createdOnce = try await keyed.send(.post("notes", body: note, as: Note.self), retry: once).value

        // Combine a server and a cache
        let notes = CacheRepository(main: remote, cache: cache, isValid: { $0.fetchedAt > .now - 3600 })

        // Map transfer objects to entities
        let entities = MappedRepository(
            CacheRepository(main: RESTDataSource<NoteDTO>(client: client, path: "notes"), cache: dtoCache),
            toEntity: { dto in try Note(dto) },
            toDTO: { note in NoteDTO(note) }
        )

        // Call it from a use case
        let queue = DispatchQueue(label: "notes")
        let getNotes = GetAllInteractor(repository: entities, queue: queue)
        let saveNote = PutInteractor(repository: entities, queue: queue)

        getNotes.execute().onCompletion(on: .main) { notes in show(notes) }
        let saved = try await saveNote.execute(note).value

        _ = (profile, resilient, created, createdOnce, notes, saved)
    }

    // MARK: Work offline first, authenticate: compiled (they talk to api.example.com)

    func offlineFirst() throws {
        let client = HTTPClient(baseURL: apiURL)

        let books = CacheRepository(
            main: RESTDataSource<Book>(client: client, path: "books"),
            cache: FileDataSource<Book>(fileURL: cacheURL, corruptFile: .moveAside),
            maxAge: .seconds(24 * 3600)
        )

        let shelf = try books.fetchAll(AllObjectsQuery()).get()  // the last list, else the server
        let refreshed = try books.getAll(AllObjectsQuery(), operation: .mainSync).get()  // pull to refresh
        switch shelf.origin {
        case .main, .cache, .cacheWhileRefreshing: hideOfflineBanner()
        case .cacheAfterFailure: showOfflineBanner(lastUpdated: shelf.storedAt)
        }

        _ = refreshed
    }

    func redirects() {
        let tracing = HTTPClient(
            baseURL: apiURL,
            headers: ["X-Request-Source": "app"],
            redirects: .follow(forwarding: ["X-Request-Source"])  // Authorization, Cookie: never
        )

        _ = tracing
    }

    func authenticate() {
        let auth = TokenRefreshInterceptor(
            credential: savedToken,
            apply: { token, request in
                request.setValue("Bearer \(token.access)", forHTTPHeaderField: "Authorization")
            },
            needsRefresh: { token in token.expiresAt < .now },
            refresh: { token in authClient.send(.refresh(token)) }  // your endpoint that trades the refresh token
        )
        let authenticated = HTTPClient(baseURL: apiURL, interceptors: [auth])

        _ = authenticated
    }

    @Test func theTokenInterceptorAppliesTheTokenAndRefreshesItOnA401() throws {
        let auth = TokenRefreshInterceptor(
            credential: Token(access: "a1", refresh: "r1", expiresAt: .now + 3600),
            apply: { token, request in
                request.setValue("Bearer \(token.access)", forHTTPHeaderField: "Authorization")
            },
            needsRefresh: { token in token.expiresAt < .now },
            refresh: { token in Response(value: Token(access: "a2", refresh: token.refresh, expiresAt: .now + 3600)) }
        )
        let adapted = try auth.adapt(URLRequest(url: apiURL)).get()
        #expect(adapted.value(forHTTPHeaderField: "Authorization") == "Bearer a1")
        #expect(try auth.retry(adapted, after: HTTPError(status: 401), attempt: 1).get())
        #expect(auth.credential.access == "a2")
        #expect(try !auth.retry(adapted, after: HTTPError(status: 500), attempt: 1).get())
    }

    // MARK: Work offline first: local edits, batches applied in part, fetching through the executor

    func offerRetry(for ids: [AnyHashable]) {}

    @Test func aReadNeverUndoesAWriteMadeAfterItWasSent() throws {
        let newBook = Book(id: "b3", title: "Ulysses")
        let oldBook = Book(id: "b1", title: "Dune")
        let main = InMemoryDataSource<Book>()
        _ = try main.putAll([oldBook, Book(id: "b2", title: "Emma")]).get()
        let books = CacheRepository(main: main, cache: InMemoryDataSource<Book>())

        let refreshing = books.fetchAll(AllObjectsQuery(), operation: .mainSync)  // answered in a second or two
        _ = try books.put(newBook).get()  // meanwhile the user adds a book
        try books.delete(IdQuery(oldBook.id)).get()  // and deletes another
        let serverSaid = try refreshing.get().value  // the server's list, from before
        let shelf = try books.fetchAll(AllObjectsQuery()).get()  // newBook in it, oldBook not

        #expect(serverSaid.map(\.id) == ["b1", "b2"])
        #expect(shelf.value.map(\.id) == ["b2", "b3"])
    }

    func partiallyApplied(books: CacheRepository<Book>, selectedIDs: [String]) throws {
        do {
            try books.deleteAll(IdsQuery(selectedIDs)).get()
        } catch let error as DataError where error.code == .partiallyApplied {
            offerRetry(for: error.failedIDs)  // the others are gone, from the server and from the cache
        }
    }

    @Test func theFetchInteractorsRunOnAnExecutor() throws {
        let books = CacheRepository(main: InMemoryDataSource<Book>(), cache: InMemoryDataSource<Book>())
        _ = try books.put(Book(id: "b1", title: "Dune")).get()
        let executor = InteractorExecutor()

        executor.register(FetchAllInteractor(repository: books, queue: DispatchQueue(label: "books")))
        let latest = try executor.execute(FetchAllRequest<Book>(AllObjectsQuery())).get()
        if case .cacheAfterFailure = latest.origin { showOfflineBanner(lastUpdated: latest.storedAt) }

        #expect(latest.value.map(\.id) == ["b1"])
        let rule: @Sendable (any Error) -> Bool = CacheFallback.serverUnavailable
        #expect(rule(URLError(.notConnectedToInternet)))
    }

    // MARK: Call it from a use case, on an executor

    @Test func theCRUDInteractorsRunOnAnExecutor() throws {
        let books = CacheRepository(main: InMemoryDataSource<Book>(), cache: InMemoryDataSource<Book>())
        _ = try books.putAll([Book(id: "b1", title: "Dune"), Book(id: "b2", title: "Emma")]).get()

        let executor = InteractorExecutor()
        executor.register(GetInteractor(repository: books, queue: DispatchQueue.global()))
        executor.register(DeleteAllInteractor(repository: books, queue: DispatchQueue.global()))

        let book = try executor.execute(GetRequest<Book>(IdQuery("b1"))).get()
        try executor.execute(DeleteAllRequest<Book>(AllObjectsQuery())).get()

        #expect(book.title == "Dune")
        #expect(try books.getAll(AllObjectsQuery(), operation: .main).get().isEmpty)
    }

    // MARK: Describe what you want with a query

    @Test func queriesSelectWhatTheySay() throws {
        let notes = InMemoryDataSource<Note>()
        _ = try notes.putAll([Note(id: "n1", isPinned: true), Note(id: "n2"), Note(id: "n3")]).get()

        let one = notes.get(IdQuery("n1"))  // one object; .notFound if there is none
        let both = notes.getAll(IdsQuery(["n1", "n2"]))  // those found, in this order
        let all = notes.getAll(AllObjectsQuery())  // everything
        let pinned = notes.getAll(FilterQuery<Note> { $0.isPinned })  // a condition, for local sources

        #expect(try one.get().id == "n1")
        #expect(try both.get().map(\.id) == ["n1", "n2"])
        #expect(try all.get().map(\.id) == ["n1", "n2", "n3"])
        #expect(try pinned.get().map(\.id) == ["n1"])

        let missing = #expect(throws: DataError.self) { try notes.get(IdQuery("n9")).get() }
        #expect(missing?.code == .notFound)
        let otherIdType = #expect(throws: DataError.self) { try notes.get(IdQuery(1)).get() }
        #expect(otherIdType?.code == .queryNotSupported)
    }

    // MARK: Keep data on disk

    @Test func theFileKeepsWhatWasStored() throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID())")
        defer { try? FileManager.default.removeItem(at: appSupport) }

        let cache = FileDataSource<Note>(fileURL: appSupport.appendingPathComponent("notes.json"))

        _ = try cache.put(note).get()
        let reopened = FileDataSource<Note>(fileURL: cache.fileURL)
        #expect(try reopened.get(IdQuery("n1")).get().text == "Buy milk")
    }

    // MARK: Combine a server and a cache

    @Test func aStaleCachedNoteIsReadAgainFromTheServer() throws {
        let remote = InMemoryDataSource<Note>()  // stands in for the server
        let cache = InMemoryDataSource<Note>()
        _ = try remote.putAll([Note(id: "n1", text: "from the server"), Note(id: "n2", text: "from the server")])
            .get()
        _ = try cache.putAll([Note(id: "n1", text: "stale", fetchedAt: .now - 7200), Note(id: "n2", text: "fresh")])
            .get()

        let notes = CacheRepository(main: remote, cache: cache, isValid: { $0.fetchedAt > .now - 3600 })

        #expect(try notes.get(IdQuery("n1")).get().text == "from the server")
        #expect(try cache.get(IdQuery("n1")).get().text == "from the server")
        #expect(try notes.get(IdQuery("n2")).get().text == "fresh")
    }

    // MARK: Map transfer objects to entities

    @Test func entitiesAreMappedToAndFromTransferObjects() throws {
        // Making the client and the REST source sends nothing; the calls below use the cache only.
        let client = HTTPClient(baseURL: URL(string: "https://api.example.com/v1")!)
        let dtoCache = InMemoryDataSource<NoteDTO>()

        let entities = MappedRepository(
            CacheRepository(main: RESTDataSource<NoteDTO>(client: client, path: "notes"), cache: dtoCache),
            toEntity: { dto in try Note(dto) },
            toDTO: { note in NoteDTO(note) }
        )

        #expect(try entities.put(note, operation: .cache).get() == note)
        #expect(try dtoCache.get(IdQuery("n1")).get().body == "Buy milk")

        _ = try dtoCache.put(NoteDTO(id: "n2", body: nil, pinned: false, fetchedAt: .now)).get()
        let error = #expect(throws: DataError.self) { try entities.get(IdQuery("n2"), operation: .cache).get() }
        #expect(error?.code == .mappingFailed)
        #expect(error?.underlying is MissingText)
    }

    // MARK: Call it from a use case

    @Test func theUseCasesReadAndWriteThroughTheRepository() async throws {
        let entities = CacheRepository(main: InMemoryDataSource<Note>(), cache: InMemoryDataSource<Note>())

        let queue = DispatchQueue(label: "notes")
        let getNotes = GetAllInteractor(repository: entities, queue: queue)
        let saveNote = PutInteractor(repository: entities, queue: queue)

        getNotes.execute().onCompletion(on: .main) { notes in show(notes) }
        let saved = try await saveNote.execute(note).value

        #expect(saved == note)
        #expect(try await getNotes.execute().value == [note])
    }
}
