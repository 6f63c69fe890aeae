import Testing
import HTTPCore
import Loaders
import TestSupport

/// Servers that stall, drip, cut a body short or lie about its length, over http and https: each request ends
/// with a clear `HTTPError` within its timeout, and the next request through the same chain still succeeds.
@Suite(.serialized) struct FaultTests {
    /// Loads `path` with `timeout` and returns the error and how long it took to arrive.
    func fault(_ path: String, timeout: Duration, _ loader: any HTTPLoader) async throws -> (HTTPError, Duration) {
        let start = ContinuousClock.now
        let error = try #require(await failure(of: loader, request(path, options: HTTPRequestOptions(timeout: timeout))))
        return (error, start.duration(to: .now))
    }

    /// Whether `elapsed` ended near `limit`, not at a later timeout of its own (a stall would last until the test's
    /// end): a ceiling generous enough for a busy two-core machine.
    func withinLimit(_ elapsed: Duration, _ limit: Duration) -> Bool {
        elapsed <= limit * 2 + .seconds(1)
    }

    /// The chain still answers a plain request after a fault.
    func expectRecovery(_ loader: any HTTPLoader) async throws {
        #expect(try await loader.load(request("/echo")).status == .ok)
    }

    @Test(arguments: TestServerScheme.allCases)
    func aServerThatNeverAnswersTimesOut(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { _, loader in
            let (error, elapsed) = try await fault("/stall", timeout: .seconds(1), loader)
            #expect(error.code == .timedOut)
            #expect(error.message.contains("/stall") && error.message.contains("within 1s"))
            #expect(elapsed >= .seconds(1) && withinLimit(elapsed, .seconds(1)))
            try await expectRecovery(loader)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aServerThatDripsTimesOutDuringTheBody(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { _, loader in
            let (error, elapsed) = try await fault("/drip?bytes=30&interval_ms=1000", timeout: .milliseconds(2500), loader)
            #expect(error.code == .timedOut)
            #expect(error.message.contains("/drip") && error.message.contains("within 2.5s"))
            // The response that began shows its status, headers and the bytes that came (trial helper-188 F3).
            #expect(error.response?.status == .ok && error.response?.headers["Content-Length"] == "30", "\(error)")
            #expect((1...4).contains(error.response?.body.count ?? 0), "\(String(describing: error.response?.body.count))")
            #expect(elapsed >= .milliseconds(2500) && withinLimit(elapsed, .milliseconds(2500)))
            try await expectRecovery(loader)
        }
    }

    /// A status below 100 (`099`, `000`), which the client would take for an informational one and trap on, is an
    /// invalid response.
    @Test(arguments: TestServerScheme.allCases, ["099", "000", "050"])
    func aStatusBelow100IsAnInvalidResponse(_ scheme: TestServerScheme, code: String) async throws {
        try await withStandardChain(over: scheme) { server, loader in
            let (error, elapsed) = try await fault("/raw-status/\(code)", timeout: .seconds(5), loader)
            #expect(error.code == .invalidResponse)
            #expect(error.message.contains("its status \(code) is not an HTTP status (those are 100 to 999)"), "\(error.message)")
            #expect(withinLimit(elapsed, .seconds(1)))
            #expect(server.count(of: "/raw-status/\(code)") == 1)
            try await expectRecovery(loader)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aServerThatClosesMidBodyIsAConnectionFailure(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { server, loader in
            let (error, elapsed) = try await fault("/close-mid-body", timeout: .seconds(2), loader)
            #expect(error.code == .cannotConnect)
            #expect(error.message.contains("/close-mid-body"))
            #expect(error.message.contains("closed before the response"))
            #expect(withinLimit(elapsed, .seconds(2)))
            #expect(error.response?.status == .ok && error.response?.headers["Content-Length"] == "1000", "\(error)")
            #expect(error.response.map { String(decoding: $0.body, as: UTF8.self) } == String(repeating: "x", count: 10))
            #expect(server.count(of: "/close-mid-body") == 1)
            // A retry on `connection` sends it again, once per attempt.
            let retry = HTTPRequestOptions(retry: RetryStrategy(attempts: 3, delay: .milliseconds(10), retryOn: [.connection]))
            let retried = await failure(of: loader, request("/close-mid-body", options: retry))
            #expect(retried?.code == .cannotConnect && retried?.attempts == 3 && retried?.response?.status == .ok)
            #expect(server.count(of: "/close-mid-body") == 4)
            try await expectRecovery(loader)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aShortBodyBehindALongerContentLengthTimesOut(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { _, loader in
            let (error, elapsed) = try await fault("/wrong-length", timeout: .seconds(1), loader)
            #expect(error.code == .timedOut)
            #expect(error.message.contains("/wrong-length") && error.message.contains("within 1s"))
            #expect(error.response?.status == .ok && error.response?.body.count == 10, "\(error)")
            #expect(elapsed >= .seconds(1) && withinLimit(elapsed, .seconds(1)))
            try await expectRecovery(loader)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func bytesBeyondTheContentLengthDoNotLeakIntoTheNextResponse(_ scheme: TestServerScheme) async throws {
        try await withStandardChain(over: scheme) { _, loader in
            let options = HTTPRequestOptions(timeout: .seconds(2))
            for _ in 0..<10 {
                let response = try await loader.load(request("/overlong-body", options: options))
                #expect(response.status == .ok)
                #expect(String(decoding: response.body, as: UTF8.self) == "0123456789")
                let next = try await loader.load(request("/echo", options: options))
                #expect(next.status == .ok)
                #expect(next.body.first == UInt8(ascii: "{"))
            }
        }
    }
}
