import Foundation
import Interactors

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `Idempotency-Key` of one call (draft-ietf-httpapi-idempotency-key-header): chosen at its first send and
/// put on every send of the call, so that a server that keeps the keys it has seen answers a repeat with what it
/// did the first time instead of creating twice.
///
/// The key is the one the first send already carried (from the endpoint's headers or an interceptor's `adapt`),
/// else a new random one if the client generates keys, else none.
final class IdempotencyKey: Sendable {
    static let header = "Idempotency-Key"

    private let generatesOne: Bool
    private let value = LockedBox<String?>(nil)

    init(generatesOne: Bool) {
        self.generatesOne = generatesOne
    }

    /// `request` with the call's key, chosen now if this is its first send.
    func stamped(_ request: URLRequest) -> URLRequest {
        let key = value.withLock { value -> String? in
            if value == nil {
                value = request.value(forHTTPHeaderField: Self.header) ?? (generatesOne ? UUID().uuidString : nil)
            }
            return value
        }
        guard let key, request.value(forHTTPHeaderField: Self.header) != key else { return request }
        var request = request
        request.setValue(key, forHTTPHeaderField: Self.header)
        return request
    }

    /// Whether the call's sends carry a key, so that a server can tell a repeat: every one does when the client
    /// generates keys, and every one after the first that carried one.
    var keysSends: Bool {
        generatesOne || value.withLock { $0 != nil }
    }
}
