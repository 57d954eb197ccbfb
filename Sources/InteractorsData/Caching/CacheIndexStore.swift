public import Foundation
public import Interactors

/// A data source that keeps, with its values, what a ``CacheRepository`` needs to tell the server's truth: the
/// lists it stored, by ``CacheKeyQuery/cacheKey``, and when it stored each value and each list. Adopt it in a
/// cache of your own so that a repository over it survives a restart with its lists and their ages;
/// ``InMemoryDataSource``, ``FileDataSource`` and InteractorsSQLite's `SQLiteDataSource` adopt it.
///
/// A cache that does not adopt it still works: the repository then keeps the lists and times in memory, and
/// they are gone with it.
///
/// What an adopter implements, besides the ``DataSource`` methods:
/// - ``cachedEntries(_:)``: the values it holds with these ids, each with its stored-at time.
/// - ``cachedList(forKey:)``: the list stored under a key, with the values it names, or nil.
/// - ``applyCacheChange(_:)``: one ``CacheChange``, applied as **one transaction**: a reader sees all of it or
///   none of it, and a change that fails leaves everything as it was. Replacing a list is one such change.
/// - ``writePosition()``, optionally: where the store is in its order of writes (see below). The default answers
///   nil: the store keeps no order, and each read's answer is applied as it comes.
///
/// Each read answers from one consistent state. The plain ``DataSource`` methods keep the index consistent too: a
/// value removed by `delete` or `deleteAll` leaves every list and loses its time, `deleteAll(AllObjectsQuery())`
/// drops every list, and `put` of a value forgets its stored-at time (nil: not stored by a repository).
///
/// ## A read never undoes a write made after it was sent
///
/// A repository reads the store's ``writePosition()`` before it sends a read to the main source, and applies the
/// answer as a change with that ``CacheChange/readPosition``. A store that keeps an order of writes (every
/// landed store: each put and delete takes the next position, and the store remembers which ids the latest
/// writes touched, deletions included) applies such a change as of that position: an id put or deleted after it
/// keeps what that write left (its value, its absence, its time), in the values and in every list the change
/// sets; a change whose removal is ``CacheChange/Removal-swift.enum/allOthers`` (the list of everything) also
/// keeps, in its list, the values put after the position. A position the store can no longer tell about (older
/// than the writes it remembers, or of an order that started again) changes nothing.
public protocol CacheIndexStore<Value>: DataSource {
    /// The values with `ids` that the store holds, in the order of `ids`, each with when it was stored.
    func cachedEntries(_ ids: [Value.ID]) -> Response<[CacheEntry<Value>]>

    /// The list stored under `key`, with the values it names that the store holds; nil if there is none.
    func cachedList(forKey key: String) -> Response<CachedList<Value>?>

    /// Applies `change` as one transaction; see ``CacheChange`` for its steps.
    func applyCacheChange(_ change: CacheChange<Value>) -> Response<Void>

    /// Where the store is in its order of writes now: after every write whose response has succeeded. Nil for a
    /// store that keeps no order (the default).
    func writePosition() -> Response<CacheWritePosition?>
}

extension CacheIndexStore {
    /// Nil: the store keeps no order of writes, and applies each read's answer as it comes, as before stores kept
    /// one.
    public func writePosition() -> Response<CacheWritePosition?> {
        Response(value: nil)
    }
}

/// A value a cache holds, and when a ``CacheRepository`` stored it (nil: unknown, such as a value put straight
/// into the cache).
public struct CacheEntry<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// When the repository stored it.
    public var storedAt: Date?

    /// An entry for `value`, stored at `storedAt`.
    public init(value: Value, storedAt: Date?) {
        self.value = value
        self.storedAt = storedAt
    }
}

/// A list a ``CacheRepository`` stored under a ``CacheKeyQuery/cacheKey``: the ids the main source answered, in
/// its order, and the values of those ids the cache holds.
public struct CachedList<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    /// When the list was stored.
    public var storedAt: Date
    /// The ids, in the main source's order.
    public var ids: [Value.ID]
    /// The entries of the ids the cache holds, in list order. Fewer than ``ids`` only if a store lost values
    /// behind the repository's back; the repository then asks the main source again.
    public var entries: [CacheEntry<Value>]

    /// A list stored at `storedAt`, of `ids`, with `entries`.
    public init(storedAt: Date, ids: [Value.ID], entries: [CacheEntry<Value>]) {
        self.storedAt = storedAt
        self.ids = ids
        self.entries = entries
    }
}

/// One change of a ``CacheIndexStore``, applied as one transaction, in these steps:
/// 1. ``removal``: the values it names are removed, their ids leave every list and lose their times
///    (``Removal-swift.enum/all`` also drops every list).
/// 2. ``values`` are stored (inserted or replacing by id), each with ``date`` as its stored-at time.
/// 3. If ``listKey`` is set, the list under it becomes the ids of ``values``, in order, stored at ``date``.
/// 4. For each key in ``extendedListKeys`` whose list exists, the ids of ``values`` it lacks are appended to it.
///
/// A change with a ``readPosition`` is a read's answer: in a store that keeps an order of writes, each step
/// leaves alone the ids written after that position (see ``CacheIndexStore``). One without is a write.
///
/// In a ``PendingWriteStore``, the ``pendingWrites`` step comes first (see ``PendingWritesStep``), and a read's
/// answer leaves alone the ids with a pending write too.
public struct CacheChange<Value: Identifiable & Sendable>: Sendable where Value.ID: Sendable {
    /// Which values go before the change stores its own.
    ///
    /// The cases are complete, and a store's `switch` over them must list them all: a store applies every removal a
    /// repository asks for, so a new case would be a change every store has to learn, a new major version.
    public enum Removal: Sendable {
        /// None.
        case nothing
        /// The values with these ids.
        case ids([Value.ID])
        /// Every value not among the change's ``CacheChange/values``: the main source no longer has them.
        case allOthers
        /// Every value and every list.
        case all
    }

    /// The stored-at time of the values and of the list.
    public var date: Date
    /// What is removed first.
    public var removal: Removal
    /// The values stored.
    public var values: [Value]
    /// The key of the list that becomes the ids of ``values``; nil for none.
    public var listKey: String?
    /// The keys of the lists that ``values`` join, if those lists exist.
    public var extendedListKeys: [String]
    /// For a read's answer, where the store was in its order of writes when the read was sent
    /// (``CacheIndexStore/writePosition()``): writes after it win over the answer. Nil for a write.
    public var readPosition: CacheWritePosition?
    /// What the change does to a ``PendingWriteStore``'s pending writes; ``PendingWritesStep/none`` by default (and
    /// always for a store that keeps none).
    public var pendingWrites: PendingWritesStep

    /// A change made at `date` (for a read's answer, when the read was sent).
    public init(
        date: Date,
        removal: Removal = .nothing,
        values: [Value] = [],
        listKey: String? = nil,
        extendedListKeys: [String] = [],
        readPosition: CacheWritePosition? = nil,
        pendingWrites: PendingWritesStep = .none
    ) {
        self.date = date
        self.removal = removal
        self.values = values
        self.listKey = listKey
        self.extendedListKeys = extendedListKeys
        self.readPosition = readPosition
        self.pendingWrites = pendingWrites
    }
}
