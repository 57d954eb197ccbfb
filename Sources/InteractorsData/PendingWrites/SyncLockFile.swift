import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive `flock` a sync of pending writes holds on its store's lock file (``PendingWritesSyncKey``) from
/// reading the first pending write to recording the last outcome: a sync in another process on the same store
/// waits for it. Released when the descriptor closes: by ``release()``, or by the process ending, so a process
/// killed during a sync never blocks the next one.
///
/// Taken without waiting (`LOCK_NB`): a sync that finds it held tries again a little later (a `delay`, which holds
/// no thread), so that waiting for another process blocks nothing, and a sync stopped meanwhile stops waiting.
final class SyncLockFile: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// What trying the lock found.
    enum Attempt: Sendable {
        /// Taken; nil when the location cannot be written (a read-only directory: nobody can write a pending write
        /// there, so there is nobody to keep out).
        case taken(SyncLockFile?)
        /// Another sync holds it.
        case busy
    }

    /// Tries to take the lock on `url` (created, with its directory, when missing). Fails with
    /// ``DataError/Code/storageFailed`` when it is a symbolic link, which it never follows.
    static func attempt(_ url: URL) throws(DataError) -> Attempt {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var descriptor = open(url.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES || errno == EROFS || errno == EPERM {
            descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)  // flock works on a read descriptor
        }
        guard descriptor >= 0 else {
            let error = POSIXError.current
            if error.code == .ELOOP || error.code == .EMLINK {
                throw DataError(
                    code: .storageFailed,
                    message: "the sync's lock file \(url.lastPathComponent) is a symbolic link: refusing to follow it "
                        + "(remove it)",
                    underlying: error
                )
            }
            if [.EACCES, .EROFS, .EPERM, .ENOENT].contains(error.code) { return .taken(nil) }
            throw DataError(
                code: .storageFailed,
                message: "cannot open the sync's lock file \(url.lastPathComponent)",
                underlying: error
            )
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let error = POSIXError.current
            close(descriptor)
            if error.code == .EWOULDBLOCK || error.code == .EAGAIN { return .busy }
            throw DataError(
                code: .storageFailed,
                message: "cannot lock the sync's lock file \(url.lastPathComponent)",
                underlying: error
            )
        }
        return .taken(SyncLockFile(descriptor: descriptor))
    }

    /// Releases the lock.
    func release() {
        close(descriptor)
    }
}
