// Foundation's Process, which starts this, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Dispatch
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads

/// threads: how many threads 1,000 reads start, and whether the database's threads end when it is released.
/// Prints "threads before <n> after <n> sqlite <n> released <n>": the process's threads before and after the
/// reads, the database's threads (named ix.sqlite.*) after them, and those left once the database was released.
func countThreads(_ url: URL) throws {
    var sqliteThreads: Int { threadNamesInThisProcess()?.filter { $0.hasPrefix("ix.sqlite") }.count ?? -1 }
    var before = -1
    var after = -1
    var during = -1
    do {
        let database = try SQLiteDatabase(fileURL: url)
        let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
        _ = try notes.putAll((0..<10).map { Note(id: "n\($0)", text: "read often") }).get()
        before = threadsInThisProcess() ?? -1
        // Issued all at once, then waited for: as many reads in flight as a busy app could have.
        let reads = (0..<1_000).map { notes.get(IdQuery("n\($0 % 10)")) }
        for read in reads { _ = try read.get() }
        after = threadsInThisProcess() ?? -1
        during = sqliteThreads
    }
    // The database is released: its threads end once their last job has run.
    let deadline = Date().addingTimeInterval(10)
    while sqliteThreads > 0, Date() < deadline { usleep(10_000) }
    say("threads before \(before) after \(after) sqlite \(during) released \(sqliteThreads)")
}
#endif
