public import Interactors
import NIOConcurrencyHelpers
public import NIOCore

/// One client connection as the routes see it: `value(of:)` awaits a response, and cancels it if the client goes
/// away first (it closes the connection, or shuts its sending side, as nginx reads a client abort).
///
/// HTTP/1.1 answers one request at a time on a connection, so a connection watches one response at a time.
public final class ClientConnection: Sendable {
    private enum State {
        case connected(cancelCurrent: (@Sendable () -> Void)?)
        case gone
    }

    private let state = NIOLockedValueBox(State.connected(cancelCurrent: nil))

    /// A connection whose client is there.
    public init() {}

    /// The value of `response`, awaited; if the client goes away first, `response` is cancelled and this throws
    /// `CancellationError`.
    public func value<Value: Sendable>(of response: Response<Value>) async throws -> Value {
        let watching = state.withLockedValue { state -> Bool in
            guard case .connected = state else { return false }
            state = .connected(cancelCurrent: { response.cancel() })
            return true
        }
        guard watching else {
            response.cancel()
            throw CancellationError()
        }
        defer {
            state.withLockedValue { state in
                if case .connected = state { state = .connected(cancelCurrent: nil) }
            }
        }
        return try await response.value
    }

    /// Whether the client has gone away.
    public var isGone: Bool {
        state.withLockedValue { state in
            if case .gone = state { return true }
            return false
        }
    }

    /// The client went away: cancels the response being awaited, and any awaited later.
    func clientLeft() {
        let cancel = state.withLockedValue { state -> (@Sendable () -> Void)? in
            defer { state = .gone }
            guard case .connected(let cancel) = state else { return nil }
            return cancel
        }
        cancel?()
    }
}

// MARK: - Finding a request's connection

/// The connections open now, by channel: the request context finds its connection here.
final class ClientConnections: Sendable {
    static let shared = ClientConnections()

    private let connections = NIOLockedValueBox<[ObjectIdentifier: ClientConnection]>([:])

    /// The connection of `channel`; a connection nobody watches if the channel has no ``ClientDisconnectHandler``.
    func connection(for channel: any Channel) -> ClientConnection {
        connections.withLockedValue { $0[ObjectIdentifier(channel)] } ?? ClientConnection()
    }

    func insert(_ connection: ClientConnection, for channel: any Channel) {
        connections.withLockedValue { $0[ObjectIdentifier(channel)] = connection }
    }

    func remove(_ channel: any Channel) {
        _ = connections.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// The channel handler that tells a connection's ``ClientConnection`` when its client goes away: the end of its
/// input (the client closed or shut its sending side) or the end of the channel. One per connection, added with
/// the HTTP/1 server's additional channel handlers.
public final class ClientDisconnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Passed on untouched.
    public typealias InboundIn = NIOAny

    private let connection = ClientConnection()

    /// A handler for one new connection.
    public init() {}

    /// Makes the connection findable by its channel.
    public func handlerAdded(context: ChannelHandlerContext) {
        ClientConnections.shared.insert(connection, for: context.channel)
    }

    /// Forgets the connection.
    public func handlerRemoved(context: ChannelHandlerContext) {
        ClientConnections.shared.remove(context.channel)
    }

    /// The client shut its sending side: it will not read an answer either.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { connection.clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    /// The connection ended.
    public func channelInactive(context: ChannelHandlerContext) {
        connection.clientLeft()
        ClientConnections.shared.remove(context.channel)
        context.fireChannelInactive()
    }
}
