internal import NIOCore
internal import NIOPosix
internal import Synchronization

/// A TCP listener on 127.0.0.1 for tests that closes each connection as soon as it accepts it, before reading a byte:
/// a plain request to it is cut before any answer, a TLS handshake with it ends at once, as with a front end that drops
/// connections; `resetting`, it resets them (an RST, as a firewall or an overloaded front end sends).
public final class ClosingListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let channel: any Channel
    private let accepted: Accepted

    /// How many connections it accepted (and closed).
    final class Accepted: Sendable {
        let count = Mutex(0)
    }

    private init(port: Int, channel: any Channel, accepted: Accepted) {
        self.port = port
        self.channel = channel
        self.accepted = accepted
    }

    /// How many connections it accepted.
    public var connectionsAccepted: Int { accepted.count.withLock { $0 } }

    /// Starts listening on a free port; `resetting`, each connection is reset rather than closed.
    public static func start(resetting: Bool = false) async throws -> ClosingListener {
        let accepted = Accepted()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.count.withLock { $0 += 1 }
                guard resetting, let socket = channel as? any SocketOptionProvider else { return channel.close() }
                return socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).flatMap { channel.close() }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ClosingListener(port: channel.localAddress?.port ?? 0, channel: channel, accepted: accepted)
    }

    /// Stops listening.
    public func stop() async throws {
        try await channel.close()
    }
}
