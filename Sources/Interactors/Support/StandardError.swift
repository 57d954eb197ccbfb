#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes `line` and a newline to standard error in one go, unbuffered and whole (a short write is continued),
/// without Foundation, for the reports that have no caller to go to: a refused misuse, a wait that work cannot
/// reach, a host's failures, a store's deferred update that threw. They must get out even if the process ends next.
package func writeToStandardError(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
