internal import NIOConcurrencyHelpers
public import NIOCore
internal import NIOHTTP1
internal import NIOPosix

/// A small HTTP/1.1 server on a loopback address: it collects each request whole and hands it to a handler.
///
/// Start it with `LoopbackServer.start(port:handler:)` (port 0 lets the system pick a free one) and always
/// `stop()` it: stopping closes the listener and every open connection, stalled ones included.
public final class LoopbackServer: Sendable {
    /// Answers one complete request through its writer, at once, later or never.
    public typealias Handler = @Sendable (IncomingRequest, ResponseWriter) -> Void

    /// The host the server listens on.
    public let host: String
    /// The port the server listens on.
    public let port: Int

    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let connections: ConnectionRegistry
    private let isStopped = NIOLockedValueBox(false)

    private init(host: String, port: Int, group: MultiThreadedEventLoopGroup, listener: any Channel, connections: ConnectionRegistry) {
        self.host = host
        self.port = port
        self.group = group
        self.listener = listener
        self.connections = connections
    }

    /// Starts a server on `host` and `port` (0: a free port the system picks) that answers through `handler`;
    /// `prepareConnection` may add handlers (such as TLS) to each new connection before the HTTP ones, which
    /// `protocolSetup` adds (HTTP/1.1 unless told otherwise).
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        prepareConnection: (@Sendable (any Channel) throws -> Void)? = nil,
        protocolSetup: @escaping ProtocolSetup = http1,
        handler: @escaping Handler
    ) async throws -> LoopbackServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connections = ConnectionRegistry()
        do {
            let listener = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    connections.add(channel)
                    let handleRequests: @Sendable (any Channel) throws -> Void = { messages in
                        try messages.pipeline.syncOperations.addHandler(RequestCollector(handler: handler))
                    }
                    return channel.eventLoop.makeCompletedFuture { try prepareConnection?(channel) }
                        .flatMap { protocolSetup(channel, handleRequests) }
                }
                .bind(host: host, port: port)
                .get()
            guard let boundPort = listener.localAddress?.port else {
                throw LoopbackServerError.noPort
            }
            return LoopbackServer(host: host, port: boundPort, group: group, listener: listener, connections: connections)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The server's root URL, e.g. "http://127.0.0.1:8080".
    public var baseURL: String {
        "http://\(host):\(port)"
    }

    /// How many TCP connections the server has accepted so far (keep-alive reuse shows as fewer).
    public var connectionsAccepted: Int {
        connections.acceptedCount
    }

    /// How many of the connections it accepted are open now (the client has not closed them).
    public var connectionsOpen: Int {
        connections.openCount
    }

    /// Closes the listener and every open connection and releases the threads; calling it again does nothing.
    public func stop() async throws {
        let alreadyStopped = isStopped.withLockedValue { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        try? await listener.close()
        for connection in connections.closeRegistry() {
            try? await connection.close()
        }
        try await group.shutdownGracefully()
    }
}

/// Failures of starting a loopback server.
public enum LoopbackServerError: Error {
    /// The bound listener reported no port.
    case noPort
}
