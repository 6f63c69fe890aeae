internal import NIOCore
internal import NIOHTTP1

/// Gathers the parts of each HTTP request on a connection, records it and hands it to the router.
final class RequestCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: ServerState
    private let router: Router
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    /// A collector that records into `state` and answers through `router`.
    init(state: ServerState, router: Router) {
        self.state = state
        self.router = router
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
            let request = RecordedRequest(head: head, body: body)
            body = []
            state.record(request)
            let writer = ResponseWriter(
                channel: context.channel,
                keepAlive: head.isKeepAlive,
                omitsBody: head.method == .HEAD
            )
            router.respond(to: request, with: writer)
        }
    }
}

extension RecordedRequest {
    /// A record of a request made of its NIO head and collected body.
    init(head: HTTPRequestHead, body: [UInt8]) {
        let target = head.uri[...]
        let queryStart = target.firstIndex(of: "?")
        self.init(
            method: head.method.rawValue,
            uri: head.uri,
            path: String(target[..<(queryStart ?? target.endIndex)]),
            queryItems: queryStart.map { QueryItem.parse(target[target.index(after: $0)...]) } ?? [],
            headers: head.headers.map { Header(name: $0.name, value: $0.value) },
            body: body
        )
    }
}
