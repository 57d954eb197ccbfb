import Testing

@testable import InteractorsData

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// On Darwin a write is flushed with `F_FULLFSYNC`, and falls back to `fsync` only where the file system does not
/// support it; any other failure fails the write with `storageFailed`. The decision takes the `errno` alone, so it
/// is tested here with each value (Linux has no `F_FULLFSYNC` to fail).
@Suite struct AtomicFileFullSyncTests {
    @Test(arguments: [ENOTSUP, EINVAL, ENOTTY])
    func aFileSystemWithoutFullSyncFallsBackToFsync(_ error: Int32) {
        #expect(AtomicFile.fullSyncIsUnsupported(error))
    }

    @Test(arguments: [EIO, ENOSPC, EDQUOT, EROFS, EBADF, EINTR, EAGAIN])
    func anyOtherFailureIsTheWritesOwn(_ error: Int32) {
        #expect(!AtomicFile.fullSyncIsUnsupported(error))
    }
}
