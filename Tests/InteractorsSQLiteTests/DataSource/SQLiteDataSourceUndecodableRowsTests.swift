import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import InteractorsSQLite
import TestThreads
import Testing

/// Rows that no longer decode (the model changed): a read fails naming the table and the id, or, with
/// `undecodableRows: .skip`, leaves them out and reports each once per process.
@Suite(.onThreadsOfTheirOwn) struct SQLiteDataSourceUndecodableRowsTests {
    /// Today's model: a note now needs a priority, which rows written by the old one lack.
    struct PrioritisedNote: Codable, Identifiable, Sendable, Equatable {
        var id: String
        var text: String
        var priority: Int
    }

    /// A database whose "notes" table holds ada and grace as the old model wrote them, and alan as the new one.
    static func migratedDatabase() throws -> TestDatabase {
        let database = try DatabaseKind.file.make()
        _ = try database.notes([ada, grace])
        let current = try database.source("notes", of: PrioritisedNote.self)
        _ = try current.put(PrioritisedNote(id: "alan", text: "Computability", priority: 1)).get()
        return database
    }

    @Test func aReadMeetingARowThatNoLongerDecodesFailsNamingTableAndId() throws {
        let database = try Self.migratedDatabase()
        let notes = try database.source("notes", of: PrioritisedNote.self)
        let error = try #require(notes.getAll(AllObjectsQuery()).dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains("row ada of"))
        #expect(error.message.contains("table notes"))
        #expect(error.underlying is DecodingError)
        #expect(notes.get(IdQuery("grace")).dataError?.code == .mappingFailed)
        #expect(notes.getAll(FilterQuery<PrioritisedNote> { _ in true }).dataError?.code == .mappingFailed)
        #expect(try notes.get(IdQuery("alan")).get().priority == 1)
    }

    @Test func skippedRowsAreLeftOutOfEveryReadAndAPutReplacesThem() throws {
        let database = try Self.migratedDatabase()
        let notes = try database.source("notes", of: PrioritisedNote.self, undecodableRows: .skip)
        let (all, diagnostics) = try capturingDiagnostics { try notes.getAll(AllObjectsQuery()).get() }
        #expect(all.map(\.id) == ["alan"])
        #expect(diagnostics.contains { $0.hasPrefix("InteractorsSQLite: skipped row ada of") })
        #expect(diagnostics.contains { $0.hasPrefix("InteractorsSQLite: skipped row grace of") })
        #expect(try notes.getAll(IdsQuery(["grace", "alan"])).get().map(\.id) == ["alan"])
        #expect(notes.get(IdQuery("ada")).dataError?.code == .notFound)
        _ = try notes.put(PrioritisedNote(id: "ada", text: "Analytical engine", priority: 2)).get()
        #expect(try notes.getAll(AllObjectsQuery()).get().map(\.id) == ["ada", "alan"])
        // The rows the skipping source could not read are still there for the old model.
        #expect(try database.source("notes").get(IdQuery("grace")).get() == grace)
    }

    @Test func deleteAllOfAFilterFailsOnAnUndecodableRowOrSkipsIt() throws {
        let database = try Self.migratedDatabase()
        let failing = try database.source("notes", of: PrioritisedNote.self)
        #expect(failing.deleteAll(FilterQuery<PrioritisedNote> { _ in true }).dataError?.code == .mappingFailed)
        let skipping = try database.source("notes", of: PrioritisedNote.self, undecodableRows: .skip)
        let (_, diagnostics) = try capturingDiagnostics {
            try skipping.deleteAll(FilterQuery<PrioritisedNote> { _ in true }).get()
        }
        #expect(diagnostics.contains { $0.hasPrefix("InteractorsSQLite: skipped row ada of") })
        #expect(try database.source("notes").getAll(AllObjectsQuery()).get() == [ada, grace])
    }

    @Test func aRowThatIsNotOneJSONValueIsNamedAloneAndTheOthersStillRead() throws {
        let database = try DatabaseKind.file.make()
        _ = try database.notes([ada, grace, alan])
        // Another program left two notes, or nothing, where one note belongs: read together, the rows' texts must
        // still be told apart, and the culprit named.
        let raw = RawSQLite(try #require(database.database.fileURL))
        let two = #"{"id":"grace","text":"a","revision":0},{"id":"grace","text":"b","revision":0}"#
        #expect(raw.execute("UPDATE notes SET value = '\(two)' WHERE id = 'grace'") == 0)
        let failing = try database.source()
        let error = try #require(failing.getAll(AllObjectsQuery()).dataError)
        #expect(error.code == .mappingFailed)
        #expect(error.message.contains("row grace of"))
        let skipping = try database.source(undecodableRows: .skip)
        let (read, diagnostics) = try capturingDiagnostics { try skipping.getAll(AllObjectsQuery()).get() }
        #expect(read == [ada, alan])
        #expect(diagnostics.contains { $0.hasPrefix("InteractorsSQLite: skipped row grace of") })
        #expect(raw.execute("UPDATE notes SET value = '' WHERE id = 'grace'") == 0)
        #expect(try skipping.getAll(AllObjectsQuery()).get() == [ada, alan])
        #expect(failing.getAll(IdsQuery(["alan", "grace"])).dataError?.message.contains("row grace of") == true)
    }

    #if compiler(>=6.2) && (os(macOS) || os(Linux))
    @Test func eachSkippedRowIsReportedOnceOnStandardError() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            try Self.readSkippingTwoRowsFourTimes()
        }
        let output = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("InteractorsSQLite: skipped") }
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("row ada of") && $0.contains("table notes") })
        #expect(lines.contains { $0.contains("row grace of") })
    }

    static func readSkippingTwoRowsFourTimes() throws {
        let database = try migratedDatabase()
        let notes = try database.source("notes", of: PrioritisedNote.self, undecodableRows: .skip)
        for _ in 0..<3 { _ = try notes.getAll(AllObjectsQuery()).get() }
        _ = notes.get(IdQuery("ada")).error
    }
    #endif
}
