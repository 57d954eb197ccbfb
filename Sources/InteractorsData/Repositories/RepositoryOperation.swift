/// Which sources a ``Repository`` call uses, and in what order.
///
/// | Operation | Reads | Writes and deletes |
/// |---|---|---|
/// | ``main`` | the main source | the main source |
/// | ``cache`` | the cache | the cache |
/// | ``mainSync`` | the main source, then stores the value in the cache; if the main source fails (other than with ``DataError/Code/notFound``), the cache's value, valid or not | the main source, then the cache; a failed main write leaves the cache alone |
/// | ``cacheSync`` | the cache; if it has nothing (``DataError/Code/notFound``, an empty `getAll`) or the validator rejects it, as ``mainSync`` | as ``mainSync`` |
///
/// The defaults: ``cacheSync`` for reads, ``mainSync`` for writes and deletes.
///
/// The cases are complete, and a `switch` over them may list them all: with two sources there are exactly these
/// four ways to use them (either alone, or both, each one first), as in Harmony, where the four come from. A new
/// way to use the sources (a deadline for the cache, say) is a parameter of the repository, not a new operation.
public enum RepositoryOperation: Sendable, Hashable, CaseIterable {
    /// The main source only.
    case main
    /// The cache only.
    case cache
    /// The main source, then the cache is brought in line; the cache stands in when the main source is down.
    case mainSync
    /// The cache, and the main source when the cache has nothing, or nothing valid.
    case cacheSync
}
