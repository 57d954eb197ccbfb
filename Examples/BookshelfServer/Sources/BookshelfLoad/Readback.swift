import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One GET on a connection of its own (`Connection: close`): the read-back of an acknowledged PUT through another
/// instance. Calls `completion` once, with the status and body, or with nil if the connection failed first.
final class ReadbackConnection: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let path: String
    private var completion: ((Int, ByteBuffer)?) -> Void
    private var status: Int?
    private var body = ByteBuffer()
    private var done = false

    init(path: String, completion: @escaping ((Int, ByteBuffer)?) -> Void) {
        self.path = path
        self.completion = completion
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1")
        head.headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = Int(head.status.code)
        case .body(var part): body.writeBuffer(&part)
        case .end:
            finish(status.map { ($0, body) })
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(nil)
        context.fireChannelInactive()
    }

    private func finish(_ outcome: (Int, ByteBuffer)?) {
        guard !done else { return }
        done = true
        completion(outcome)
    }
}

/// The title of a book body from the load generator (`{"id":"book-N","title":…,"author":"BookshelfLoad"}`), or
/// nil when the body is not that book.
func title(ofBook id: Int, in body: ByteBuffer) -> String? {
    struct Book: Decodable {
        var id: String
        var title: String
        var author: String
    }
    guard let book = try? JSONDecoder().decode(Book.self, from: Data(body.readableBytesView)),
        book.id == "book-\(id)", book.author == "BookshelfLoad"
    else { return nil }
    return book.title
}

/// Whether `body` is the routes' JSON error, `{"error": {"code": …, "message": …}}`.
func isJSONError(_ body: ByteBuffer?) -> Bool {
    guard let body,
        let json = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any],
        let error = json["error"] as? [String: Any]
    else { return false }
    return error["code"] is String && error["message"] is String
}
