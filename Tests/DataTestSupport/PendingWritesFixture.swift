import Dispatch
import Foundation
import Interactors
package import InteractorsData

// What the store fixtures (DataStoreFixture, SQLiteStoreFixture) do for the pending-writes tests, over the cache
// each opens: a CacheRepository over the REST fixture at <url> ("books"), with `pendingWrites: .keep`.
//   keep <file> <url> <id> <text>   puts the note, prints "kept <id>" once the call succeeded, then waits to be
//                                   killed (the test sends SIGKILL right after the answer)
//   pending <file> <url>            prints "pending <id> put|delete <attempts> <error code>" per pending write, in
//                                   order, then "count <n>"
//   sync <file> <url>               prints "syncing", syncs, then "sent <ids, comma-separated>", "rejected <ids>",
//                                   "remaining <n>" and "done"

/// Runs the pending-writes mode `mode` with `arguments` (the fixture's, from the file on) over `cache`; false if
/// `mode` is not one of them.
package func runPendingWritesFixture(
    _ mode: String,
    _ arguments: [String],
    cache: some PendingWriteStore<Note>
) throws -> Bool {
    guard ["keep", "pending", "sync"].contains(mode) else { return false }
    let books = CacheRepository(
        main: RESTDataSource<Note>(client: HTTPClient(baseURL: URL(string: arguments[1])!), path: "books"),
        cache: cache,
        onCacheFailure: { say("cache failure \($0.code): \($0.message)") },
        pendingWrites: .keep
    )
    switch mode {
    case "keep":
        _ = try books.put(Note(id: arguments[2], text: arguments[3])).get()
        say("kept \(arguments[2])")
        DispatchSemaphore(value: 0).wait()  // until killed
    case "pending":
        let writes = try books.pendingWrites().get()
        for write in writes {
            let kind = write.value == nil ? "delete" : "put"
            say("pending \(write.id) \(kind) \(write.attempts) \(write.lastError.map { "\($0.code)" } ?? "-")")
        }
        say("count \(writes.count)")
    default:
        say("syncing")
        let report = try books.sync().get()
        say("sent \(report.sent.joined(separator: ","))")
        say("rejected \(report.rejected.keys.sorted().joined(separator: ","))")
        say("remaining \(report.remaining)")
        say("done")
    }
    return true
}
