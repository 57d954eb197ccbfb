#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread of its own (Dispatch's pool caps its threads, and contention tests want more threads than
/// cores), joined with ``join()``.
final class TestThread: Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    #if canImport(Darwin)
    private nonisolated(unsafe) let thread: pthread_t
    #else
    private let thread: pthread_t
    #endif

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var created: pthread_t?
        let status = pthread_create(
            &created,
            nil,
            { context in
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            },
            context
        )
        precondition(status == 0, "pthread_create failed: \(status)")
        thread = created!
        #else
        var created = pthread_t()
        let status = pthread_create(
            &created,
            nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            },
            context
        )
        precondition(status == 0, "pthread_create failed: \(status)")
        thread = created
        #endif
    }

    /// Waits for the thread to finish.
    func join() {
        pthread_join(thread, nil)
    }

    /// Runs `body(index)` on `count` new threads at once, and returns when all have finished.
    static func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = Gate()
        let threads = (0..<count).map { index in
            TestThread {
                start.wait()
                body(index)
            }
        }
        start.open(count: count)
        for thread in threads { thread.join() }
    }
}
