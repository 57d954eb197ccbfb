public import Hummingbird

/// The request context of the bookshelf's routes: Hummingbird's core context, and the request's client connection.
public struct BookshelfContext: RequestContext {
    /// Hummingbird's part of the context.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on; awaiting through it cancels the response if the client goes away.
    public let client: ClientConnection

    /// The context of a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.client = ClientConnections.shared.connection(for: source.channel)
    }

    /// The largest body decoded: a book is a few hundred bytes.
    public var maxUploadSize: Int { BookRoutes.maximumBodySize }
}
