import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// What only the file store promises: persistence across instances and processes, atomic writes, and refusing
/// files it did not write.
@Suite(.onThreadsOfTheirOwn) struct FileDataSourceTests {
    @Test func aNewInstanceReadsBackWhatWasWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url).putAll([ada, grace]).get()
        let reopened = FileDataSource<Note>(fileURL: url)
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func operationsApplyInCallOrderWithoutWaitingForEachOther() throws {
        let directory = try TemporaryDirectory()
        let source = FileDataSource<Note>(fileURL: directory.file("notes.json"))
        let first = source.put(ada)
        let removal = source.delete(IdQuery("ada"))
        let second = source.putAll([grace, alan])
        let seen = source.getAll(AllObjectsQuery())
        #expect(try seen.get() == [grace, alan])
        #expect(try first.get() == ada)
        try removal.get()
        #expect(try second.get() == [grace, alan])
    }

    #if os(macOS) || os(Linux)  // child processes: Foundation's Process exists there only
    @Test func aChildProcessReadsBackWhatWasWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url).putAll([ada, grace]).get()
        let lines = try Fixtures.runDataStore(["read", url.path])
        #expect(lines == ["note ada Analytical engine", "note grace Compilers", "count 2"])
    }

    @Test func whatAChildProcessWritesIsSeenByAnOpenInstance() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let source = FileDataSource<Note>(fileURL: url)
        _ = try source.put(ada).get()
        let lines = try Fixtures.runDataStore(["write", url.path, "child", "3"])
        #expect(lines.last == "done")
        let ids = try source.getAll(AllObjectsQuery()).get().map(\.id)
        #expect(ids == ["ada", "child-0", "child-1", "child-2"])
    }
    #endif

    @Test func aMissingFileIsEmptyAndIsCreatedWithItsDirectoryOnTheFirstWrite() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nested/deeper/notes.json")
        let source = FileDataSource<Note>(fileURL: url)
        #expect(try source.getAll(AllObjectsQuery()).get().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        _ = try source.put(ada).get()
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(source.fileURL == url)
    }

    @Test func writesLeaveNoTemporaryFilesBehind() throws {
        let directory = try TemporaryDirectory()
        let source = FileDataSource<Note>(fileURL: directory.file("notes.json"))
        _ = try source.putAll([ada, grace]).get()
        try source.delete(IdQuery("ada")).get()
        #expect(try directory.fileNames() == ["notes.json", "notes.json.lock"])
    }

    @Test func aLeftoverTemporaryFileFromAKilledWriterChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url).putAll([ada, grace]).get()
        let stored = try Data(contentsOf: url)
        // What a writer killed before its rename leaves: a half-written temporary file next to the store.
        let leftover = directory.file("notes.json.4A1B-killed.tmp")
        let halfWritten = #"{"format":"InteractorsData.FileDataSource","version":1,"values":[{"id":"ad"#
        try Data(halfWritten.utf8).write(to: leftover)

        let reopened = FileDataSource<Note>(fileURL: url)
        #expect(try reopened.getAll(AllObjectsQuery()).get() == [ada, grace])
        #expect(try Data(contentsOf: url) == stored)
        _ = try reopened.put(alan).get()
        #expect(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get() == [ada, grace, alan])
    }

    #if os(macOS) || os(Linux)  // a child process: Foundation's Process exists there only
    @Test func aWriterKilledMidWriteLeavesTheStoreReadable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let writer = try ChildProcess(executable: Fixtures.dataStoreExecutable, arguments: ["hammer", url.path])
        let progress = writer.waitForLine { $0 == "put 40" }
        writer.kill()
        try #require(progress != nil, "the writer never got going: \(writer.output) \(writer.errorOutput)")
        let confirmed = writer.output.filter { $0.hasPrefix("put ") }.count

        let notes = try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get()
        #expect(notes.count >= confirmed)
        #expect(notes.map(\.id).prefix(confirmed) == (0..<confirmed).map { "hammer-\($0)" }[...])
    }
    #endif
}
