#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether this process runs under ThreadSanitizer or AddressSanitizer (`swift test --sanitize=...`), whose
/// runtimes define these symbols.
package let isUnderASanitizer: Bool = {
    #if canImport(Darwin)
    let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
    let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    let runtimes: [String] = ["__tsan_init", "__asan_init"]
    return runtimes.contains { name in dlsym(everywhere, name) != nil }
}()

/// How many values, rows or writes a volume test makes: `count`, or `reduced` under a sanitizer.
///
/// A sanitizer slows the library's code 5 to 15 times and checks what the code does (races, memory), which a
/// fraction of the volume exercises as well; the plain run keeps the whole volume, which is what those tests are
/// for.
package func volume(_ count: Int, underASanitizer reduced: Int) -> Int {
    isUnderASanitizer ? reduced : count
}
