internal import AsyncHTTPClient
internal import Foundation
internal import HTTPCore
internal import NIOCore
internal import NIOHTTP1

/// Sends `http://` requests over pooled cleartext HTTP/1.1 connections: a lean SwiftNIO path beside
/// AsyncHTTPClient, which keeps `https://` (TLS, HTTP/2).
///
/// The request's deadline covers waiting for a connection, connecting, sending and the whole response; task
/// cancellation closes the connection. A request that finds its reused connection closed by the server before any
/// response byte arrived is sent once more on a new connection.
final class HTTP1Client: Sendable {
    private let pool: HTTP1ConnectionPool

    /// Creates a client opening at most `maxConnectionsPerHost` connections to one host; compressed bodies may
    /// expand at most `decompressionRatio` times.
    init(decompressionRatio: Int, maxConnectionsPerHost: Int) {
        pool = HTTP1ConnectionPool(decompressionRatio: decompressionRatio, maxConnectionsPerHost: maxConnectionsPerHost)
    }

    /// The event loops the connections are on.
    var eventLoops: [any EventLoop] { pool.eventLoops }

    /// Closes every pooled connection.
    func shutdown() async {
        await pool.shutdown()
    }

    /// Sends `request` with the given headers (the host and framing fields are added here) and body, and
    /// returns the response head and decompressed body.
    /// Through `proxy` the connection is the proxy's (pooled per proxy) and the target is in absolute form.
    func execute(_ request: HTTPRequest, headers: consuming NIOHTTP1.HTTPHeaders, body: ByteBuffer, proxy: HTTPProxy? = nil,
                 deadline: NIODeadline?) async throws -> CappedBodyCollector.Response {
        let (endpoint, head) = try Self.endpointAndHead(of: request, headers: headers, bodyLength: body.readableBytes, proxy: proxy)
        let exchange = { (response: EventLoopPromise<CappedBodyCollector.Response>) in
            HTTP1Exchange(head: head, body: body.readableBytes == 0 ? nil : body,
                          limit: ResponseSizeLimit(request: request), deadline: deadline, response: response)
        }
        let reusable = head.isKeepAlive
        let cancellation = ExchangeCancellation()
        return try await withTaskCancellationHandler {
            do {
                let lease = try await pool.lease(endpoint, deadline: deadline, cancellation: cancellation)
                do {
                    return try await send(exchange, on: lease, reusable: reusable, cancellation: cancellation)
                } catch is StaleConnectionError where lease.reused && !Task.isCancelled {
                    let fresh = try await pool.lease(endpoint, reuseIdle: false, deadline: deadline, cancellation: cancellation)
                    return try await send(exchange, on: fresh, reusable: reusable, cancellation: cancellation)
                }
            } catch let stale as StaleConnectionError {
                throw stale.underlying
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Sends one exchange on a leased connection and gives the connection back: kept when the response (and
    /// the request, when `reusable` is false) allow keep-alive, closed otherwise.
    private func send(
        _ exchange: (EventLoopPromise<CappedBodyCollector.Response>) -> HTTP1Exchange, on lease: HTTP1ConnectionPool.Lease,
        reusable: Bool, cancellation: ExchangeCancellation
    ) async throws -> CappedBodyCollector.Response {
        let channel = lease.channel
        guard cancellation.onCancel({ channel.close(promise: nil) }) else {
            pool.release(lease, reusable: true)
            throw CancellationError()
        }
        let response = channel.eventLoop.makePromise(of: CappedBodyCollector.Response.self)
        let written = channel.eventLoop.makePromise(of: Void.self)
        // Through the pipeline, whose generic write is inlined here: `Channel.writeAndFlush` is a protocol requirement,
        // unspecialized, and wraps the exchange in `NIOAny` with dynamic casts (runtime conformance lookups per request).
        channel.pipeline.writeAndFlush(exchange(response), promise: written)
        written.futureResult.whenFailure { error in
            // Only reached first when the exchange never got to the handler: the connection was closed already.
            response.fail(StaleConnectionError(underlying: error))
        }
        do {
            let received = try await response.futureResult.get()
            cancellation.onCancel(nil)
            pool.release(lease, reusable: reusable && received.head.isKeepAlive)
            return received
        } catch {
            cancellation.onCancel(nil)
            pool.release(lease, reusable: false)
            throw error
        }
    }

    /// Where to connect and the request head: origin-form target (absolute form through a proxy, with its
    /// `Proxy-Authorization` unless set), `Host` (with the port when not 80) unless set, and `Content-Length` as
    /// AsyncHTTPClient frames it (none for an empty GET, HEAD, DELETE, CONNECT or TRACE body, 0 for other methods);
    /// throws `invalidHeaderToken` for a head that may not be sent.
    private static func endpointAndHead(
        of request: HTTPRequest, headers: consuming NIOHTTP1.HTTPHeaders, bodyLength: Int, proxy: HTTPProxy?
    ) throws -> (HTTP1ConnectionPool.Endpoint, HTTPRequestHead) {
        guard let host = request.host, !host.isEmpty else { throw HTTPClientError.emptyHost }
        let method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        if method == .TRACE && bodyLength > 0 { throw HTTPClientError.traceRequestWithBody }
        let port = request.port ?? 80
        let address = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let name = address.utf8.contains(UInt8(ascii: ":")) ? "[\(address)]" : address
        let authority = port == 80 ? name : "\(name):\(port)"
        if !headers.contains(name: "Host") { headers.add(name: "Host", value: authority) }
        if let authorization = proxy?.authorization, !headers.contains(name: "Proxy-Authorization") {
            headers.add(name: "Proxy-Authorization", value: authorization)
        }
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        switch method {
        case _ where bodyLength > 0: headers.add(name: "Content-Length", value: String(bodyLength))
        case .GET, .HEAD, .DELETE, .CONNECT, .TRACE: break
        default: headers.add(name: "Content-Length", value: "0")
        }
        let path = request.components.percentEncodedPath
        let query = request.components.percentEncodedQuery.map { "?\($0)" } ?? ""
        let target = (path.isEmpty ? "/" : path) + query
        let head = HTTPRequestHead(version: .http1_1, method: method, uri: proxy == nil ? target : "http://\(authority)\(target)",
                                   headers: headers)
        try HTTP1RequestValidation.check(head)
        let endpoint = proxy.map { HTTP1ConnectionPool.Endpoint(host: $0.host, port: $0.port) }
            ?? HTTP1ConnectionPool.Endpoint(host: address, port: port)
        return (endpoint, head)
    }
}
