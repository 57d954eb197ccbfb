/// The columns of the table: our `Response`, each peer, and raw Dispatch for the floors.
enum Library: CaseIterable, Hashable {
    case response
    case nio
    case openCombine
    case concurrency
    case mutexFuture
    case rawDispatch
    /// The lock columns (a table of their own): one minimal future on each lock.
    case lockModel
    case oldLockModel
    case pthreadMutexModel
    /// The stores columns (a table of their own): the data sources, and the raw sqlite3 C API as the floor.
    case inMemoryStore
    case fileStore
    case sqliteStore
    case rawSQLite
    /// The presentation columns (a table of their own): the library's store and presenter, a plain
    /// `@Observable` model, and a `Synchronization.Mutex` around the same state.
    case store
    case observableModel
    case mutexState
    /// The scale columns (a table of their own): `Response`, and the same count of `map`s for reference.
    case mapReference

    var title: String {
        switch self {
        case .response: "Response"
        case .nio: "SwiftNIO"
        case .openCombine: "OpenCombine"
        case .concurrency: "Concurrency"
        case .mutexFuture: "Mutex future"
        case .rawDispatch: "Raw Dispatch"
        case .lockModel: "Lock"
        case .oldLockModel: "old Lock"
        case .pthreadMutexModel: "pthread mutex"
        case .inMemoryStore: "InMemoryDataSource"
        case .fileStore: "FileDataSource"
        case .sqliteStore: "SQLiteDataSource"
        case .rawSQLite: "raw sqlite3"
        case .store: "Store / Presenter"
        case .observableModel: "@Observable"
        case .mutexState: "Mutex<State>"
        case .mapReference: "`map` (reference)"
        }
    }

    /// The columns of the main table.
    static let mainColumns: [Library] = [.response, .nio, .openCombine, .concurrency, .mutexFuture, .rawDispatch]

    /// The columns of the lock table.
    static let lockColumns: [Library] = [.response, .mutexFuture, .lockModel, .oldLockModel, .pthreadMutexModel]

    /// The name in a ratio column's title: "Lock ÷ old Lock", "SQLite ÷ raw sqlite3", "Store ÷ @Observable".
    var shortTitle: String {
        switch self {
        case .sqliteStore: "SQLite"
        case .store: "Store"
        default: title
        }
    }

    /// The columns of the stores table.
    static let storeColumns: [Library] = [.inMemoryStore, .fileStore, .sqliteStore, .rawSQLite]

    /// The columns of the scale table.
    static let scaleColumns: [Library] = [.response, .mapReference]

    /// The columns of the presentation table.
    static let presentationColumns: [Library] = [.store, .observableModel, .mutexState]

    /// The peers `Response` is divided by in the ratio columns.
    static let ratioPeers: [Library] = [.nio, .openCombine, .concurrency, .mutexFuture]
}
