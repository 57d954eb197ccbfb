import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP/1.1 server on 127.0.0.1 for the pending-writes cases: a `PUT` is answered 200 with the body it
/// carried (the value as the server stored it), a `DELETE` 204, anything else 404; connections are kept alive.
/// SwiftNIO, so that the server's own cost is small beside the client's and the figures show the client.
final class LoopbackServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    let port: Int

    init() throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Answerer())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .wait()
        port = channel.localAddress?.port ?? 0
    }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Answers each request once its body has come.
    private final class Answerer: ChannelInboundHandler, @unchecked Sendable {
        // @unchecked Sendable: used on its channel's event loop only.
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var method: HTTPMethod = .GET
        private var body: ByteBuffer?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                method = head.method
                body = context.channel.allocator.buffer(capacity: 256)
            case .body(var chunk):
                body?.writeBuffer(&chunk)
            case .end:
                let status: HTTPResponseStatus =
                    method == .PUT ? .ok : method == .DELETE ? .noContent : .notFound
                let answer = method == .PUT ? body ?? ByteBuffer() : ByteBuffer()
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "\(answer.readableBytes)")
                if answer.readableBytes > 0 { headers.add(name: "Content-Type", value: "application/json") }
                let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                if answer.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(answer))), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                body = nil
            }
        }
    }
}

/// A port on 127.0.0.1 where nothing listens: a connection to it is refused at once, as a server that is down.
func closedLoopbackPort() throws -> Int {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }
    let channel = try ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).wait()
    let port = channel.localAddress?.port ?? 0
    try channel.close().wait()
    return port
}
