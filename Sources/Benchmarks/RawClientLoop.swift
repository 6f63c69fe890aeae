import AsyncHTTPClient
import Foundation

/// What the runner is compared with: the same GETs sent by a bare AsyncHTTPClient loop,
/// with no YAML, no templating and no checks, reading each whole body.
enum RawClientLoop {
    /// Sends `count` GETs of `url` with `concurrency` workers on a fresh client; returns the seconds taken
    /// and the CPU seconds this process used meanwhile (nothing else runs in it during the loop). An https
    /// server's certificate is not verified (as the runner's `insecure: true`): the benchmark's is self-signed.
    static func run(url: String, count: Int, concurrency: Int) async throws -> (seconds: Double, cpuSeconds: Double) {
        let configuration = url.hasPrefix("https:") ? HTTPClient.Configuration(certificateVerification: .none) : HTTPClient.Configuration()
        return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            let startUsage = rusage.ofThisProcess()
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<concurrency {
                    let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
                    group.addTask {
                        for _ in 0..<share { try await fetch(url, with: client) }
                    }
                }
                try await group.waitForAll()
            }
            let elapsed = start.duration(to: .now)
            return (elapsed.inSeconds, rusage.ofThisProcess().cpuSeconds - startUsage.cpuSeconds)
        }
    }

    /// One GET whose body is read to the end; a status other than 200 is an error.
    private static func fetch(_ url: String, with client: HTTPClient) async throws {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw BenchmarkError(description: "raw GET \(url) answered \(response.status)") }
    }
}
