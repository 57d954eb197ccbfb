// A second process for the file-store tests: it opens the same file through FileDataSource.
//   read <file>                   prints "note <id> <text>" per stored note, then "count <n>"
//   write <file> <prefix> <n>     puts n notes one by one, printing "put <i>" after each, then "done"
//   hammer <file>                 puts large notes one by one until killed, printing "put <i>" after each
//   cache <file>                  opens the file with `corruptFile: .moveAside`, reads it twice and puts one note,
//                                 then prints "count <n>" (what a cache does with a corrupt file)
//   edit <file> <url> <put> <delete>
//                                 through a CacheRepository over the REST server at <url> ("books") with the file
//                                 as its cache, puts the book <put> and deletes the book <delete>, then "done"
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
    switch arguments[1] {
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
