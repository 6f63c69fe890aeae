public import NIOCore
internal import NIOHTTP1

extension LoopbackServer {
    /// Makes a prepared connection carry HTTP/1 messages (itself, or one channel per HTTP/2 stream) and passes
    /// each such channel to `handleRequests`, which adds the server's request handling to it.
    public typealias ProtocolSetup = @Sendable (
        _ connection: any Channel, _ handleRequests: @escaping @Sendable (any Channel) throws -> Void
    ) -> EventLoopFuture<Void>

    /// HTTP/1.1 on the connection itself, malformed requests answered with 400.
    public static let http1: ProtocolSetup = { connection, handleRequests in
        connection.eventLoop.makeCompletedFuture {
            try connection.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try handleRequests(connection)
        }
    }
}
