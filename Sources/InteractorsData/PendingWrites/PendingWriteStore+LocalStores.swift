import Foundation
public import Interactors

// MARK: The in-memory and file stores keep pending writes with their values

extension InMemoryDataSource: PendingWriteStore {
    /// The pending writes after `position`, in order, at most `limit`.
    public func pendingWrites(after position: CacheWritePosition?, limit: Int?) -> Response<[PendingWrite<Value>]> {
        answer { $0.pendingWrites(after: position, limit: limit) }
    }

    /// This instance: only this process reaches it.
    public var pendingWritesSyncKey: PendingWritesSyncKey {
        .inProcess("InMemoryDataSource<\(Value.self)>@\(ObjectIdentifier(self))")
    }
}

extension FileDataSource: PendingWriteStore {
    /// The pending writes after `position`, in order, at most `limit`, as the file holds them.
    public func pendingWrites(after position: CacheWritePosition?, limit: Int?) -> Response<[PendingWrite<Value>]> {
        store.read { $0.pendingWrites(after: position, limit: limit) }
    }

    /// The lock file `<file name>.sync.lock` next to the file (the file a symbolic link names, when it is one):
    /// syncs of every instance on the file, in every process, take turns.
    public var pendingWritesSyncKey: PendingWritesSyncKey {
        let target = (try? FileLocation.resolve(fileURL)) ?? fileURL
        return .lockFile(
            target.deletingLastPathComponent().appendingPathComponent(target.lastPathComponent + ".sync.lock")
        )
    }
}
