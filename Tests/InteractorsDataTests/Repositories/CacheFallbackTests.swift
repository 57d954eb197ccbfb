import Foundation
import Interactors
import InteractorsData
import TestThreads
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fallback rule without a type argument, and the same rule as the repository's own.
@Suite(.onThreadsOfTheirOwn) struct CacheFallbackTests {
    @Test func theRuleNeedsNoTypeArgumentAndIsTheRepositorysOwn() {
        let errors: [any Error] = [
            URLError(.notConnectedToInternet), URLError(.timedOut), URLError(.cancelled),
            HTTPError(status: 503), HTTPError(status: 401),
            HTTPError(status: 429), CancellationError(),
            DataError(code: .notFound, message: "gone"),
        ]
        let rule: @Sendable (any Error) -> Bool = CacheFallback.serverUnavailable
        #expect(errors.map(rule) == [true, true, false, true, false, true, false, false])
        #expect(errors.map(rule) == errors.map { CacheRepository<Book>.serverUnavailable($0) })
    }

    struct Book: Identifiable, Sendable {
        var id: String
    }
}
