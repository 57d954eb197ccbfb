import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether `condition` holds within `guardSeconds`, checked every `interval`: for what another thread or process
/// finishes without a signal the test could wait on (a server's log, a store written by a service's tick, a
/// response cancelled as a side effect). The guard only bounds a failure.
package func waitUntil(
    guardSeconds: Double = 10,
    checkingEvery interval: Duration = .milliseconds(5),
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = DispatchTime.now() + guardSeconds
    let (seconds, attoseconds) = interval.components
    let microseconds = UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    while DispatchTime.now() < deadline {
        if try condition() { return true }
        usleep(microseconds)
    }
    return try condition()
}
