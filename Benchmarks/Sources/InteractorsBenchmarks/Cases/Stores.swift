import Interactors
import InteractorsData
import InteractorsSQLite

extension BenchmarkCase {
    /// The stores rows, size by size: one put, one get, getAll, a page of 50, and 1,000 puts issued back to back,
    /// for `InMemoryDataSource`, `FileDataSource`, `SQLiteDataSource` and the raw sqlite3 floor. The
    /// 100,000-value rows are left out of `--quick` mode.
    static let stores: [BenchmarkCase] = [1_000, 10_000, 100_000].flatMap { size in
        [storePut(size), storeGet(size), storeGetAll(size), storePage(size), storeBurst(size)]
    }

    /// One put (replacing a value, so the store keeps its size), answered once durable.
    private static func storePut(_ size: Int) -> BenchmarkCase {
        let id = "stores-put-\(size)"
        return BenchmarkCase(
            id: id,
            title: "one `put`, \(size.formatted) stored",
            iterations: size >= 100_000 ? 5 : size >= 10_000 ? 20 : 100,
            quickIterations: size >= 10_000 ? 5 : 20,
            table: .stores,
            samples: (full: 5, quick: 2),
            skippedInQuickMode: size >= 100_000,
            contenders: storeContenders(
                size,
                "`put(note).get()`, replacing note i",
                raw: "`BEGIN IMMEDIATE`, the upsert, `COMMIT`",
                inMemory: { store, run in for index in 0..<run.iterations { putAndWait(store, index, size) } },
                file: { store, run in for index in 0..<run.iterations { putAndWait(store, index, size) } },
                sqlite: { store, run in for index in 0..<run.iterations { putAndWait(store, index, size) } },
                raw: { store, run in for index in 0..<run.iterations { store.put(index % size) } }
            ),
            targets: size == 100_000
                ? [
                    .ratio(id, .sqliteStore, to: .rawSQLite, atMost: 2, "SQLite ≤ 2x the raw floor"),
                    .ratio(id, .sqliteStore, to: .fileStore, atMost: 0.02, "SQLite ≤ 1/50 of FileDataSource"),
                ] : []
        )
    }

