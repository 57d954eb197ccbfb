/// Where each owner's handlers sit in a long handler list, so that a consumer letting go of a shared response
/// takes its handlers out in constant time, however many consumers the response has.
///
/// Built the first time an owner lets go of a list longer than ``threshold`` (one pass), then kept up to date as
/// handlers are appended. A handler taken back leaves `Handler.removed` in its place, so the other positions hold;
/// once the removed ones outnumber the live ones, the list is compacted and the index rebuilt, in one pass: the
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

    /// Takes `owner`'s handlers out of `handlers`, leaving `Handler.removed` in their place; returns them, in
    /// order. Compacts the list when the removed handlers outnumber the others.
    func take<Value>(ownedBy owner: AnyObject, from handlers: inout [Handler<Value>]) -> HandlerList<Value> {
        let key = ObjectIdentifier(owner)
        var taken = HandlerList<Value>()
        guard let position = positions.removeValue(forKey: key) else { return taken }
        func takeOut(at position: Int) {
            var removed = Handler<Value>.removed
            swap(&removed, &handlers[position])
            taken.append(removed)
            removedCount += 1
        }
        takeOut(at: position)
        for position in furtherPositions.removeValue(forKey: key) ?? [] { takeOut(at: position) }
        if removedCount > HandlerOwnerIndex.threshold, removedCount * 2 > handlers.count {
            handlers.removeAll { $0.isRemoved }
            rebuild(from: handlers)
        }
        return taken
    }

    private func rebuild<Value>(from handlers: [Handler<Value>]) {
        positions.removeAll(keepingCapacity: true)
        furtherPositions.removeAll()
        removedCount = 0
        for (position, handler) in handlers.enumerated() {
            if let owner = handler.owner {
                record(owner, at: position)
            } else if handler.isRemoved {
                removedCount += 1
            }
        }
    }
}
