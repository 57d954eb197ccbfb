import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock every batch of a ``FileDataSource`` holds, from reading its file to replacing it: shared for a batch
/// that only reads, so that readers in several processes run at once, exclusive for one that writes, so that
/// writers take turns.
///
/// It is two `flock`s, taken in this order:
/// 1. On the **directory** that holds the file: this is what excludes writers of this version. Removing or
///    replacing the lock file cannot break it (a directory that holds the file cannot be removed).
/// 2. On a **lock file** next to the file (`<file name>.lock`), opened with `O_NOFOLLOW` (a symbolic link there
///    fails every operation, read or write, with ``DataError/Code/storageFailed``, and nothing is written
///    anywhere) and `O_CLOEXEC`. Earlier versions lock only this file, so it keeps them out too. Once locked, it is
///    checked to still be the file at its path (`fstat` against `lstat`: device and inode); one removed or
///    replaced meanwhile is opened and locked again, a bounded number of times.
///
/// The lock file also holds a token that every writer replaces after it replaced the data file: an instance that
/// finds the token it last saw, and the data file as it last saw it, may trust the collection it kept in memory
/// without reading the file again. (The file's identity alone is not enough: a new file may get the inode number
/// the old one freed, with the same size, within one tick of the clock.)
///
/// The locks are released when the descriptors are closed, by `deinit` or by the process ending: a writer killed
/// while holding them never blocks the others.
final class FileLock {
    private let directory: Int32
    private let descriptor: Int32

    /// How many times a lock file found removed or replaced is opened and locked again before the batch goes on
    /// under the directory's lock alone.
    private static let relockLimit = 8

    /// The lock file for the data file at `target`.
    static func lockFile(for target: URL) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(target.lastPathComponent + ".lock")
    }

    /// Waits for the lock on `target`, `exclusive` or shared, creating the lock file if needed. Nil when the
    /// directory does not exist, or cannot be written and `required` is false (a read of a read-only location
    /// goes on unlocked: there is no writer there to wait for). A lock file that is a symbolic link always fails.
    static func acquire(for target: URL, exclusive: Bool, required: Bool) throws(DataError) -> FileLock? {
        let directoryPath = target.deletingLastPathComponent().path
        let path = lockFile(for: target).path
        let operation = exclusive ? LOCK_EX : LOCK_SH
        let directory = open(directoryPath, O_RDONLY | O_CLOEXEC)
        if directory < 0 {
            if !required { return nil }
            throw DataError(
                code: .storageFailed,
                message: "cannot open the directory of \(target.lastPathComponent) to lock it",
                underlying: POSIXError.current,
                fileURL: target
            )
        }
        do throws(DataError) {
            try lock(directory, operation, directoryPath)
            var attempt = 0
            while true {
                guard let descriptor = try openLockFile(path, required: required) else {
                    return FileLock(directory: directory, descriptor: -1)
                }
                do throws(DataError) {
                    try lock(descriptor, operation, path)
                } catch {
                    close(descriptor)
                    throw error
                }
                if isStillAtItsPath(descriptor, path) || attempt >= relockLimit {
                    return FileLock(directory: directory, descriptor: descriptor)
                }
                close(descriptor)  // removed or replaced while we waited: lock the one at the path now
                attempt += 1
            }
        } catch {
            close(directory)
            throw error
        }
    }

    /// The lock file, opened without following a link; nil when it cannot be opened for lack of permission and
    /// `required` is false.
    private static func openLockFile(_ path: String, required: Bool) throws(DataError) -> Int32? {
        var descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES || errno == EROFS || errno == EPERM {
            // flock works on a descriptor opened for reading.
            descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard descriptor < 0 else { return descriptor }
        let error = POSIXError.current
        if error.code == .ELOOP || error.code == .EMLINK || isSymbolicLink(path) {
            throw DataError(
                code: .storageFailed,
                message:
                    "the lock file \(FileLocation.name(path)) is a symbolic link: refusing to follow it (remove it)",
                underlying: error,
                fileURL: URL(fileURLWithPath: path)
            )
        }
        if !required { return nil }
        throw DataError(
            code: .storageFailed,
            message: "cannot open the lock file \(FileLocation.name(path))",
            underlying: error,
            fileURL: URL(fileURLWithPath: path)
        )
    }

    private static func lock(_ descriptor: Int32, _ operation: Int32, _ path: String) throws(DataError) {
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            throw DataError(
                code: .storageFailed,
                message: "cannot lock \(FileLocation.name(path))",
                underlying: POSIXError.current,
                fileURL: URL(fileURLWithPath: path)
            )
        }
    }

    /// Whether the file open as `descriptor` is the one at `path` now (same device and inode).
    private static func isStillAtItsPath(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var atPath = stat()
        guard fstat(descriptor, &opened) == 0, lstat(path, &atPath) == 0 else { return false }
        return opened.st_dev == atPath.st_dev && opened.st_ino == atPath.st_ino
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    private init(directory: Int32, descriptor: Int32) {
        self.directory = directory
        self.descriptor = descriptor
    }

    /// The token the last writer left; empty if none.
    func token() -> [UInt8] {
        guard descriptor >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, 0) }
        return count == 16 ? bytes : []
    }

    /// Leaves a new token, telling other instances the data file changed; the new token. Best effort: an
    /// instance that cannot read a token reads the file again.
    func replaceToken() -> [UInt8] {
        guard descriptor >= 0 else { return [] }
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 16, 0) }
        return written == 16 ? bytes : []
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        close(directory)
    }
}

extension POSIXError {
    /// The error `errno` names now.
    static var current: POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
