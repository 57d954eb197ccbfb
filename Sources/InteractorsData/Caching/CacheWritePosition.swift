/// A point in a ``CacheIndexStore``'s order of writes: what a ``CacheRepository`` reads from its cache before it
/// sends a read to the main source, and hands back with the read's answer (``CacheChange/readPosition``), so that
/// the cache lets every write made after that point win over the answer.
///
/// Every put and delete of a store that keeps an order of writes takes the next ``sequence``: through a
/// repository or not, from this process or another one on the same file or table. ``epoch`` names the order
/// itself: a store whose order starts again (a new or replaced file, a corrupt one moved aside) starts a new
/// epoch, and a position of another epoch tells the store nothing. Epoch 0, sequence 0 is the position of a store
/// before its first write: every write since, in whatever order it began, comes after it.
public struct CacheWritePosition: Hashable, Sendable, CustomStringConvertible {
    /// Which order of writes the position is in.
    public var epoch: UInt64
    /// How many writes the store had made, in that order, when the position was read.
    public var sequence: UInt64

    /// The position `sequence` of the order `epoch`.
    public init(epoch: UInt64, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }

    /// `<epoch>:<sequence>`, for logs.
    public var description: String { "\(epoch):\(sequence)" }

    /// A new epoch: random, and within a `Double`'s exact integers so that any JSON reader keeps it whole.
    package static func newEpoch() -> UInt64 {
        UInt64.random(in: 1...(1 << 53))
    }
}
