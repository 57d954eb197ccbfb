// A second process for the SQLite store's tests: it opens the same database file through SQLiteDataSource.
//   write <file> <prefix> <n>      puts n notes one by one, printing "put <i>" after each, then "done"
//   batches <file>                 puts batches of 10 notes (one putAll each) until killed, printing "batch <b>"
//   hold <file> <milliseconds>     opens a write transaction, puts 50 notes in it, prints "holding", waits that
//                                  long (0: until killed), then commits and prints "committed"
//   read <file>                    prints "count <n>"
//   edit <file> <url> <put> <delete>
//                                  through a CacheRepository over the REST server at <url> ("books") with the table
//                                  as its cache, puts the book <put> and deletes the book <delete>, then "done"
//   fill <file> fsize|pages <n>    fills the disk inside one write body (see FullDisk.swift)
//   group <file> fsize|pages <n>   fills it with one write of a group of three (see FullDisk.swift)
//   threads <file>                 counts the threads 1,000 reads start (see ThreadCount.swift)
//   keep|pending|sync <file> <url> ...
//                                  the pending-writes modes (DataTestSupport's PendingWritesFixture.swift)
// A failure prints "error <DataError code>: <message>" and exits with status 1.
// Foundation's Process, which starts this, exists on macOS and Linux only.
#if os(macOS) || os(Linux)
import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    say("usage: SQLiteStoreFixture write|batches|hold|read|fill|group|threads <file> [arguments]")
    exit(2)
}

do {
    if arguments[1] == "threads" {
        try countThreads(URL(fileURLWithPath: arguments[2]))
        exit(0)
    }
    let database = try SQLiteDatabase(fileURL: URL(fileURLWithPath: arguments[2]))
    let notes = try SQLiteDataSource<Note>(database: database, table: "notes")
    if try runPendingWritesFixture(arguments[1], Array(arguments.dropFirst(2)), cache: notes) { exit(0) }
    switch arguments[1] {
    case "write":
        let prefix = arguments[3]
        for index in 0..<(Int(arguments[4]) ?? 0) {
            _ = try notes.put(Note(id: "\(prefix)-\(index)", text: "written by a child")).get()
            say("put \(index)")
        }
        say("done")
    case "batches":
        var batch = 0
        while true {
            let values = (0..<10).map { Note(id: "batch-\(batch)-\($0)", text: "in batch \(batch)") }
            _ = try notes.putAll(values).get()
            say("batch \(batch)")
            batch += 1
        }
    case "hold":
        let milliseconds = Int(arguments[3]) ?? 0
        try database.write { transaction in
            try transaction.putAll((0..<50).map { Note(id: "held-\($0)", text: "never committed") }, in: notes)
            say("holding")
            if milliseconds == 0 {
                DispatchSemaphore(value: 0).wait()
            } else {
                usleep(UInt32(milliseconds) * 1_000)
            }
        }.get()
        say("committed")
    case "edit":
        let books = CacheRepository(
            main: RESTDataSource<Note>(client: HTTPClient(baseURL: URL(string: arguments[3])!), path: "books"),
            cache: notes
        )
        _ = try books.put(Note(id: arguments[4], text: "put by another process")).get()
        try books.delete(IdQuery(arguments[5])).get()
        say("done")
    case "read":
        say("count \(try notes.getAll(AllObjectsQuery()).get().count)")
    case "fill", "group":
        guard arguments.count >= 5, let limit = DiskLimit(arguments[3], arguments[4]) else {
            say("usage: SQLiteStoreFixture fill|group <file> fsize|pages <n>")
            exit(2)
        }
        _ = try notes.put(Note(id: "before", text: "put before the disk filled")).get()
        try limit.apply(to: database)
        say("limited")
        if arguments[1] == "fill" { fillInOneBody(notes, database) } else { fillInAGroup(notes, database) }
        say("done")
    default:
        say("unknown mode \(arguments[1])")
        exit(2)
    }
} catch {
    fail(error)
}
#else
print("SQLiteStoreFixture runs where Foundation's Process does: macOS and Linux")
#endif
