/// An id as the local stores key their values, lists and times by: two ids are one exactly when they are equal,
/// except that `String` ids are one only when their Unicode scalars are the same.
///
/// Swift's `==` on strings is canonical equivalence: `"café"` spelled with `é` (NFC) equals `"café"` spelled
/// with `e` and a combining accent (NFD). SQLite, a server's URLs and JSON keep the two apart, so a store that
/// merged them would show one book where the server has two, or answer one for the other. Comparing the UTF-8
/// bytes keeps them apart, and costs less than normalising. An id type of your own compares with its own `==`.
struct ExactID<Base: Hashable>: Hashable {
    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        if Base.self == String.self {
            return unsafeBitCast(lhs.base, to: String.self).utf8.elementsEqual(
                unsafeBitCast(rhs.base, to: String.self).utf8
            )
        }
        return lhs.base == rhs.base
    }

    func hash(into hasher: inout Hasher) {
        if Base.self == String.self {
            var text = unsafeBitCast(base, to: String.self)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(0xFF as UInt8)  // never a byte of UTF-8: ends the string, as String's own hashing does
            return
        }
        hasher.combine(base)
    }
}

/// The key of a repository's list in a local store's index: its ``CacheKeyQuery/cacheKey``, compared exactly.
typealias ListKey = ExactID<String>

extension ExactID: Sendable where Base: Sendable {}
