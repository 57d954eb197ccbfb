import Foundation
import Testing

/// Every Swift code block in the README and the DocC articles must appear in a source file under `Snippets/`,
/// which this target compiles (with warnings as errors in CI) and whose tests it runs: a block that no longer
/// compiles, or that was edited without its snippet, fails here.
///
/// A block matches when its lines, trimmed and with runs of spaces collapsed, appear in order and contiguously in one snippet file, ignoring blank
/// lines, `import` lines and `@main` (a snippet imports at the top of its file, may indent a block to place it in
/// a function or a namespace, and has no `main` of its own). Not compiled: package manifest excerpts (they compile
/// against PackageDescription). A block whose first line is `// Examples/NAME/PATH.swift` is an excerpt of that file
/// of an example package (which depends on packages this target cannot): it must appear there, and the example's
/// own build compiles it. Blocks for Apple's UI frameworks are in snippets under `#if canImport(...)`, which
/// CI type-checks against stand-ins for Apple's SDKs (.ci/apple-typecheck).
@Suite struct CodeBlockTests {
    @Test(arguments: DocumentationFiles.markdown)
    func everySwiftBlockIsCompiledInASnippet(_ file: String) throws {
        let text = try String(contentsOf: DocumentationFiles.root.appending(path: file), encoding: .utf8)
        let snippets = DocumentationFiles.snippets.map(normalizedLines)
        for block in swiftBlocks(in: text) where !Self.isExempt(block) {
            let lines = normalizedLines(block)
            if let example = Self.exampleFile(of: lines) {
                // An excerpt of an example package, which compiles it: the excerpt must still be in that file.
                let source = try String(contentsOf: DocumentationFiles.root.appending(path: example), encoding: .utf8)
                let found = containsRun(Array(lines.dropFirst()), in: normalizedLines(source))
                #expect(found, "\(file): this block is not in \(example):\n\(block)")
                continue
            }
            let found = snippets.contains { source in containsRun(lines, in: source) }
            #expect(found, "\(file): this block is not in any file under Tests/DocumentationTests/Snippets:\n\(block)")
        }
    }

    @Test func theDocumentationHasBlocksToCheck() {
        #expect(DocumentationFiles.markdown.contains("README.md"))
        #expect(DocumentationFiles.markdown.count > 5)
        #expect(!DocumentationFiles.snippets.isEmpty)
    }

    static func isExempt(_ block: String) -> Bool {
        block.contains(".package(url:")
    }

    /// The example file a block is an excerpt of: its first line is `// Examples/NAME/...swift`.
    static func exampleFile(of lines: [String]) -> String? {
        guard let first = lines.first, first.hasPrefix("// Examples/"), first.hasSuffix(".swift") else { return nil }
        return String(first.dropFirst(3))
    }
}

/// The bodies of the ```swift fenced blocks in `markdown`, in order.
func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if current == nil, trimmed == "```swift" {
            current = []
        } else if current != nil, trimmed == "```" {
            blocks.append(current!.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}

/// `text`'s lines, trimmed and with runs of spaces collapsed (the formatter realigns end-of-line comments),
/// without blank lines, `import` lines and `@main`.
func normalizedLines(_ text: String) -> [String] {
    text.split(separator: "\n")
        .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        .filter { !$0.isEmpty && !$0.hasPrefix("import ") && $0 != "@main" }
}

/// Whether `run` appears contiguously in `lines`.
func containsRun(_ run: [String], in lines: [String]) -> Bool {
    guard !run.isEmpty else { return true }
    guard lines.count >= run.count else { return false }
    return (0...(lines.count - run.count)).contains { start in
        lines[start..<(start + run.count)].elementsEqual(run)
    }
}

enum DocumentationFiles {
    /// The package's root directory.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The README and every article of every DocC catalog, relative to the root.
    static let markdown: [String] = {
        var files = ["README.md"]
        let sources = root.appending(path: "Sources")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for target in targets.sorted() {
            let catalog = "Sources/\(target)/\(target).docc"
            let articles = (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: catalog).path))
            for article in (articles ?? []).sorted() where article.hasSuffix(".md") {
                files.append("\(catalog)/\(article)")
            }
        }
        return files
    }()

    /// The contents of the snippet sources.
    static let snippets: [String] = {
        let folder = root.appending(path: "Tests/DocumentationTests/Snippets")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().compactMap { name in
            try? String(contentsOf: folder.appending(path: name), encoding: .utf8)
        }
    }()
}
