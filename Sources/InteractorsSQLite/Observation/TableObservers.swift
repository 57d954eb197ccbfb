import Interactors
import InteractorsData

/// One observer as the writer sees it: the table it watches, the rows it reads after each change, and where
/// those rows go (to be decoded and told off the writer).
final class TableObserver: Sendable {
    let table: TableSQL
    let selection: RowSelection
    let receive: @Sendable (Result<[StoredRow], DataError>) -> Void

    init(
        table: TableSQL,
        selection: RowSelection,
        receive: @escaping @Sendable (Result<[StoredRow], DataError>) -> Void
    ) {
        self.table = table
        self.selection = selection
        self.receive = receive
    }
}

/// Rows read for an observer right after a commit, handed to it once the writer's job has ended.
struct ObserverUpdate {
    let observer: TableObserver
    let rows: Result<[StoredRow], DataError>

    func deliver() {
        observer.receive(rows)
    }
}

/// The observers of a database's tables, by table (``TableSQL/identity``), in the order they were added.
///
/// Added and read on the writer, so that an observer's first rows and every later change are read in commit
/// order; removed from any thread.
final class TableObservers: Sendable {
    private let byTable = LockedBox([String: [TableObserver]]())

    func add(_ observer: TableObserver) {
        byTable.withLock { $0[observer.table.identity, default: []].append(observer) }
    }

    func remove(_ observer: TableObserver) {
        let removed: [TableObserver]? = byTable.withLock { byTable in
            let observers = byTable[observer.table.identity]
            byTable[observer.table.identity]?.removeAll { $0 === observer }
            if byTable[observer.table.identity]?.isEmpty == true { byTable[observer.table.identity] = nil }
            return observers
        }
        // Released here, outside the lock: releasing an observer may release the app's closure and what it holds.
        withExtendedLifetime(removed) {}
    }

    /// What each observer of `tables` (their identities) reads now, on the writer's connection right after a
    /// commit (before the next transaction can begin, so in commit order). Observers that select the same rows of
    /// a table share one read.
    func updates(afterChanging tables: Set<String>, on connection: SQLiteConnection) -> [ObserverUpdate] {
        let observers = byTable.withLock { byTable in tables.flatMap { byTable[$0] ?? [] } }
        var reads: [String: [RowSelection: Result<[StoredRow], DataError>]] = [:]
        return observers.map { observer in
            let table = observer.table
            if let rows = reads[table.identity]?[observer.selection] {
                return ObserverUpdate(observer: observer, rows: rows)
            }
            let rows = Result { () throws(DataError) in try table.rows(observer.selection, on: connection) }
            reads[table.identity, default: [:]][observer.selection] = rows
            return ObserverUpdate(observer: observer, rows: rows)
        }
    }
}
