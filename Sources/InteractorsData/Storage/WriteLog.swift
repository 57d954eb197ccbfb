/// The order of a local store's writes (``CacheWritePosition``), kept with its values: every put and every delete
/// takes the next position, and the log remembers, for the last ``capacity`` positions, which id each one wrote
/// (a tombstone, for a delete). A read's answer applied later (``CacheChange/readPosition``) then tells which of
/// its ids were written after the read was sent, and leaves those as the writes left them.
///
/// Older positions are forgotten (``floor``, moved up every 64 writes), so the log stays small whatever the number
/// of writes (at most ``capacity`` and 64 entries): a read sent before the floor cannot be told which ids were
/// written since, and changes nothing (the answer still goes to its caller; the next read fills the cache).
/// Deleting everything forgets everything at once, the same way.
struct WriteLog<ID: Hashable> {
    /// How many of the latest positions the log remembers.
    static var capacity: UInt64 { 1_000 }

    struct Entry: Equatable {
        var position: UInt64
        var isDeletion: Bool
    }

    /// Which order this is: 0 until the first write, which starts one with a random epoch (so that a store
    /// without a file yet, read twice, answers the same position both times).
    private(set) var epoch: UInt64
    /// The latest position taken.
    private(set) var position: UInt64 = 0
    /// Every write at or before it is forgotten.
    private(set) var floor: UInt64 = 0
    /// The latest write of each id after the floor.
    private(set) var latest: [ExactID<ID>: Entry] = [:]
    /// The writes after the floor, oldest first, from `head` on (an id written again leaves a stale entry, skipped
    /// when pruned): two arrays rather than a queue of tuples, which this generic code would copy through a
    /// closure, at an allocation each, on every write.
    private var orderIDs: [ExactID<ID>] = []
    private var orderPositions: [UInt64] = []
    private var head = 0

    /// An order with no writes yet.
    init() {
        self.epoch = 0
    }

    /// A log as a file kept it: its latest position and floor, and the writes after the floor.
    init(epoch: UInt64, position: UInt64, floor: UInt64, writes: [(id: ID, entry: Entry)]) {
        self.epoch = epoch
        self.position = position
        self.floor = floor
        for write in writes.sorted(by: { $0.entry.position < $1.entry.position }) where write.entry.position > floor {
            latest[ExactID(write.id)] = write.entry
            orderIDs.append(ExactID(write.id))
            orderPositions.append(write.entry.position)
        }
    }

    var current: CacheWritePosition { CacheWritePosition(epoch: epoch, sequence: position) }

    /// Takes the next position for a write of `id`: a put, or a deletion.
    mutating func record(_ id: ID, isDeletion: Bool) {
        if epoch == 0 { epoch = CacheWritePosition.newEpoch() }
        position += 1
        let key = ExactID(id)
        latest[key] = Entry(position: position, isDeletion: isDeletion)
        orderIDs.append(key)
        orderPositions.append(position)
        // Every 64 writes: the floor may lag behind the window by as much (the log then remembers a little more).
        if position > Self.capacity, position % 64 == 0 { forget(upTo: position - Self.capacity) }
    }

    /// Takes the next position for a write that may have touched any id (everything deleted), and forgets every
    /// write before it.
    mutating func recordEverything() {
        if epoch == 0 { epoch = CacheWritePosition.newEpoch() }
        position += 1
        forget(upTo: position)
    }

    /// Forgets the writes at or before `newFloor`.
    mutating func forget(upTo newFloor: UInt64) {
        guard newFloor > floor else { return }
        floor = newFloor
        while head < orderPositions.count, orderPositions[head] <= newFloor {
            if let entry = latest.index(forKey: orderIDs[head]), latest.values[entry].position == orderPositions[head] {
                latest.remove(at: entry)
            }
            head += 1
        }
        if head == orderPositions.count {
            orderIDs.removeAll(keepingCapacity: true)
            orderPositions.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256, head * 2 >= orderPositions.count {
            orderIDs.removeFirst(head)
            orderPositions.removeFirst(head)
            head = 0
        }
    }

    /// Whether the log can tell which ids were written after `readPosition`: it is of this order and no older
    /// than the floor. Epoch 0 is the position before any write: every write of whatever order began since is
    /// after it, and the log remembers them all unless it has forgotten some.
    func remembers(_ readPosition: CacheWritePosition) -> Bool {
        if readPosition.epoch == 0 { return readPosition.sequence == 0 && floor == 0 }
        return readPosition.epoch == epoch && readPosition.sequence >= floor && readPosition.sequence <= position
    }

    /// Whether `id` was put or deleted after `sequence` (one the log remembers).
    func wasWritten(_ id: ID, after sequence: UInt64) -> Bool {
        (latest[ExactID(id)]?.position ?? 0) > sequence
    }

    /// The ids put after `sequence` and not deleted since, in the order of their latest writes.
    func idsPut(after sequence: UInt64) -> [ID] {
        latest.filter { !$0.value.isDeletion && $0.value.position > sequence }
            .sorted { $0.value.position < $1.value.position }
            .map(\.key.base)
    }
}
