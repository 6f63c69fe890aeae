internal import Foundation
internal import HTTPCore
internal import NIOCore
internal import NIOPosix
internal import NIOSSL
internal import Synchronization

/// Reads once more the certificates of a server whose certificate could not be verified, to say whether one is outside
/// its validity dates, or the trusted authority that issued them is: BoringSSL reports an expired or not yet valid
/// certificate as any other it cannot verify. The probe starts a handshake (through the request's proxy's tunnel when it
/// has one), takes the chain the server sends and ends the handshake there (nothing is sent).
enum CertificateValidityProbe {
    /// What the dates of the server's certificates say.
    enum Finding: Sendable, Equatable {
        /// A certificate of the chain (`position` 0: the server's own) expired at `date`.
        case expired(date: Date, position: Int)
        /// A certificate of the chain is valid only from `date`.
        case notYetValid(date: Date, position: Int)
        /// The authority certificate in trusted file `file` that issued the chain's last certificate is outside its
        /// dates: it expired at `date` (`expired`) or is valid only from `date`.
        case trustedAuthorityOutsideDates(file: String, expired: Bool, date: Date)
        /// Every certificate is within its dates: the cause is elsewhere (an authority not trusted here).
        case withinDates
    }

    /// What the validity dates of the chain `endpoint` sends (reached through `proxy` when given), and of the authority in
    /// `trustedFiles` that issued its last certificate, say at `now`; nil when no chain came within `timeout`.
    static func finding(for endpoint: (host: String, port: Int), through proxy: HTTPProxy? = nil, trustedFiles: [String] = [],
                        within timeout: TimeAmount = .seconds(2), now: Date = Date()) async -> Finding? {
        guard let chain = await chain(of: endpoint, through: proxy, within: timeout) else { return nil }
        for (position, certificate) in chain.enumerated() {
            if certificate.validUntil < now { return .expired(date: certificate.validUntil, position: position) }
            if certificate.validFrom > now { return .notYetValid(date: certificate.validFrom, position: position) }
        }
        guard let issuer = chain.last?.names?.issuer else { return .withinDates }
        for file in trustedFiles {
            for authority in (try? NIOSSLCertificate.fromPEMFile(file)) ?? [] where authority.names?.subject == issuer {
                if authority.validUntil < now { return .trustedAuthorityOutsideDates(file: file, expired: true, date: authority.validUntil) }
                if authority.validFrom > now { return .trustedAuthorityOutsideDates(file: file, expired: false, date: authority.validFrom) }
            }
        }
        return .withinDates
    }

    /// The certificates `endpoint` presents in a TLS handshake, its own first; nil when none came in time.
    private static func chain(of endpoint: (host: String, port: Int), through proxy: HTTPProxy?,
                              within timeout: TimeAmount) async -> [NIOSSLCertificate]? {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let received = loop.makePromise(of: [NIOSSLCertificate].self)
        // The promise is completed once: by the chain, by the timeout, or by a failed connection.
        let completed = Mutex(false)
        let complete = { (result: Result<[NIOSSLCertificate], any Error>) in
            if completed.withLock({ done in defer { done = true }; return !done }) { received.completeWith(result) }
        }
        let timer = loop.scheduleTask(in: timeout) { complete(.failure(ChannelError.connectTimeout(timeout))) }
        defer { timer.cancel() }
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, endpoint.host, &address) == 1 || inet_pton(AF_INET6, endpoint.host, &address) == 1
        // Takes the chain and fails the handshake.
        let addHandshake = { (channel: any Channel) throws in
            let handler = try NIOSSLClientHandler(context: NIOSSLContext(configuration: .makeClientConfiguration()),
                                                  serverHostname: isAddress ? nil : endpoint.host,
                                                  customVerificationCallback: { chain, verdict in
                complete(.success(chain))
                verdict.succeed(NIOSSLVerificationResult.failed)
            })
            try channel.pipeline.syncOperations.addHandler(handler)
        }
        do {
            let channel: any Channel
            if let proxy {
                guard let (tunnel, answer) = await ProxyTunnelProbe.tunnel(through: proxy, to: endpoint, within: timeout) else {
                    throw NoTunnel()
                }
                channel = tunnel
                guard answer.response.status.code / 100 == 2 else { channel.close(promise: nil); throw NoTunnel() }
                try await channel.eventLoop.submit { try addHandshake(channel) }.get()
            } else {
                channel = try await ClientBootstrap(group: loop)
                    .connectTimeout(timeout)
                    .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try addHandshake(channel) } }
                    .connect(host: endpoint.host, port: endpoint.port).get()
            }
            defer { channel.close(promise: nil) }
            return try await received.futureResult.get()
        } catch {
            complete(.failure(error))
            return nil
        }
    }

    /// The proxy did not grant the probe its tunnel.
    private struct NoTunnel: Error {}
}
