internal import Logging
internal import Synchronization

/// Which AsyncHTTPClient HTTP/1.1 connections have carried a request, so that a request failing on one that had
/// (a keep-alive connection the server closed as it was handed out again) can be told from one failing on a new
/// connection.
///
/// AsyncHTTPClient names the connection it writes a request on only in the `ahc-connection-id` metadata it sets
/// on the request's logger (connection ids are unique in the process). `logger(noting:)` makes a logger that
/// logs nothing and, when that metadata is set, notes whether the connection had carried a request before.
final class ConnectionReuseLog: Sendable {
    /// Ids of the connections that have carried a request, oldest (smallest) pruned past `capacity`.
    private let used = Mutex(Set<Int>())
    private static let capacity = 4096

    /// What one request learns about its connection.
    final class Use: Sendable {
        private let reused = Mutex(false)

        /// Whether the request was written on a connection that had carried an earlier request.
        var wasReused: Bool { reused.withLock { $0 } }

        fileprivate func note(reused: Bool) { self.reused.withLock { $0 = reused } }
    }

    /// A logger for one request that notes in `use` whether its connection was reused.
    func logger(noting use: Use) -> Logger {
        Logger(label: "runner.transport") { _ in Noting(log: self, use: use) }
    }

    /// Records that connection `id` carries a request; true when it had carried one before.
    private func noteRequest(on id: Int) -> Bool {
        used.withLock { used in
            guard used.insert(id).inserted else { return true }
            if used.count > Self.capacity { used = Set(used.sorted().suffix(Self.capacity / 2)) }
            return false
        }
    }

    /// Logs nothing and keeps no metadata; passes the connection id AsyncHTTPClient sets as metadata to the log.
    private struct Noting: LogHandler {
        let log: ConnectionReuseLog
        let use: Use
        var metadata: Logger.Metadata {
            get { [:] }
            set {}
        }
        var logLevel: Logger.Level {
            get { .critical }
            set {}
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { nil }
            set {
                if key == "ahc-connection-id", let id = newValue.flatMap({ Int($0.description) }) {
                    use.note(reused: log.noteRequest(on: id))
                }
            }
        }

        func log(event: LogEvent) {}
    }
}
