#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many times the named threads of this process have been switched out, voluntarily (they slept: a wake-up
/// each) and not, summed, from `/proc/self/task/*/status`; `nil` without `/proc` (Apple's platforms) or if no
/// thread has that name. A test of how often the library wakes one of its threads reads it before and after.
package func contextSwitches(ofThreadsNamed name: String) -> Int? {
    #if os(Linux)
    guard let directory = opendir("/proc/self/task") else { return nil }
    defer { closedir(directory) }
    var total: Int?
    while let entry = readdir(directory) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard task != "." && task != "..", readLine(of: "/proc/self/task/\(task)/comm") == name else { continue }
        total = (total ?? 0) + switches(in: "/proc/self/task/\(task)/status")
    }
    return total
    #else
    return nil
    #endif
}

/// The name of the calling thread, from `/proc/thread-self/comm`; `nil` without `/proc`.
package func currentThreadName() -> String? {
    #if os(Linux)
    return readLine(of: "/proc/thread-self/comm")
    #else
    return nil
    #endif
}

#if os(Linux)
/// The first line of a small file, without its newline.
private func readLine(of path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return line.hasSuffix("\n") ? String(line.dropLast()) : line
}

/// `voluntary_ctxt_switches` plus `nonvoluntary_ctxt_switches` of a task's status file.
private func switches(in path: String) -> Int {
    guard let file = fopen(path, "r") else { return 0 }
    defer { fclose(file) }
    var total = 0
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else {
            continue
        }
        let digits = line.split(separator: ":").last?.filter(\.isNumber) ?? ""
        total += Int(digits) ?? 0
    }
    return total
}
#endif
