internal import NIOConcurrencyHelpers
internal import NIOCore

/// The open connections of a server, so that stopping it can close every one of them.
final class ConnectionRegistry: Sendable {
    /// Open channels by identity, and whether the server is shutting down.
    private struct Storage {
        var open: [ObjectIdentifier: any Channel] = [:]
        var isClosed = false
        var acceptedCount = 0
    }

    private let storage = NIOLockedValueBox(Storage())

    /// Tracks a newly accepted connection until it closes; closes it at once if the server is stopping.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let accepted = storage.withLockedValue { storage in
            if storage.isClosed { return false }
            storage.acceptedCount += 1
            storage.open[id] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [storage] _ in
            _ = storage.withLockedValue { $0.open.removeValue(forKey: id) }
        }
    }

    /// How many connections were accepted since the server started.
    var acceptedCount: Int {
        storage.withLockedValue { $0.acceptedCount }
    }

    /// How many accepted connections are open now.
    var openCount: Int {
        storage.withLockedValue { $0.open.count }
    }

    /// Refuses new connections and returns the ones still open, for the caller to close.
    func closeRegistry() -> [any Channel] {
        storage.withLockedValue { storage in
            storage.isClosed = true
            return Array(storage.open.values)
        }
    }
}
