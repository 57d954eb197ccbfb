import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive lock every read-modify-write of a ``FileDataSource``'s file holds: `flock` on a sidecar file
/// next to it (`<file name>.lock`), so several instances, in one process or several, take turns.
///
/// The lock file also holds a token that every writer replaces after it replaced the data file: an instance that
/// finds the token it last saw, and the data file as it last saw it, may trust the collection it kept in memory
/// without reading the file again. (The file's identity alone is not enough: a new file may get the inode number
/// the old one freed, with the same size, within one tick of the clock.)
///
/// The lock is released when the descriptor is closed, by ``release()`` or by the process ending: a writer killed
/// while holding it never blocks the others.
final class FileLock {
    private let descriptor: Int32

    /// The lock file for the data file at `target`.
    static func lockFile(for target: URL) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(target.lastPathComponent + ".lock")
    }

    /// Waits for the exclusive lock on the sidecar of `target`, creating the lock file if needed. Nil when the
    /// directory does not exist, or cannot be written and `required` is false (a read of a read-only location
    /// goes on unlocked: there is no writer there to wait for).
    static func acquire(for target: URL, required: Bool) throws(DataError) -> FileLock? {
        let path = lockFile(for: target).path
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES || errno == EROFS || errno == EPERM {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)  // flock works on a descriptor opened for reading
        }
        if descriptor < 0 {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            if !required { return nil }
            throw DataError(code: .storageFailed, message: "cannot open the lock file \(path)", underlying: error)
        }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(descriptor)
            throw DataError(code: .storageFailed, message: "cannot lock \(path)", underlying: error)
        }
        return FileLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The token the last writer left; empty if none.
    func token() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, 0) }
        return count == 16 ? bytes : []
    }

    /// Leaves a new token, telling other instances the data file changed; the new token. Best effort: an
    /// instance that cannot read a token reads the file again.
    func replaceToken() -> [UInt8] {
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 16, 0) }
        return written == 16 ? bytes : []
    }

    deinit {
        close(descriptor)
    }
}
