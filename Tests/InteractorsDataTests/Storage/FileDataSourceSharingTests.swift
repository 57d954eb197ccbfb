import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsTestKit
import TestThreads
import Testing

/// No acknowledged write is lost when several instances or processes share a file, and a write keeps what the
/// file is: its permissions, the link that names it.
@Suite(.onThreadsOfTheirOwn) struct FileDataSourceSharingTests {
    /// 300 puts each (75 under a sanitizer, see `volume`).
    @Test func twoInstancesTimesThreeHundredPutsLoseNothing() throws {
        let puts = volume(300, underASanitizer: 75)
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let sources = [FileDataSource<Note>(fileURL: url), FileDataSource<Note>(fileURL: url)]
        let failures = LockedBox([any Error]())
        onThreads(2) { index in
            for number in 0..<puts {
                do {
                    _ = try sources[index].put(Note(id: "\(index)-\(number)", text: "t")).get()
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        #expect(failures.withLock { $0.isEmpty })
        let stored = Set(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get().map(\.id))
        let missing = Set((0..<2).flatMap { index in (0..<puts).map { "\(index)-\($0)" } }).subtracting(stored)
        #expect(missing.isEmpty, "\(missing.count) acknowledged puts are missing")
        // Each instance sees the other's writes too.
        #expect(try sources[0].getAll(AllObjectsQuery()).get().count == 2 * puts)
    }

    @Test func manyInstancesMixingPutsAndDeletesAgreeOnTheEnd() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let sources = (0..<4).map { _ in FileDataSource<Note>(fileURL: url) }
        onThreads(4) { index in
            for number in 0..<50 {
                _ = try? sources[index].put(Note(id: "\(index)-\(number)", text: "t")).get()
                if number.isMultiple(of: 2) { try? sources[index].delete(IdQuery("\(index)-\(number)")).get() }
            }
        }
        let ids = try Set(FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get().map(\.id))
        let expected = Set((0..<4).flatMap { index in stride(from: 1, to: 50, by: 2).map { "\(index)-\($0)" } })
        #expect(ids.symmetricDifference(expected).isEmpty, "\(ids.symmetricDifference(expected).count) differ")
    }

    #if os(macOS) || os(Linux)  // child processes: Foundation's Process exists there only
    @Test func twoProcessesTimesTwoHundredPutsLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let children = try ["first", "second"].map { prefix in
            try ChildProcess(executable: Fixtures.dataStoreExecutable, arguments: ["write", url.path, prefix, "200"])
        }
        for child in children {
            let done = child.waitForLine(guardSeconds: 120) { $0 == "done" || $0.hasPrefix("error ") }
            #expect(done == "done", "\(child.output.suffix(3)) \(child.errorOutput)")
            #expect(child.output.filter { $0.hasPrefix("put ") }.count == 200)
            child.stop()
        }
        let ids = Set(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get().map(\.id))
        let missing = Set(["first", "second"].flatMap { prefix in (0..<200).map { "\(prefix)-\($0)" } }).subtracting(
            ids
        )
        #expect(missing.isEmpty, "\(missing.count) acknowledged puts are missing")
        #expect(ids.count == 400)
    }

    @Test func aProcessAndAnInstanceWritingTogetherLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let source = FileDataSource<Note>(fileURL: url)
        let child = try ChildProcess(
            executable: Fixtures.dataStoreExecutable,
            arguments: ["write", url.path, "child", "200"]
        )
        for number in 0..<200 {
            _ = try source.put(Note(id: "parent-\(number)", text: "t")).get()
        }
        #expect(child.waitForLine(guardSeconds: 120) { $0 == "done" || $0.hasPrefix("error ") } == "done")
        child.stop()
        #expect(try source.getAll(AllObjectsQuery()).get().count == 400)
    }

