import Foundation
import Testing

/// The library's hosting article carries the registry adapter as one file a server author copies: the example
/// uses that file as it is, and it stays under 100 lines. (The library's documentation tests check that the
/// article's block is in the file; this checks the file is the whole block.)
@Suite struct HostingArticleTests {
    static let example = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let adapterPath = "Examples/BookshelfServer/Sources/BookshelfApp/Hosting/RegistryService.swift"

    @Test func theArticlesAdapterIsTheExamplesFileWholeAndUnderAHundredLines() throws {
        let article = try String(
            contentsOf: Self.example.appending(
                path: "../../Sources/Interactors/Interactors.docc/HostingTheRegistry.md"
            ),
            encoding: .utf8
        )
        let file = try String(
            contentsOf: Self.example.appending(path: "Sources/BookshelfApp/Hosting/RegistryService.swift"),
            encoding: .utf8
        )
        let opening = "```swift\n// \(Self.adapterPath)\n"
        let start = try #require(article.range(of: opening), "the article has no block of \(Self.adapterPath)")
        let end = try #require(article.range(of: "\n```", range: start.upperBound..<article.endIndex))
        let block = String(article[start.upperBound..<end.lowerBound])
        #expect(block + "\n" == file, "the article's adapter and the example's file differ")
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines < 100, "the adapter has \(lines) lines")
        #expect(
            !file.contains("import NIO") && !file.contains("import Logging"),
            "the adapter needs more than swift-service-lifecycle"
        )
    }
}
