import Interactors
import InteractorsData

/// One observer as the writer sees it: the table it watches, and what to do when a commit changed it (mark the
/// observation out of date, and have it read again off the writer).
final class TableObserver: Sendable {
    let table: TableSQL
    let changed: @Sendable () -> Void

    init(table: TableSQL, changed: @escaping @Sendable () -> Void) {
        self.table = table
        self.changed = changed
    }
}

/// The observers of a database's tables, by table (``TableSQL/identity``), in the order they were added.
///
/// Told on the writer, right after each commit, which tables it changed: telling costs each observer of those a
/// flag and at most one job handed to a reader thread, whatever the size of what it selects; the reads happen
/// off the writer.
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

    /// Tells the observers of `tables` (their identities) that a commit changed them.
    func tablesChanged(_ tables: Set<String>) {
        guard !tables.isEmpty else { return }
        let observers = byTable.withLock { byTable in tables.flatMap { byTable[$0] ?? [] } }
        for observer in observers { observer.changed() }
    }
}
