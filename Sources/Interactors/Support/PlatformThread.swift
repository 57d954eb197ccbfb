#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if !canImport(Darwin)
import CInteractorsFutex
#endif

/// A POSIX thread of its own, for the library's timer thread and for tests that need more threads than
/// Dispatch's pool gives: the one place that starts a thread, so the platforms' differences stay here.
///
/// Those differences: `pthread_t` is a pointer with no empty initialiser (and not `Sendable`) on Darwin, an
/// integer on Linux; the start routine's argument is optional or not depending on the C library's headers.
package final class PlatformThread: Sendable {
    /// A started thread's handle, `@unchecked Sendable` because Darwin's `pthread_t` is a bare pointer; the
    /// thread it names is only joined, once, by ``join()``.
    private struct Handle: @unchecked Sendable {
        let thread: pthread_t
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let handle: Handle

    /// Starts `body` on a new thread, to be joined with ``join()``.
    ///
    /// - Parameters:
    ///   - name: The thread's name, as debuggers, `top -H` and crash reports show it (at most 15 bytes are kept on
    ///     Linux); `nil` leaves it unnamed.
    ///   - atMainQoS: On Darwin, run at the main thread's quality-of-service class: a thread started without a
    ///     QoS attribute runs at `QOS_CLASS_DEFAULT` (<sys/qos.h>), below the main thread, for the rest of the
    ///     process.
    package init(name: String? = nil, atMainQoS: Bool = false, _ body: @escaping @Sendable () -> Void) {
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let context = Unmanaged.passRetained(
            Body {
                if let name { PlatformThread.nameCurrentThread(name) }
                body()
            }
        ).toOpaque()
        // Uninitialised storage that pthread_attr_init fills (`pthread_attr_t()` is not visible from the C
        // library's module on Linux).
        let status = withUnsafeTemporaryAllocation(of: pthread_attr_t.self, capacity: 1) { buffer in
            let attributes = buffer.baseAddress!
            pthread_attr_init(attributes)
            defer { pthread_attr_destroy(attributes) }
            #if canImport(Darwin)
            if atMainQoS { pthread_attr_set_qos_class_np(attributes, qos_class_main(), 0) }
            #endif
            return pthread_create(
                &thread,
                attributes,
                { context in
                    // Optional or not depending on the headers; the cast reads both.
                    Unmanaged<Body>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeRetainedValue().run()
                    return nil
                },
                context
            )
        }
        precondition(status == 0, "Interactors: could not start a thread (\(status))")
        #if canImport(Darwin)
        handle = Handle(thread: thread!)
        #else
        handle = Handle(thread: thread)
        #endif
    }

    /// Starts `body` on a new thread that nobody joins: it lives until `body` returns.
    package static func detach(name: String? = nil, atMainQoS: Bool = false, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(PlatformThread(name: name, atMainQoS: atMainQoS, body).handle.thread)
    }

    /// Names the calling thread. Darwin names only the calling thread; Linux keeps at most 15 bytes and refuses a
    /// longer name outright, so the name is cut to fit first.
    private static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        var kept = ""
        for scalar in name.unicodeScalars {
            guard kept.utf8.count + String(scalar).utf8.count <= 15 else { break }
            kept.unicodeScalars.append(scalar)
        }
        #if os(Linux)
        interactors_name_current_thread(kept)
        #endif
        #endif
    }

    /// Waits for the thread to finish. Call it once, and not for a thread started with ``detach(name:atMainQoS:_:)``.
    package func join() {
        pthread_join(handle.thread, nil)
    }
}
