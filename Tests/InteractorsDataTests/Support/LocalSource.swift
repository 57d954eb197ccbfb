import DataTestSupport
import Foundation
import Interactors
import InteractorsData
import Testing

/// The two local sources, so each behaviour they share is tested on both.
enum LocalSourceKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case file

    var testDescription: String { rawValue }

    /// A fresh, empty source of this kind (a file one in a new temporary directory).
    func make() throws -> LocalSource {
        switch self {
        case .inMemory:
            return LocalSource(source: InMemoryDataSource<Note>(), directory: nil)
        case .file:
            let directory = try TemporaryDirectory()
            return LocalSource(
                source: FileDataSource<Note>(fileURL: directory.file("notes.json")),
                directory: directory
            )
        }
    }
}

/// A source under test, and the directory that must outlive it.
struct LocalSource {
    let source: any DataSource<Note>
    let directory: TemporaryDirectory?

    /// Stores `notes` and waits.
    func seed(_ notes: [Note]) throws {
        _ = try source.putAll(notes).get()
    }
}
