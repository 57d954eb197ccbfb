import Foundation
import Interactors
import InteractorsData

/// What a ``SQLiteDataSource`` does with a row that no longer decodes as its value type (the model changed, or
/// another program wrote the row).
public struct UndecodableRows: Sendable, Hashable, CustomStringConvertible {
    // A struct with static members rather than an enum: more ways to treat such rows may come (deleting them,
    // say), and a new member is not a breaking change where a new case would be for a `switch` without `default`.
    private let name: String

    /// A read that meets such a row fails with `mappingFailed`, naming the table
    /// and the id.
    public static let fail = UndecodableRows(name: "fail")
    /// Such rows are left out of every read (a `get` of one fails with `notFound`)
    /// and each is reported once per process as a diagnostic (see `Diagnostics`: standard error unless the app
    /// set a handler), naming the table and the id. A `put` of that id
    /// replaces the row.
    public static let skip = UndecodableRows(name: "skip")

    /// The policy's name: `fail`, `skip`.
    public var description: String { name }
}

extension UndecodableRows {
    /// The rows already reported in this process, by their database's identity and their message (which names the
    /// table and the id).
    private static let reported = LockedBox(Set<String>())

    /// Reports `problem`, of the database `database` identifies, as a diagnostic the first time this process meets
    /// it.
    static func reportOnce(_ problem: String, in database: String, error: any Error) {
        guard reported.withLock({ $0.insert("\(database)\n\(problem)").inserted }) else { return }
        writeToStandardError("InteractorsSQLite: skipped \(problem): \(DataError.describe(error))")
    }
}
