import Hummingbird
public import NIOCore
import NIOHTTP1
public import NIOHTTPTypes

/// Answers a request the HTTP parser refuses (a request line or headers past its limits, bytes that are not HTTP)
/// with the routes' JSON error, `400 {"error": {"code": "malformedRequest", …}}`, then closes the connection.
///
/// Without it Hummingbird answers such a request with an empty 400. It answers only when no request on the
/// connection is still being answered; otherwise it leaves the error to Hummingbird, which answers after the
/// response in progress, in order.
public final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Request parts, passed on.
    public typealias InboundIn = HTTPRequestPart
    /// Response parts, passed on.
    public typealias OutboundIn = HTTPResponsePart
    /// Response parts, its own included.
    public typealias OutboundOut = HTTPResponsePart

    /// Requests read whose response has not been written to its end.
    private var unanswered = 0
    private var answeredItself = false

    /// A handler for one new connection.
    public init() {}

    /// Counts the requests read.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    /// Counts the responses written to their end.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { unanswered = max(0, unanswered - 1) }
        context.write(data, promise: promise)
    }

    /// Answers a parse error itself when the connection is between requests.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, unanswered == 0 || answeredItself else {
            context.fireErrorCaught(error)
            return
        }
        guard !answeredItself else { return }
        answeredItself = true
        let envelope = APIError.Envelope(
            error: .init(code: "malformedRequest", message: "the request is not HTTP this server reads: \(error)")
        )
        let body = (try? JSONBody.data(envelope)).map { ByteBuffer(bytes: $0) } ?? ByteBuffer()
        var fields = HTTPFields()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
