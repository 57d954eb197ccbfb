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
            let left = unsafeBitCast(lhs.base, to: String.self).utf8
            let right = unsafeBitCast(rhs.base, to: String.self).utf8
            guard left.count == right.count else { return false }
            // The bytes in place when both strings have them (native ones do), else one by one.
            let inPlace: Bool?? = left.withContiguousStorageIfAvailable { leftBytes in
                right.withContiguousStorageIfAvailable { rightBytes in leftBytes.elementsEqual(rightBytes) }
            }
            if let inPlace, let inPlace { return inPlace }
            return left.elementsEqual(right)
        }
        return lhs.base == rhs.base
    }

    func hash(into hasher: inout Hasher) {
        if Base.self == String.self {
            let utf8 = unsafeBitCast(base, to: String.self).utf8
            if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                for byte in utf8 { hasher.combine(byte) }
            }
            hasher.combine(0xFF as UInt8)  // never a byte of UTF-8: ends the string, as String's own hashing does
            return
        }
        hasher.combine(base)
    }
}

/// The key of a repository's list in a local store's index: its ``CacheKeyQuery/cacheKey``, compared exactly.
typealias ListKey = ExactID<String>

extension ExactID: Sendable where Base: Sendable {}
