import Dispatch
import Interactors
import InteractorsData
import InteractorsSQLite
import Testing

/// A write body that holds the database's writer until the test lets it go: what a slow body does.
final class HeldWriter: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let held: Response<Void>

    /// Starts a write whose body runs `write` (if any) and then blocks; returns once the body is running.
    init(_ database: SQLiteDatabase, _ write: (@Sendable (SQLiteTransaction) throws -> Void)? = nil) {
        let entered = DispatchSemaphore(value: 0)
        held = database.write { [release] transaction in
            try write?(transaction)
            entered.signal()
            _ = release.wait(timeout: .now() + 60)
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
    }

    /// Lets the body return, and waits for its transaction to commit.
    func letGo() throws {
        release.signal()
        try held.get()
    }
}
