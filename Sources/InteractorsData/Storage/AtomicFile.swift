import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file's contents so that a reader, or a process restarted after a crash, sees either the old
/// contents or the new, never a mix: the data goes to a temporary file in the same directory (named after the
/// file and the writer's process, ending in `.tmp`), is flushed to the disk (`fsync`, or `F_FULLFSYNC` on Darwin), and the temporary file is renamed over the target
/// (a rename within one file system is atomic). The directory is then synced so the rename itself survives a
/// power cut. A writer killed part-way leaves a stray `.tmp` file behind and the target untouched.
///
/// The new file gets the permissions of the one it replaces (a `chmod 600` file stays 0600); a new file gets
/// 0644, less the process's umask. `url` must not be a symbolic link: ``FileLocation/resolve(_:)`` finds the file a
/// link names, and that file is replaced, so the link stays a link.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws(DataError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DataError(
                code: .storageFailed,
                message: "cannot create the directory \(directory.lastPathComponent) of \(url.lastPathComponent)",
                underlying: error,
                fileURL: url
            )
        }
        let temporary = FileLocation.temporaryFile(for: url)
        let permissions = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber
        do {
            try writeAndSync(data, to: temporary.path, permissions: permissions.map { mode_t($0.uint16Value) })
            try check(rename(temporary.path, url.path), "rename \(temporary.lastPathComponent) to")
        } catch {
            unlink(temporary.path)
            throw DataError(
                code: .storageFailed,
                message: "cannot write \(url.lastPathComponent): \(DataError.describe(error))",
                underlying: error,
                fileURL: url
            )
        }
        syncDirectory(directory.path)
    }

    private static func writeAndSync(_ data: Data, to path: String, permissions: mode_t?) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try check(descriptor, "create")
        defer { close(descriptor) }
        if let permissions { try check(fchmod(descriptor, permissions), "keep the permissions of") }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                try check(written, "write")
                offset += written
            }
        }
        try check(flushToDisk(descriptor), "fsync")
    }

    /// Flushes a file's data (or a directory's entries) to the disk itself. On Darwin `fsync` leaves them in the
    /// drive's own cache, where a power cut loses them (fsync(2) says so): `F_FULLFSYNC` flushes that cache too.
    /// Some file systems do not support it; `fsync` is then the best there is. Any other failure is the write's
    /// (-1, with `errno` set): a later `fsync` that succeeds does not make lost data durable.
    private static func flushToDisk(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) != -1 { return 0 }
        guard fullSyncIsUnsupported(errno) else { return -1 }
        #endif
        return fsync(descriptor)
    }

    /// Whether `F_FULLFSYNC` failed with `error` (its `errno`) because the file system does not support it
    /// (`ENOTSUP`; `EINVAL` or `ENOTTY` from file systems and descriptors that do not know the command), rather
    /// than because the data could not be written (`EIO`, `ENOSPC`...).
    static func fullSyncIsUnsupported(_ error: Int32) -> Bool {
        error == ENOTSUP || error == EINVAL || error == ENOTTY
    }

    /// Best effort: some file systems refuse to open or sync a directory, and the data is already in place.
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = flushToDisk(descriptor)
        close(descriptor)
    }

    private static func check<Result: BinaryInteger>(_ result: Result, _ step: String) throws(SystemCallError) {
        if result < 0 { throw SystemCallError(step: step, error: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
    }
}

/// A failed system call and the step it was for.
struct SystemCallError: Error, CustomStringConvertible {
    let step: String
    let error: POSIXError

    var description: String { "\(step): \(error.localizedDescription)" }
}
