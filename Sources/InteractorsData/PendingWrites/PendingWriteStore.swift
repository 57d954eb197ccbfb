public import Foundation
public import Interactors

/// A ``CacheIndexStore`` that also keeps a ``CacheRepository``'s pending writes (``PendingWrites/keep``), with its
/// values and in the same transactions: ``InMemoryDataSource``, ``FileDataSource`` and InteractorsSQLite's
/// `SQLiteDataSource` adopt it.
///
/// What an adopter implements, besides ``CacheIndexStore``:
/// - ``CacheIndexStore/applyCacheChange(_:)`` honours the change's ``CacheChange/pendingWrites`` step (see ``PendingWritesStep``),
///   in the same transaction as the rest of the change.
/// - ``pendingWrites(after:limit:)``: the pending writes, in the order of their positions.
/// - ``pendingWritesSyncKey``: what keeps two syncs of the store apart, in this process and across processes.
///
/// And, for every change that is a read's answer (``CacheChange/readPosition`` set), whatever its position: an id
/// with a pending write is left as that write left it, as an id written after the read was sent is. Its value (or
/// its absence) stays; a list the change sets keeps naming an id with a pending delete that the answer holds, and
/// the list of everything (``CacheChange/Removal-swift.enum/allOthers``) keeps the values with a pending put. The
/// plain `deleteAll(AllObjectsQuery())` drops the pending writes with everything else.
///
/// A pending delete removes the value and its stored-at time but leaves the id in the lists that name it, so that
/// the repository tells which lists it changed, and a delete the server refuses puts the value back in place; the
/// repository leaves such ids out of what it answers.
public protocol PendingWriteStore<Value>: CacheIndexStore {
    /// The pending writes after `position` (all of them for nil), in the order of their positions, at most
    /// `limit` of them (all for nil).
    func pendingWrites(after position: CacheWritePosition?, limit: Int?) -> Response<[PendingWrite<Value>]>

    /// What keeps two syncs of the store's pending writes apart: two stores with the same key never sync at once,
    /// in this process or, for a key with a lock file, in any process.
    var pendingWritesSyncKey: PendingWritesSyncKey { get }
}

/// What keeps two syncs of a ``PendingWriteStore``'s pending writes apart (``PendingWriteStore/pendingWritesSyncKey``).
///
/// A store in files names a lock file: a sync holds an exclusive `flock` on it from reading the first pending write
/// to recording the outcome of the last one it sends, so a sync in another process on the same file waits for it,
/// then sends what is still pending. The lock is the sync's own, not the store's: the store's reads and writes, in
/// every process, go on while a sync runs. A process killed during a sync releases it (the system closes the file).
/// A store in memory names itself: only this process can reach it.
public struct PendingWritesSyncKey: Hashable, Sendable, CustomStringConvertible {
    /// The lock file; nil for a store in memory.
    public let lockFile: URL?
    private let name: String

    /// Syncs of stores with this key take turns in this process only: a store in memory, named by something
    /// unique to it (its object's identity, say).
    public static func inProcess(_ name: String) -> PendingWritesSyncKey {
        PendingWritesSyncKey(lockFile: nil, name: "in-process:" + name)
    }

    /// Syncs of stores with this key take turns in every process, through an exclusive `flock` on `lockFile`
    /// (created, with its directory, when missing; never followed if it is a symbolic link).
    public static func lockFile(_ url: URL) -> PendingWritesSyncKey {
        let url = url.standardizedFileURL
        return PendingWritesSyncKey(lockFile: url, name: "file:" + url.path)
    }

    /// The in-process name, or the lock file's path.
    public var description: String { name }
}

/// What a ``CacheChange`` does to a ``PendingWriteStore``'s pending writes (``CacheChange/pendingWrites``), applied
/// in the change's transaction before its other steps.
///
/// A position compares with a pending write's ``PendingWrite/position`` in the store's order of writes; a position
/// of another epoch than the store's (its order started again) is before none of them.
///
/// - ``none``: nothing.
/// - ``keep(lastError:unlessWrittenAfter:)``: the change is a write the main source could not take. An id with a
///   pending write made after the position is left out of the change (the later write wins). Each other value the
///   change stores becomes a pending put, and each id of its ``CacheChange/Removal-swift.enum/ids(_:)`` removal a
///   pending delete (the value removed, the id left in the lists), each replacing the id's pending write and taking
///   its place at the end of the order, with the position its write takes, 1 attempt and `lastError`.
/// - ``settle(upTo:)``: the change is what the main source answered to writes of its ids (the values it stored,
///   the ids it deleted or refused). Each id's pending write at or before the position (any, for nil) is dropped;
///   an id with a pending write made after it is left out of the change.
/// - ``failedAgain(at:lastError:)``: the pending write at the position, if it is still there, counts one more
///   attempt and keeps `lastError`.
public struct PendingWritesStep: Sendable, CustomStringConvertible {
    /// Which step.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// ``PendingWritesStep/none``.
        public static let none = Kind("none")
        /// ``PendingWritesStep/keep(lastError:unlessWrittenAfter:)``.
        public static let keep = Kind("keep")
        /// ``PendingWritesStep/settle(upTo:)``.
        public static let settle = Kind("settle")
        /// ``PendingWritesStep/failedAgain(at:lastError:)``.
        public static let failedAgain = Kind("failedAgain")

        /// The kind's name.
        public var description: String { name }
    }

    /// Which step.
    public let kind: Kind
    /// The position the step compares with (see the kinds).
    public let position: CacheWritePosition?
    /// The error a pending write keeps, for ``Kind/keep`` and ``Kind/failedAgain``.
    public let lastError: DataError?

    /// The pending writes are left as they are.
    public static let none = PendingWritesStep(kind: .none, position: nil, lastError: nil)

    /// The change's writes are kept pending, with `lastError`, unless a pending write of their id was made after
    /// `position`.
    public static func keep(lastError: DataError, unlessWrittenAfter position: CacheWritePosition?) -> Self {
        PendingWritesStep(kind: .keep, position: position, lastError: lastError)
    }

    /// The pending writes of the change's ids at or before `position` (all, for nil) are settled: dropped.
    public static func settle(upTo position: CacheWritePosition?) -> Self {
        PendingWritesStep(kind: .settle, position: position, lastError: nil)
    }

    /// The pending write at `position` failed again, with `lastError`.
    public static func failedAgain(at position: CacheWritePosition, lastError: DataError) -> Self {
        PendingWritesStep(kind: .failedAgain, position: position, lastError: lastError)
    }

    /// The kind, its position and its error, for logs.
    public var description: String {
        "\(kind)(\(position.map { "\($0)" } ?? "nil")\(lastError.map { ", \($0.code)" } ?? ""))"
    }
}
