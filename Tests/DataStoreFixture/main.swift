// A second process for the file-store tests: it opens the same file through FileDataSource.
//   read <file>                   prints "note <id> <text>" per stored note, then "count <n>"
//   write <file> <prefix> <n>     puts n notes one by one, printing "put <i>" after each, then "done"
//   hammer <file>                 puts large notes one by one until killed, printing "put <i>" after each
//   cache <file>                  opens the file with `corruptFile: .moveAside`, reads it twice and puts one note,
//                                 then prints "count <n>" (what a cache does with a corrupt file)
//   edit <file> <url> <put> <delete>
//                                 through a CacheRepository over the REST server at <url> ("books") with the file
//                                 as its cache, puts the book <put> and deletes the book <delete>, then "done"
//   keep|pending|sync <file> <url> ...
//                                 the pending-writes modes (DataTestSupport's PendingWritesFixture.swift)
//   unindexed <file> <url>        makes a CacheRepository with `pendingWrites: .keep` over a cache that cannot keep
//                                 them (the file source behind a plain wrapper): stops with a precondition failure
// A failure prints "error <DataError code>: <message>" and exits with status 1.
import DataTestSupport
import Foundation
import Interactors
import InteractorsData

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    say("usage: DataStoreFixture read|write|hammer <file> [prefix count]")
    exit(2)
}
let source = FileDataSource<Note>(
    fileURL: URL(fileURLWithPath: arguments[2]),
    corruptFile: arguments[1] == "cache" ? .moveAside : .fail
)

do {
    if try runPendingWritesFixture(arguments[1], Array(arguments.dropFirst(2)), cache: source) { exit(0) }
    switch arguments[1] {
    case "unindexed":
        _ = CacheRepository(
            main: RESTDataSource<Note>(client: HTTPClient(baseURL: URL(string: arguments[3])!), path: "books"),
            cache: PlainSource(base: source),
            pendingWrites: .keep
        )
        say("made")
    case "read":
        let notes = try source.getAll(AllObjectsQuery()).get()
        for note in notes { say("note \(note.id) \(note.text)") }
        say("count \(notes.count)")
    case "write":
        let prefix = arguments[3]
        for index in 0..<(Int(arguments[4]) ?? 0) {
            _ = try source.put(Note(id: "\(prefix)-\(index)", text: "written by a child")).get()
            say("put \(index)")
        }
        say("done")
    case "hammer":
        let filler = String(repeating: "x", count: 4_096)
        var index = 0
        while true {
            _ = try source.put(Note(id: "hammer-\(index)", text: filler)).get()
            say("put \(index)")
            index += 1
        }
    case "edit":
        let books = CacheRepository(
            main: RESTDataSource<Note>(client: HTTPClient(baseURL: URL(string: arguments[3])!), path: "books"),
            cache: source
        )
        _ = try books.put(Note(id: arguments[4], text: "put by another process")).get()
        try books.delete(IdQuery(arguments[5])).get()
        say("done")
    case "cache":
        _ = try source.getAll(AllObjectsQuery()).get()
        _ = try source.getAll(AllObjectsQuery()).get()
        _ = try source.put(Note(id: "after", text: "written after the move")).get()
        say("count \(try source.getAll(AllObjectsQuery()).get().count)")
    default:
        say("unknown mode \(arguments[1])")
        exit(2)
    }
} catch {
    fail(error)
}

/// A source that is only a source: no cache index, no pending writes.
struct PlainSource: DataSource {
    typealias Value = Note
    let base: FileDataSource<Note>
    func get(_ query: any Query) -> Response<Note> { base.get(query) }
    func getAll(_ query: any Query) -> Response<[Note]> { base.getAll(query) }
    func put(_ value: Note) -> Response<Note> { base.put(value) }
    func putAll(_ values: [Note]) -> Response<[Note]> { base.putAll(values) }
    func delete(_ query: any Query) -> Response<Void> { base.delete(query) }
    func deleteAll(_ query: any Query) -> Response<Void> { base.deleteAll(query) }
}
