internal import NIOCore
internal import NIOHTTP1

/// Gathers the parts of each HTTP request on a connection and hands the complete request to the server's handler.
final class RequestCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let handler: LoopbackServer.Handler
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    /// A collector that answers every complete request through `handler`.
    init(handler: @escaping LoopbackServer.Handler) {
        self.handler = handler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return }
            self.head = nil
            let request = IncomingRequest(head: head, body: body)
            body = []
            let writer = ResponseWriter(
                channel: context.channel,
                keepAlive: head.isKeepAlive,
                omitsBody: head.method == .HEAD
            )
            handler(request, writer)
        }
    }
}

extension IncomingRequest {
    /// A request made of its NIO head and collected body.
    init(head: HTTPRequestHead, body: [UInt8]) {
        let target = head.uri[...]
        let queryStart = target.firstIndex(of: "?")
        self.init(
            httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            method: head.method.rawValue,
            uri: head.uri,
            path: String(target[..<(queryStart ?? target.endIndex)]),
            queryItems: queryStart.map { QueryItem.parse(target[target.index(after: $0)...]) } ?? [],
            headers: head.headers.map { Header(name: $0.name, value: $0.value) },
            body: body
        )
    }
}
