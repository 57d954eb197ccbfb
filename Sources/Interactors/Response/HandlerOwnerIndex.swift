/// Where each owner's handlers sit in a long handler list, so that a consumer letting go of a shared response
/// takes its handlers out in constant time, however many consumers the response has.
///
/// Built the first time an owner lets go of a list longer than ``threshold`` (one pass), then kept up to date as
/// handlers are appended. A handler taken back leaves `Handler.removed` in its place, so the other positions hold;
/// once the removed ones outnumber the live ones three to one, the list is compacted and the index rebuilt, in one pass: the
/// cost of every release stays constant on average. Shorter lists are simply rebuilt on each release.
@usableFromInline
final class HandlerOwnerIndex {
    /// Lists shorter than this are searched and rebuilt instead.
    static let threshold = 32

    /// The position in `Response.more` of each owner's handler.
    private var positions: [ObjectIdentifier: Int] = [:]
    /// The further positions of owners with more than one handler in the list (`Response.all([r, r])`).
    private var furtherPositions: [ObjectIdentifier: [Int]] = [:]
    /// How many handlers in the list were taken back.
    private(set) var removedCount = 0

    /// An index of `handlers`.
    init<Value>(_ handlers: [Handler<Value>]) {
        rebuild(from: handlers)
    }

    /// Records that `owner`'s handler is at `position`.
    @usableFromInline
    func record(_ owner: AnyObject, at position: Int) {
        let key = ObjectIdentifier(owner)
        if positions[key] == nil {
            positions[key] = position
        } else {
            furtherPositions[key, default: []].append(position)
        }
    }

    /// Takes `owner`'s handlers out of `handlers`, leaving `Handler.removed` in their place, and appends them to
    /// `taken`, in order. Compacts the list when the removed handlers outnumber the others three to one: rarely
    /// enough that the compactions cost less than the releases, often enough that a long-lived response whose
    /// consumers come and go holds at most four slots per live handler.
    func take<Value>(
        ownedBy owner: AnyObject,
        from handlers: inout [Handler<Value>],
        into taken: inout HandlerList<Value>
    ) {
        let key = ObjectIdentifier(owner)
        guard let position = positions.removeValue(forKey: key) else { return }
        func takeOut(at position: Int) {
            var removed = Handler<Value>.removed
            swap(&removed, &handlers[position])
            taken.append(removed)
            removedCount += 1
        }
        takeOut(at: position)
        if !furtherPositions.isEmpty, let further = furtherPositions.removeValue(forKey: key) {
            for position in further { takeOut(at: position) }
        }
        if removedCount > HandlerOwnerIndex.threshold, removedCount > 3 * (handlers.count - removedCount) {
            handlers.removeAll { $0.isRemoved }
            rebuild(from: handlers)
        }
    }

    private func rebuild<Value>(from handlers: [Handler<Value>]) {
        positions.removeAll(keepingCapacity: true)
        furtherPositions.removeAll()
        removedCount = 0
        // By index, not `enumerated()`: unspecialised, each step of that iterator looks up generic metadata.
        for position in handlers.indices {
            if let owner = handlers[position].owner {
                record(owner, at: position)
            } else if handlers[position].isRemoved {
                removedCount += 1
            }
        }
    }
}
