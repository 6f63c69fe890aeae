internal import Foundation
internal import HTTPCore
internal import Synchronization
internal import NIOCore
internal import NIOPosix

/// Asks a proxy for a tunnel of its own: once more for one it refused, to learn its answer (AsyncHTTPClient reports a
/// `CONNECT` refused with a status other than 407 without the status), or to reach a server behind it for
/// `CertificateValidityProbe`. The probe sends the same `CONNECT` (with the proxy's credentials) and reads the answer's
/// head and up to `limit` bytes of its body.
enum ProxyTunnelProbe {
    /// The most of the answer kept: its head and the start of its body.
    static let limit = 64 * 1024

    /// The proxy's answer (as the response to the `CONNECT`) and its status as written, such as `403 Forbidden`.
    typealias Answer = (response: HTTPResponse, status: String)

    /// The proxy's answer to a `CONNECT` to `target`; nil when it does not answer as HTTP in time, or grants the tunnel
    /// this time.
    static func answer(of proxy: HTTPProxy, toTunnelTo target: (host: String, port: Int),
                       within timeout: TimeAmount = .seconds(2)) async -> Answer? {
        guard let (channel, answer) = await tunnel(through: proxy, to: target, within: timeout) else { return nil }
        channel.close(promise: nil)
        return answer.response.status.code / 100 == 2 ? nil : answer
    }

    /// A connection to `proxy` that asked it for a tunnel to `target`, with the proxy's answer; when the answer grants the
    /// tunnel (2xx), the connection is the tunnel, with an empty pipeline. Nil when the proxy does not answer as HTTP in time.
    /// The caller closes the connection.
    static func tunnel(through proxy: HTTPProxy, to target: (host: String, port: Int),
                       within timeout: TimeAmount) async -> (channel: any Channel, answer: Answer)? {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = ("http", target.host, target.port)
        var request = HTTPRequest(method: .connect, components: components)
        request.headers["Host"] = request.displayURL
        if let authorization = proxy.authorization { request.headers["Proxy-Authorization"] = authorization }
        let head = "CONNECT \(request.displayURL) HTTP/1.1\r\n" + request.headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let collected = Received()
        let started = Date()
        let start = ContinuousClock.now
        guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer({ channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(into: collected), name: Collector.name)
                }
            })
            .connect(host: proxy.host, port: proxy.port).get()
        else { return nil }
        do {
            try await channel.writeAndFlush(ByteBuffer(string: head + "\r\n")).get()
            let deadline = ContinuousClock.now + .nanoseconds(timeout.nanoseconds)
            while ContinuousClock.now < deadline {
                // Whether it closed, asked before the bytes are read: what came before the close is all in by then.
                let closed = !channel.isActive
                if let answer = parse(collected.bytes.withLock { $0 }, complete: closed, request: request,
                                      startedAt: started, duration: start.duration(to: .now)) {
                    if answer.response.status.code / 100 == 2 { try await channel.pipeline.removeHandler(name: Collector.name).get() }
                    return (channel, answer)
                }
                if closed { break }
                try await Task.sleep(for: .milliseconds(10))
            }
        } catch {}
        channel.close(promise: nil)
        return nil
    }

    /// The answer in `buffer` once its head and its body (by `Content-Length`, or until the connection closed, or
    /// `limit`) are in; nil while they are not, or when it is not HTTP.
    private static func parse(_ buffer: ByteBuffer, complete: Bool, request: HTTPRequest, startedAt: Date,
                              duration: Duration) -> Answer? {
        let bytes = Array(buffer.readableBytesView)
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        var lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let code = Int(statusLine[1]) else { return nil }
        let headers = HTTPHeaders(lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        })
        let body = bytes[end.upperBound...]
        // A tunnel granted has no body: what follows its head is the tunnel's (RFC 9110, section 9.3.6).
        let length = code / 100 == 2 ? 0 : headers["Content-Length"].flatMap { Int($0) }
        guard complete || body.count >= min(length ?? limit, limit) else { return nil }
        let response = HTTPResponse(request: request, status: HTTPStatus(code), headers: headers,
                                    body: Data(body.prefix(length ?? limit)), startedAt: startedAt, duration: duration)
        return (response, statusLine.dropFirst().joined(separator: " "))
    }

    /// What the proxy sent so far.
    private final class Received: Sendable {
        let bytes = Mutex(ByteBuffer())
    }

    /// Keeps what the proxy sends, up to `limit` bytes.
    private final class Collector: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = ByteBuffer
        static let name = "tunnel-answer"
        let received: Received

        init(into received: Received) { self.received = received }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var part = unwrapInboundIn(data)
            received.bytes.withLock { buffer in
                if buffer.readableBytes < ProxyTunnelProbe.limit { buffer.writeBuffer(&part) }
            }
        }
    }
}
