import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

/// A file the source did not write is refused by every operation, named in the error, and left as it is.
@Suite(.onThreadsOfTheirOwn) struct FileDataSourceCorruptionTests {
    @Test(arguments: [
        "{\"format\":\"InteractorsData.FileDataSource\",\"version\":1,\"values\":[{\"id\":\"ad",  // truncated
        "\u{0}\u{1}binary garbage",
        "",  // empty
        "{\"settings\":{\"theme\":\"dark\"}}",  // another program's JSON
        "{\"format\":\"SomethingElse\",\"version\":1,\"values\":[]}",  // another format
        "{\"format\":\"InteractorsData.FileDataSource\",\"version\":99,\"values\":[]}",  // a future version
        "[{\"id\":\"ada\",\"text\":\"bare array\",\"revision\":0}]",
    ])
    func aFileItDidNotWriteFailsEveryOperationAndIsLeftInPlace(contents: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let original = Data(contents.utf8)
        try original.write(to: url)
        let source = FileDataSource<Note>(fileURL: url)

        let failures: [DataError?] = [
            source.get(IdQuery("ada")).dataError,
            source.getAll(AllObjectsQuery()).dataError,
            source.put(ada).dataError,
            source.putAll([ada]).dataError,
            source.delete(IdQuery("ada")).dataError,
            source.deleteAll(AllObjectsQuery()).dataError,
        ]
        for failure in failures {
            let error = try #require(failure)
            #expect(error.code == .corruptStore)
            #expect(error.description.contains("notes.json"))
            #expect(!error.description.contains(directory.url.path))  // safe to show: no absolute path
            #expect(error.fileURL == url)
        }
        #expect(try Data(contentsOf: url) == original)
        #expect(try directory.fileNames() == ["notes.json", "notes.json.lock"])
    }

    @Test func aFileDamagedAfterItWasReadIsNoticed() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let source = FileDataSource<Note>(fileURL: url)
        _ = try source.put(ada).get()
        try Data("not json".utf8).write(to: url)
        #expect(source.get(IdQuery("ada")).dataError?.code == .corruptStore)
        #expect(try Data(contentsOf: url) == Data("not json".utf8))
    }

    @Test func aFileThatCannotBeCreatedFailsWithStorageFailed() throws {
        let directory = try TemporaryDirectory()
        let blocker = directory.file("plain-file")
        try Data("I am a file, not a directory".utf8).write(to: blocker)
        let source = FileDataSource<Note>(fileURL: blocker.appendingPathComponent("notes.json"))
        let error = try #require(source.put(ada).dataError)
        #expect(error.code == .storageFailed)
        #expect(error.underlying != nil)
    }
}
