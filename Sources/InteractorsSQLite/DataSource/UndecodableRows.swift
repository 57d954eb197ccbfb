import Foundation
import Interactors
import InteractorsData

/// What a ``SQLiteDataSource`` does with a row that no longer decodes as its value type (the model changed, or
/// another program wrote the row).
public enum UndecodableRows: Sendable {
    /// A read that meets such a row fails with `mappingFailed`, naming the table
    /// and the id.
    case fail
    /// Such rows are left out of every read (a `get` of one fails with `notFound`)
    /// and each is reported once per process on standard error, naming the table and the id. A `put` of that id
    /// replaces the row.
    case skip
}

extension UndecodableRows {
    /// The rows already reported in this process, by their message (which names the database, table and id).
    private static let reported = LockedBox(Set<String>())

    /// Prints `problem` on standard error the first time this process meets it.
    static func reportOnce(_ problem: String, error: any Error) {
        guard reported.withLock({ $0.insert(problem).inserted }) else { return }
        writeToStandardError("InteractorsSQLite: skipped \(problem): \(DataError.describe(error))")
    }
}
