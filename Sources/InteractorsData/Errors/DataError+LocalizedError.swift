public import Foundation

extension DataError: LocalizedError {
    /// The ``description``, so `localizedDescription` reads as it does (not "The operation could not be
    /// completed").
    public var errorDescription: String? { description }
}
