#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How many threads the process has now, read from `/proc/self/task` (one directory per thread); `nil` where
/// there is no `/proc` (Apple's platforms): a test of how many threads the library starts checks it on Linux.
package func threadsInThisProcess() -> Int? {
    #if os(Linux)
    guard let directory = opendir("/proc/self/task") else { return nil }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { count += 1 }
    }
    return count
    #else
    return nil
    #endif
}

/// The name of each of the process's threads, from `/proc/self/task/*/comm`; `nil` without `/proc`.
package func threadNamesInThisProcess() -> [String]? {
    #if os(Linux)
    guard let directory = opendir("/proc/self/task") else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard task != "." && task != "..", let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { continue }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        names.append(line.hasSuffix("\n") ? String(line.dropLast()) : line)
    }
    return names
    #else
    return nil
    #endif
}