    /// One get by id.
    private static func storeGet(_ size: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "stores-get-\(size)",
            title: "one `get`, \(size.formatted) stored",
            iterations: 1_000,
            quickIterations: 100,
            table: .stores,
            skippedInQuickMode: size >= 100_000,
            contenders: storeContenders(
                size,
                "`get(IdQuery(id)).get()`",
                raw: "the prepared `SELECT … WHERE id = ?`, the value's bytes copied (not decoded)",
                inMemory: { store, run in for index in 0..<run.iterations { getAndWait(store, index, size) } },
                file: { store, run in for index in 0..<run.iterations { getAndWait(store, index, size) } },
                sqlite: { store, run in for index in 0..<run.iterations { getAndWait(store, index, size) } },
                raw: { store, run in for index in 0..<run.iterations { blackHole(store.get(index * 7 % size)) } }
            )
        )
    }

    /// Every value.
    private static func storeGetAll(_ size: Int) -> BenchmarkCase {
        BenchmarkCase(
            id: "stores-getAll-\(size)",
            title: "`getAll`, \(size.formatted) stored",
            iterations: size >= 100_000 ? 3 : size >= 10_000 ? 10 : 50,
            quickIterations: size >= 10_000 ? 2 : 10,
            table: .stores,
            samples: (full: 5, quick: 2),
            skippedInQuickMode: size >= 100_000,
            contenders: storeContenders(
                size,
                "`getAll(AllObjectsQuery()).get()`",
                raw: "the prepared `SELECT id, value … ORDER BY position`, every value's bytes copied",
                inMemory: { store, run in for _ in 0..<run.iterations { getAllAndWait(store) } },
                file: { store, run in for _ in 0..<run.iterations { getAllAndWait(store) } },
                sqlite: { store, run in for _ in 0..<run.iterations { getAllAndWait(store) } },
                raw: { store, run in for _ in 0..<run.iterations { blackHole(store.getAll()) } }
            )
        )
    }

    /// A page of 50 values by id (`PageQuery`), starting after an id spread over the store: what a server's
    /// `GET /books?limit=50&after=…` asks (issue 34).
    private static func storePage(_ size: Int) -> BenchmarkCase {
        let id = "stores-page-\(size)"
        return BenchmarkCase(
            id: id,
            title: "a page of 50 (`PageQuery`), \(size.formatted) stored",
            // The in-memory and file stores pick a page out of every value (about 10 ms a page at 10,000 values
            // and 100 ms at 100,000 in this harness): 300 and 100 pages a sample made the 100,000 row alone run
            // for over 15 minutes.
            iterations: size >= 100_000 ? 5 : size >= 10_000 ? 30 : 300,
            quickIterations: 20,
            table: .stores,
            skippedInQuickMode: size >= 100_000,
            contenders: storeContenders(
                size,
                "`getAll(PageQuery(limit: 50, after: id)).get()`",
                raw:
                    "the prepared `SELECT … WHERE id > ? ORDER BY id LIMIT 50`, the values' bytes copied (not decoded)",
                inMemory: { store, run in for index in 0..<run.iterations { pageAndWait(store, index, size) } },
                file: { store, run in for index in 0..<run.iterations { pageAndWait(store, index, size) } },
                sqlite: { store, run in for index in 0..<run.iterations { pageAndWait(store, index, size) } },
                raw: { store, run in
                    for index in 0..<run.iterations { blackHole(store.page(after: pageStart(index, size), limit: 50)) }
                }
            ),
            targets: size == 100_000
                ? [
                    .ratio(
                        id,
                        .sqliteStore,
                        to: .sqliteStore,
                        in: "stores-get-\(size)",
                        named: "one get",
                        atMost: 2,
                        "SQLite page of 50 ≤ 2x one get"
                    )
                ] : []
        )
    }

    /// 1,000 puts issued back to back, then waited for: what a sync loop does.
    private static func storeBurst(_ size: Int) -> BenchmarkCase {
        let id = "stores-burst-\(size)"
        return BenchmarkCase(
            id: id,
            title: "1,000 back-to-back `put`s, \(size.formatted) stored",
            iterations: 1,
            quickIterations: 1,
            table: .stores,
            samples: (full: 5, quick: 2),
            skippedInQuickMode: size >= 100_000,
            contenders: storeContenders(
                size,
                "1,000 `put(note)` issued at once, then each response waited for",
                raw: "1,000 puts, each its own transaction",
                inMemory: { store, run in for _ in 0..<run.iterations { burst(store, size) } },
                file: { store, run in for _ in 0..<run.iterations { burst(store, size) } },
                sqlite: { store, run in for _ in 0..<run.iterations { burst(store, size) } },
                raw: { store, run in
                    for _ in 0..<run.iterations {
                        for index in 0..<1_000 { store.put(index * 13 % size) }
                    }
                }
            ),
            targets: size == 10_000
                ? [
                    .ratio(
                        id,
                        .fileStore,
                        to: .fileStore,
                        in: "stores-put-\(size)",
                        named: "one put",
                        atMost: 5,
                        "FileDataSource burst ≤ 5x one put"
                    )
                ]
                : []
        )
    }

    // MARK: Contenders

    private static func storeContenders(
        _ size: Int,
        _ note: String,
        raw rawNote: String,
        inMemory: @escaping @Sendable (InMemoryDataSource<StoreNote>, Run) -> Void,
        file: @escaping @Sendable (FileDataSource<StoreNote>, Run) -> Void,
        sqlite: @escaping @Sendable (SQLiteDataSource<StoreNote>, Run) -> Void,
        raw: @escaping @Sendable (RawSQLiteStore, Run) -> Void
    ) -> [Contender] {
        let fixtures = StoreFixtures.shared
        return [
            storeContender(.inMemoryStore, note, { fixtures.inMemory(size) }, inMemory),
            storeContender(.fileStore, note, { fixtures.file(size) }, file),
            storeContender(.sqliteStore, note, { fixtures.sqlite(size) }, sqlite),
            storeContender(.rawSQLite, rawNote, { fixtures.raw(size) }, raw),
        ]
    }

    /// A contender whose store is filled (once, untimed) before the clock starts.
    private static func storeContender<Store>(
        _ library: Library,
        _ note: String,
        _ store: @escaping @Sendable () -> Store,
        _ body: @escaping @Sendable (Store, Run) -> Void
    ) -> Contender {
        .sync(library, note) { run in
            let store = store()
            run.startClock()
            body(store, run)
        }
    }

    private static func putAndWait(_ store: some DataSource<StoreNote>, _ index: Int, _ size: Int) {
        blackHole(try! store.put(StoreNote.number(index % size, revision: index)).get())
    }

    private static func getAndWait(_ store: some DataSource<StoreNote>, _ index: Int, _ size: Int) {
        blackHole(try! store.get(IdQuery("note-\(index * 7 % size)")).get())
    }

    /// The id a page starts after: one of the ids `note-1…`, spread over them, every `note-2…` to `note-9…` after it
    /// (ids are ordered by their bytes), so a full page follows.
    private static func pageStart(_ index: Int, _ size: Int) -> String {
        "note-1\(index * 7 % (size / 10))"
    }

    private static func pageAndWait(_ store: some DataSource<StoreNote>, _ index: Int, _ size: Int) {
        let page = try! store.getAll(PageQuery(limit: 50, after: pageStart(index, size))).get()
        precondition(page.count == 50)
        blackHole(page)
    }

    private static func getAllAndWait(_ store: some DataSource<StoreNote>) {
        blackHole(try! store.getAll(AllObjectsQuery()).get())
    }

    private static func burst(_ store: some DataSource<StoreNote>, _ size: Int) {
        let responses = (0..<1_000).map { store.put(StoreNote.number($0 * 13 % size, revision: $0)) }
        for response in responses { blackHole(try! response.get()) }
    }
}