    @Test func aCorruptCacheFileIsMovedAsideReportedOnceAndTheSourceStartsEmpty() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let corrupt = Data("{ \"truncated".utf8)
        try corrupt.write(to: url)
        let child = try ChildProcess(executable: Fixtures.dataStoreExecutable, arguments: ["cache", url.path])
        #expect(child.waitForLine { $0.hasPrefix("count ") || $0.hasPrefix("error ") } == "count 1")
        child.stop()
        let report = child.completeErrorOutput().split(separator: "\n")
        #expect(report.count == 1)
        #expect(report.first?.contains("moved it aside") == true)
        let names = try directory.fileNames()
        let movedAside = try #require(names.first { $0.hasPrefix("notes.json.corrupt-") })
        #expect(try Data(contentsOf: directory.file(movedAside)) == corrupt)
        #expect(try FileDataSource<Note>(fileURL: url).getAll(AllObjectsQuery()).get().map(\.id) == ["after"])
    }
    #endif

    @Test func moveAsideOnlyAppliesToACorruptFileAndFailIsTheDefault() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url, corruptFile: .moveAside).putAll([ada, grace]).get()
        #expect(
            try FileDataSource<Note>(fileURL: url, corruptFile: .moveAside).getAll(AllObjectsQuery()).get() == [
                ada, grace,
            ]
        )
        try Data("garbage".utf8).write(to: url)
        #expect(FileDataSource<Note>(fileURL: url).get(IdQuery("ada")).dataError?.code == .corruptStore)
        #expect(try Data(contentsOf: url) == Data("garbage".utf8))
        let (moved, diagnostics) = try withCapturedDiagnostics {
            try FileDataSource<Note>(fileURL: url, corruptFile: .moveAside).getAll(AllObjectsQuery()).get()
        }
        #expect(moved.isEmpty)
        #expect(try directory.fileNames().contains { $0.hasPrefix("notes.json.corrupt-") })
        #expect(
            diagnostics.contains {
                $0.contains("\(url.path) was not a readable collection") && $0.contains("moved it aside")
            }
        )
    }

    @Test func aWriteKeepsTheFilesPermissions() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        let source = FileDataSource<Note>(fileURL: url)
        _ = try source.put(ada).get()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        _ = try source.put(grace).get()
        _ = try FileDataSource<Note>(fileURL: url).put(alan).get()
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
    }

    @Test(arguments: [true, false])
    func aWriteGoesThroughASymbolicLinkWhichStaysALink(relative: Bool) throws {
        let directory = try TemporaryDirectory()
        let real = directory.url.appendingPathComponent("data/real.json")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try FileDataSource<Note>(fileURL: real).put(ada).get()
        let link = directory.file("notes.json")
        try FileManager.default.createSymbolicLink(
            atPath: link.path,
            withDestinationPath: relative ? "data/real.json" : real.path
        )

        let source = FileDataSource<Note>(fileURL: link)
        _ = try source.put(grace).get()
        try source.delete(IdQuery("ada")).get()
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link.path)
                == (relative ? "data/real.json" : real.path)
        )
        #expect(try FileDataSource<Note>(fileURL: real).getAll(AllObjectsQuery()).get() == [grace])
        #expect(try FileDataSource<Note>(fileURL: link).getAll(AllObjectsQuery()).get() == [grace])
        #expect(try directory.fileNames() == ["data", "notes.json"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: real.deletingLastPathComponent().path).sorted() == [
                "real.json", "real.json.lock",
            ]
        )
    }

    @Test func aLoopOfSymbolicLinksFailsWithStorageFailedInsteadOfHanging() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.file("a.json").path, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: directory.file("b.json").path, withDestinationPath: "a.json")
        let source = FileDataSource<Note>(fileURL: directory.file("a.json"))
        #expect(source.put(ada).dataError?.code == .storageFailed)
        #expect(source.getAll(AllObjectsQuery()).dataError?.code == .storageFailed)
    }

    #if os(macOS) || os(Linux)  // a process that has exited: Foundation's Process exists there only
    // Changed by "Offline-first with local edits": leftovers are removed by the first write, holding the exclusive
    // lock (a read holds a shared one), and only when certainly stale; names of no known writer are left alone.
    @Test func theFirstWriteRemovesOnlyStaleTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("notes.json")
        _ = try FileDataSource<Note>(fileURL: url).put(ada).get()
        let gone = try processThatHasExited()
        let stale = [
            "notes.json.6F1C2B9E-0000-4000-8000-000000000001.tmp",  // an earlier version's
            "notes.json.\(gone)-0123456789abcdef.tmp",  // a writer that is gone
            "notes.json.\(getpid())-00000000000000aa.tmp",  // alive, but more than an hour old
        ]
        let kept = [
            "notes.json.\(getpid())-fedcba9876543210.tmp",  // a live writer's
            "notes.json.killed.tmp", "notes.json.backup.tmp", "notes.json.old.ABC.tmp", "notes.json.tmp", "keep.tmp",
            "other.json.6F1C2B9E-0000-4000-8000-000000000002.tmp",
        ]
        for name in stale + kept { try Data("half".utf8).write(to: directory.file(name)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7_200)],
            ofItemAtPath: directory.file(stale[2]).path
        )

        let source = FileDataSource<Note>(fileURL: url)
        #expect(try source.get(IdQuery("ada")).get() == ada)
        #expect(try directory.fileNames() == (["notes.json", "notes.json.lock"] + stale + kept).sorted())
        _ = try source.put(grace).get()
        #expect(try directory.fileNames() == (["notes.json", "notes.json.lock"] + kept).sorted())
    }

    /// The id of a process that ran and exited: no process has it now (unless the system reused it since).
    private func processThatHasExited() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
    #endif
}
