import BookshelfApp
import Foundation
import Interactors
import InteractorsData
import NIOConcurrencyHelpers

/// A store whose every call fails with `error`.
struct FailingStore: BookStore {
    let error: any Error

    func book(_ id: String, client: ClientConnection) async throws -> Book { throw error }
    func books(client: ClientConnection) async throws -> [Book] { throw error }
    func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book] { throw error }
    func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book { throw error }
    func delete(_ id: String, client: ClientConnection) async throws { throw error }
}

/// A store whose `book` calls wait until the test settles them: each call's resolver is handed to the test.
final class PendingStore: BookStore {
    let calls: AsyncStream<Resolver<Book>>
    private let continuation: AsyncStream<Resolver<Book>>.Continuation

    init() {
        (calls, continuation) = AsyncStream.makeStream()
    }

    func book(_ id: String, client: ClientConnection) async throws -> Book {
        let (response, resolver) = Response<Book>.makePending(callbackQueue: .immediate)
        continuation.yield(resolver)
        return try await client.value(of: response)
    }

    func books(client: ClientConnection) async throws -> [Book] { [] }
    func books(_ query: PageQuery<String>, client: ClientConnection) async throws -> [Book] { [] }
    func put(_ book: Book, ifAbsent: Bool, client: ClientConnection) async throws -> Book { book }
    func delete(_ id: String, client: ClientConnection) async throws {}

    /// The next call's resolver.
    func nextCall() async -> Resolver<Book>? {
        var iterator = calls.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Whether `resolver`'s response is cancelled within `seconds` (a guard, not a measure).
func cancelled(_ resolver: Resolver<Book>, within seconds: Int = 20) async -> Bool {
    await withCheckedContinuation { continuation in
        let once = NIOLockedValueBox<CheckedContinuation<Bool, Never>?>(continuation)
        let resume = { @Sendable (value: Bool) in
            once.withLockedValue { stored in
                defer { stored = nil }
                return stored
            }?.resume(returning: value)
        }
        resolver.onCancel { resume(true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { resume(false) }
    }
}
