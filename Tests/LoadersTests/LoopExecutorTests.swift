import Testing
import HTTPCore
@testable import Loaders
import NIOCore
import NIOPosix
import TestSupport

/// Tasks on the cleartext client's event loops: they stay on their loop across requests, and the pool hands
/// them connections on that loop, so a response resumes its task on the thread that read it.
@Suite(.serialized) struct LoopExecutorTests {
    /// The event loop the calling task runs on, if it runs on one.
    static func currentLoop() -> ObjectIdentifier? {
        MultiThreadedEventLoopGroup.currentEventLoop.map { ObjectIdentifier($0) }
    }

    @available(macOS 15, *)
    @Test func workersAreSpreadOverTheLoopsAndStayOnTheirsAcrossRequests() async throws {
        let server = try await TestServer.start()
        let workers = 4
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator()).count
        let seen = try await HTTPClientTransport.withTransport { transport in
            try await withThrowingTaskGroup(of: ObjectIdentifier?.self) { group in
                for executor in transport.workerExecutors(workers) {
                    group.addTask(executorPreference: executor) {
                        let loop = Self.currentLoop()
                        for _ in 0..<5 {
                            let response = try await transport.load(HTTPRequest(url: server.url("/echo"))!)
                            guard response.status == .ok, Self.currentLoop() == loop else { return nil }
                        }
                        return loop
                    }
                }
                return try await group.reduce(into: [ObjectIdentifier?]()) { $0.append($1) }
            }
        }
        try await server.stop()
        #expect(seen.count == workers)
        #expect(seen.allSatisfy { $0 != nil }, "a worker ran off its loop, or a request failed")
        #expect(Set(seen.compactMap { $0 }).count == min(workers, loops))
        #expect(server.count(of: "/echo") == workers * 5)
    }

    @available(macOS 15, *)
    @Test func aLeaseTakesAnIdleConnectionOnTheCallersLoopFirst() async throws {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        guard loops.count >= 2 else {
            print("skipped: the event loop group has one loop on this machine")
            return
        }
        let executors = loops.prefix(2).map { LoopExecutor(loop: $0) }
        let server = try await TestServer.start()
        let pool = HTTP1ConnectionPool(decompressionRatio: 100, maxConnectionsPerHost: 4)
        let endpoint = HTTP1ConnectionPool.Endpoint(host: server.host, port: server.port)
        /// Leases a connection from a task on `executor`; whether it is on that task's loop, and whether it was reused.
        func lease(on executor: LoopExecutor) async throws -> (lease: HTTP1ConnectionPool.Lease, onOwnLoop: Bool) {
            try await Task(executorPreference: executor) {
                let lease = try await pool.lease(endpoint, deadline: nil, cancellation: ExchangeCancellation())
                return (lease, lease.channel.eventLoop.inEventLoop)
            }.value
        }
        let first = try await lease(on: executors[0]), second = try await lease(on: executors[1])
        #expect(first.onOwnLoop && second.onOwnLoop)
        // Released first-leased first: the idle list ends with the second loop's connection.
        pool.release(first.lease, reusable: true)
        pool.release(second.lease, reusable: true)
        let again = try await lease(on: executors[0])
        #expect(again.lease.reused)
        #expect(again.onOwnLoop)
        #expect(again.lease.channel === first.lease.channel)
        pool.release(again.lease, reusable: true)
        await pool.shutdown()
        try await server.stop()
        #expect(server.connectionsAccepted == 2)
    }
}
