import ArgumentParser
import Foundation
import SelfSignedCertificate

/// `runner-bench`: measures the release `runner` beside a raw AsyncHTTPClient loop and curl in one run (over http
/// and https, against the demo API and nginx) and prints a table of figures and ratios, with PASS/MISS against the
/// targets.
@main
struct RunnerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runner-bench",
        abstract: "Measure runner's throughput, parsing, start-up and memory beside a raw HTTP client loop.",
        discussion: "Build first with `swift build -c release --static-swift-stdlib` (as `make bench` does); run from the package directory (or pass the paths).")

    @Option(help: "Request files in the throughput and parsing collections (memory is also measured at a tenth of it).")
    var count = 10_000

    @Option(help: "Rounds of interleaved raw/runner measurements; figures are medians over them.")
    var rounds = 3

    @Option(help: "Concurrency of the parallel runs (runner --jobs and raw workers).")
    var jobs = 8

    @Option(help: "The runner executable to measure.")
    var runner = ".build/release/runner"

    @Option(help: "Another runner executable (say, a build of the previous commit) measured in the same rounds, interleaved; a second table compares the two.")
    var baseline: String?

    @Option(name: .customLong("demo-api"), help: "The demo API executable to start as a server.")
    var demoAPI = ".build/release/demo-api"

    @Flag(help: "Measure only `runner import openapi` on a generated document of 500 operations (median of --rounds runs; no server).")
    var importOnly = false

    @Flag(help: "Do not start nginx even when it is installed.")
    var noNginx = false

    @Flag(help: "Do not measure curl even when it is installed.")
    var noCurl = false

    @Flag(help: "Measure only what writing every report costs (against nginx, or the demo API without it).")
    var reportsOnly = false

    @Flag(help: "Measure only sharding: 2,000 requests as 4 parts at once beside the unsharded run, and planning parts of --count files chained by captures.")
    var shardsOnly = false

    func validate() throws {
        guard count >= 10, rounds >= 1, jobs >= 2 else {
            throw ValidationError("--count must be at least 10, --rounds at least 1 and --jobs at least 2")
        }
        guard FileManager.default.isExecutableFile(atPath: runner) else {
            throw ValidationError("no runner executable at \(runner); build it with `swift build -c release --static-swift-stdlib`")
        }
        if let baseline, !FileManager.default.isExecutableFile(atPath: baseline) {
            throw ValidationError("no baseline executable at \(baseline)")
        }
    }

    func run() async throws {
        if importOnly { return try measureImportOnly() }
        let generator = try CollectionGenerator.makeTemporary()
        defer { generator.remove() }
        progress("generating \(count) + \(count / 10) + 1 request files in \(generator.root.path)")
        let collections = BenchmarkSuite.Collections(
            large: try generator.collection(named: "large", count: count),
            small: try generator.collection(named: "small", count: count / 10),
            single: try generator.collection(named: "single", count: 1))

        let servers = startServers(tlsFolder: generator.root)
        defer { servers.forEach { $0.stop() } }
        let signalHandlers = Self.stoppingOnSignals(processes: servers.map(\.leftovers.process),
                                                    directories: [generator.root] + servers.compactMap(\.leftovers.directory))
        defer { signalHandlers.forEach { $0.cancel() } }
        let environments = generator.root.appendingPathComponent("environments").path
        var suite = BenchmarkSuite(
            tool: RunnerTool(executable: runner, environments: environments),
            baseline: baseline.map { RunnerTool(executable: $0, environments: environments) },
            curl: noCurl ? nil : CurlTool.find(scratch: generator.root),
            collections: collections, count: count, rounds: rounds, jobs: jobs)

        let loadBefore = loadAverage()
        var rows: [ResultRow] = []
        if shardsOnly, let server = servers.first(where: { $0.name == "nginx" }) ?? servers.first {
            let collection = try generator.collection(named: "shards", count: 2_000)
            rows = try ShardBenchmark.rows(tool: suite.tool, collection: collection, requests: 2_000, server: server,
                                           generator: generator, planningCount: count, rounds: rounds)
            print(ResultTable.render(rows))
            return
        }
        for server in servers where !reportsOnly {
            rows += try await suite.throughput(against: server, measuringMemory: server === servers.first)
        }
        if let server = servers.first(where: { $0.name == "nginx" }) ?? servers.first {
            rows += try suite.reportCost(against: server, scratch: generator.root)
        }
        if !reportsOnly {
            rows += try suite.parsing()
            rows += suite.parsingEstimateRows()
            rows += try suite.startUp(against: servers.first)
            rows += suite.memoryRows()
        }

        print("runner-bench: \(runner), N = \(Figure.whole(Double(count))), \(rounds) rounds (medians; ratios are medians of per-round ratios, range in brackets)")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadBefore) before, \(loadAverage()) after")
        print("")
        print(ResultTable.render(rows))
        if let baseline {
            print("\nthe runner beside the baseline \(baseline), measured in the same rounds (ratios: runner/baseline)\n")
            print(ResultTable.render(suite.baselineRows, against: "baseline"))
        }
        if servers.isEmpty { print("\nno server could be started: throughput and memory were not measured") }
    }

    /// On SIGINT or SIGTERM, stops the servers and removes the generated files before exiting with the
    /// shell's status for the signal: an interrupted benchmark leaves no server running.
    private static func stoppingOnSignals(processes: [pid_t], directories: [URL]) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                for process in processes { kill(process, SIGTERM) }
                for directory in directories { try? FileManager.default.removeItem(at: directory) }
                ChildProcess.removeErrorLogs()
                Foundation.exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// The demo API and nginx, each over http and over https (with a self-signed certificate generated now, its
    /// files written into `tlsFolder`), each when available; a message for each one skipped.
    private func startServers(tlsFolder: URL) -> [LocalServer] {
        var tls: (certificate: String, privateKey: String)?
        do { tls = try SelfSignedIdentity.generate().write(into: tlsFolder) } catch { progress("skipping https: \(error)") }
        var servers: [LocalServer] = []
        if FileManager.default.isExecutableFile(atPath: demoAPI) {
            for files in [nil] + (tls.map { [$0] } ?? []) {
                do { servers.append(try LocalServer.demoAPI(executable: demoAPI, tls: files)) } catch {
                    progress("skipping the demo API\(files == nil ? "" : " over https"): \(error)")
                }
            }
        } else {
            progress("skipping the demo API: no executable at \(demoAPI) (swift build -c release --static-swift-stdlib builds it)")
        }
        if noNginx {
            progress("skipping nginx: --no-nginx")
            return servers
        }
        for files in [nil] + (tls.map { [$0] } ?? []) {
            do {
                guard let nginx = try LocalServer.nginx(tls: files) else {
                    progress("skipping nginx: not installed (apt-get install nginx-light)")
                    break
                }
                servers.append(nginx)
            } catch {
                progress("skipping nginx\(files == nil ? "" : " over https"): \(error)")
            }
        }
        return servers
    }

    /// The 1-minute load average, formatted.
    private func loadAverage() -> String {
        var loads = [0.0, 0.0, 0.0]
        return getloadavg(&loads, 3) > 0 ? Figure.decimal(loads[0]) : "unknown"
    }
}

/// A line of progress on standard error, so that standard output holds only the results.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("runner-bench: \(message)\n".utf8))
}
