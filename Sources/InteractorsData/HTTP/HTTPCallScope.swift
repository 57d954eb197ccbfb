import Interactors

/// What the HTTP code running on a thread is part of, for as long as it runs there: the token refreshes whose
/// work it does, and the send whose `adapt` or `retry` is being asked.
///
/// Responses carry no context of their own, so the library hands this one along by hand: ``HTTPClient/send(_:retry:)``
/// takes the calling thread's refreshes into the call, and the call's jobs (settling an answer, decoding it) run
/// with them again, so a stage that runs as one of those responses settles sees them too, however many `flatMap`s
/// deep. ``TokenRefreshInterceptor`` reads them to tell a request of its own refresh, which must not wait for
/// that refresh, from any other.
struct HTTPCallScope: Sendable {
    /// The refreshes (``TokenRefreshInterceptor``'s flights, by token) this work is part of.
    var refreshes: [UInt64] = []
    /// The send whose `adapt` or `retry` runs now, if the client is asking one.
    var send: SendRecord?

    private static let frames = LockedBox([UInt: HTTPCallScope]())
    private static let tokens = LockedBox(UInt64(0))

    /// The scope of the calling thread; nil outside any.
    static var current: HTTPCallScope? {
        let thread = currentThreadID()
        return frames.withLock { $0[thread] }
    }

    /// Runs `body` with `scope` as the calling thread's, then restores the one before.
    static func with<T>(_ scope: HTTPCallScope, _ body: () throws -> T) rethrows -> T {
        let thread = currentThreadID()
        let previous = frames.withLock { $0.updateValue(scope, forKey: thread) }
        defer { frames.withLock { $0[thread] = previous } }
        return try body()
    }

    /// A token no other refresh of the process has had.
    static func newRefreshToken() -> UInt64 {
        tokens.withLock { token in
            token += 1
            return token
        }
    }
}

/// Which credential each interceptor put on one send: an interceptor notes it as it adapts the request, and reads
/// it back when `retry` is asked about that send, instead of guessing from the request's headers.
final class SendRecord: Sendable {
    private let generations = LockedBox([ObjectIdentifier: Int]())

    /// Notes that `interceptor` adapted this send with its credential number `generation`.
    func note(_ generation: Int, by interceptor: AnyObject) {
        generations.withLock { $0[ObjectIdentifier(interceptor)] = generation }
    }

    /// The credential number `interceptor` noted for this send; nil if it noted none.
    func generation(notedBy interceptor: AnyObject) -> Int? {
        generations.withLock { $0[ObjectIdentifier(interceptor)] }
    }
}
