internal import Foundation
internal import NIOCore
internal import NIOPosix
internal import Synchronization

/// A forward proxy on 127.0.0.1 for tests: absolute-form HTTP/1.1 requests are forwarded (rewritten to origin form,
/// `Proxy-Authorization` removed) over one upstream connection per client connection, and `CONNECT` opens a tunnel.
/// It records what it forwarded; with `credentials` set, a request without them is answered 407.
public final class ForwardProxy: Sendable {
    /// One request the proxy handled: `CONNECT host:port`, or a forwarded request with its absolute-form target.
    public struct Forwarded: Sendable {
        public var method: String
        public var target: String
        /// The `Proxy-Authorization` value it carried.
        public var proxyAuthorization: String?
    }

    /// The port the proxy listens on.
    public let port: Int
    private let channel: any Channel
    private let log: Log

    final class Log: Sendable {
        let forwarded = Mutex<[Forwarded]>([])
        let connections = Mutex(0)
        let credentials: String?
        /// The status line (`403 Forbidden`) a `CONNECT` is answered with instead of a tunnel.
        let tunnelRefusal: String?

        init(credentials: String?, tunnelRefusal: String?) {
            self.credentials = credentials
            self.tunnelRefusal = tunnelRefusal
        }
    }

    /// The address it listens on: `127.0.0.1`, or `::1`.
    public let host: String

    private init(host: String, port: Int, channel: any Channel, log: Log) {
        self.host = host
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// Every request handled, in order.
    public var forwarded: [Forwarded] { log.forwarded.withLock { $0 } }

    /// How many client connections it accepted.
    public var connectionsAccepted: Int { log.connections.withLock { $0 } }

    /// `http://127.0.0.1:PORT` (`http://[::1]:PORT` on the IPv6 loopback address).
    public var url: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    /// Starts a proxy on `host` (a loopback address); with `username` and `password`, only requests carrying them in
    /// `Proxy-Authorization` pass; with `refusingTunnels` (a status line such as `403 Forbidden`) every `CONNECT` is
    /// answered with it, a small text body and `Connection: close`.
    public static func start(username: String? = nil, password: String? = nil, host: String = "127.0.0.1",
                             refusingTunnels: String? = nil) async throws -> ForwardProxy {
        let credentials = username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
        let log = Log(credentials: credentials, tunnelRefusal: refusingTunnels)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                log.connections.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ProxyConnectionHandler(log: log))
                }
            }
            .bind(host: host, port: 0).get()
        return ForwardProxy(host: host, port: channel.localAddress?.port ?? 0, channel: channel, log: log)
    }

    /// Stops listening.
    public func stop() async throws {
        try await channel.close()
    }
}

/// One client connection of the proxy: parses request heads until a tunnel opens, then relays bytes.
private final class ProxyConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let log: ForwardProxy.Log
    private var buffer = ByteBuffer()
    private var upstream: EventLoopFuture<any Channel>?
    private var tunnel = false
    /// `host:port` of the upstream connection of forwarded requests.
    private var upstreamTarget: String?

    init(log: ForwardProxy.Log) { self.log = log }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if tunnel, let upstream {
            upstream.whenSuccess { [bytes] in $0.writeAndFlush(bytes, promise: nil) }
            return
        }
        buffer.writeBuffer(&bytes)
        handleRequests(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        upstream?.whenSuccess { $0.close(promise: nil) }
    }

    /// Handles every complete request in the buffer.
    private func handleRequests(context: ChannelHandlerContext) {
        while !tunnel, let request = nextRequest() {
            let authorization = request.headers.first { $0.name.lowercased() == "proxy-authorization" }?.value
            log.forwarded.withLock { $0.append(.init(method: request.method, target: request.target, proxyAuthorization: authorization)) }
            if let required = log.credentials, authorization != required {
                let answer = "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n"
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).whenComplete { _ in bound.value.close(promise: nil) }
                return
            }
            if request.method == "CONNECT", let refusal = log.tunnelRefusal {
                let body = "tunnels are not allowed by the test proxy"
                let answer = "HTTP/1.1 \(refusal)\r\nContent-Type: text/plain\r\nX-Proxy-Policy: no-tunnels\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).whenComplete { _ in bound.value.close(promise: nil) }
                return
            }
            if request.method == "CONNECT" {
                tunnel = true
                let parts = request.target.split(separator: ":")
                let connected = connect(host: String(parts[0]), port: Int(parts.last ?? "") ?? 443, context: context)
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                connected.whenComplete { result in
                    if case .success = result {
                        bound.value.writeAndFlush(NIOAny(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")), promise: nil)
                    } else {
                        bound.value.close(promise: nil)
                    }
                }
                return
            }
            guard let url = URLComponents(string: request.target), let host = url.host else {
                context.close(promise: nil)
                return
            }
            let target = "\(host):\(url.port ?? 80)"
            if upstreamTarget != target {
                upstream?.whenSuccess { $0.close(promise: nil) }
                upstreamTarget = target
                upstream = connect(host: host, port: url.port ?? 80, context: context)
            }
            let path = (url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath) + (url.percentEncodedQuery.map { "?\($0)" } ?? "")
            var forwarded = "\(request.method) \(path) HTTP/1.1\r\n"
            for header in request.headers where header.name.lowercased() != "proxy-authorization" {
                forwarded += "\(header.name): \(header.value)\r\n"
            }
            var out = ByteBuffer(string: forwarded + "\r\n")
            var body = request.body
            out.writeBuffer(&body)
            upstream?.whenSuccess { [out] in $0.writeAndFlush(out, promise: nil) }
        }
    }

    /// A connection to the target whose bytes are written back to the client.
    private func connect(host: String, port: Int, context: ChannelHandlerContext) -> EventLoopFuture<any Channel> {
        let client = context.channel
        let connected = ClientBootstrap(group: context.eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(to: client))
                }
            }
            .connect(host: host, port: port)
        upstream = connected
        return connected
    }

    /// A parsed request: method, target, headers and `Content-Length` body.
    private struct Request {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: ByteBuffer
    }

    /// The next complete request in the buffer, removed from it; nil while it is incomplete.
    private func nextRequest() -> Request? {
        let view = buffer.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let headLength = end.upperBound - view.startIndex
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard buffer.readableBytes >= headLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headLength)
        let body = buffer.readSlice(length: length) ?? ByteBuffer()
        buffer.discardReadBytes()
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }
}

/// Writes what a target sends to the client connection, and closes it when the target closes.
private final class RelayHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let client: any Channel

    init(to client: any Channel) { self.client = client }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        client.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.close(promise: nil)
    }
}
