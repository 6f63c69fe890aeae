import Dispatch
import Foundation
import Synchronization

/// What sharding gives and costs: a collection run as 4 parts started at once beside the same run unsharded, and the
/// time planning the parts adds for 10,000 files chained by captures.
enum ShardBenchmark {
    /// How many parts the parallel run has.
    static let parts = 4

    /// The rows: wall time of the unsharded run and of `parts` processes at once (each `--shard I/parts`), and the
    /// planning cost at `planningCount` files; medians over `rounds`.
    static func rows(tool: RunnerTool, collection: String, requests: Int, server: LocalServer, generator: CollectionGenerator,
                     planningCount: Int, rounds: Int) throws -> [ResultRow] {
        var whole: [Double] = [], sharded: [Double] = []
        for _ in 0..<rounds {
            whole.append(try tool.run(collection, port: server.port, scheme: server.scheme, jobs: 1).seconds)
            sharded.append(try shardedRun(tool: tool, collection: collection, server: server))
        }
        let chain = try generator.chainedCollection(named: "chain", count: planningCount)
        var plain: [Double] = [], planned: [Double] = []
        for _ in 0..<rounds {
            plain.append(try tool.run(chain, port: 1, jobs: 1).seconds)
            planned.append(try tool.run(chain, port: 1, jobs: 1, extra: ["--shard", "1/1"]).seconds)
        }
        let planning = zip(planned, plain).map { $0 - $1 }.median
        return [
            ResultRow(measure: "\(requests) requests unsharded, \(server.name)", unit: "s", runner: Figure.decimal(whole.median)),
            ResultRow(measure: "the same as \(parts) parts at once (\(parts) processes)", unit: "s",
                      runner: Figure.decimal(sharded.median), ratio: "unsharded/parts \(Figure.decimal(whole.median / sharded.median))"),
            ResultRow(measure: "planning parts of \(planningCount) files chained by captures", unit: "ms",
                      runner: Figure.decimal(planning * 1000, places: 0),
                      ratio: "of \(Figure.decimal(plain.median)) s to read and skip them"),
        ]
    }

    /// The wall time of `parts` runs of `collection` started at once, each its own part.
    private static func shardedRun(tool: RunnerTool, collection: String, server: LocalServer) throws -> Double {
        let failure = Mutex<BenchmarkError?>(nil)
        let (port, scheme) = (server.port, server.scheme)
        let start = DispatchTime.now()
        DispatchQueue.concurrentPerform(iterations: parts) { index in
            do {
                _ = try tool.run(collection, port: port, scheme: scheme, jobs: 1, extra: ["--shard", "\(index + 1)/\(parts)"])
            } catch {
                failure.withLock { $0 = BenchmarkError(description: "\(error)") }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

extension CollectionGenerator {
    /// Writes `count` skipped request files into `root/name`, each reading the variable the one before it captures (the
    /// longest chain of captures: one component), and returns its path.
    func chainedCollection(named name: String, count: Int) throws -> String {
        let directory = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let width = String(count - 1).count
        for index in 0..<count {
            let number = String(repeating: "0", count: width - String(index).count) + String(index)
            let reads = index == 0 ? "" : "  headers: { X-Previous: \"{{ link }}\" }\n"
            try Self.write("skip: planned only\nrequest:\n  url: /chain/\(number)\n\(reads)capture:\n  link: $.id\n",
                           to: directory.appendingPathComponent("request-\(number).yaml").path)
        }
        return directory.path
    }
}
