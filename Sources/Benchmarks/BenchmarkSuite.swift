/// The four measurements of issue 6 and the rows they print; memory peaks are gathered during the
/// throughput rounds of the first server. Throughput is measured against each server, http or https.
struct BenchmarkSuite {
    /// The generated collections: N files, N/10 files and one file.
    struct Collections: Sendable {
        var large: String
        var small: String
        var single: String
    }

    /// One round's pair of throughputs, measured one right after the other.
    private struct RoundSample {
        var runnerRate: Double
        var rawRate: Double
        /// CPU seconds per request (all threads; the runner's from `wait4`, the raw loop's from `getrusage`).
        var runnerCPU: Double
        var rawCPU: Double
    }

    /// Peak resident bytes of the runs at N/10 and at N files.
    private struct MemoryPeaks {
        var small: [Int] = []
        var large: [Int] = []
    }

    let tool: RunnerTool
    let collections: Collections
    let count: Int
    let rounds: Int
    let jobs: Int
    private var peaks: [Int: MemoryPeaks] = [:]
    /// Median seconds of the raw loop for N requests, by server name and concurrency, in measuring order.
    private var rawSeconds: [(server: String, concurrency: Int, seconds: Double)] = []
    /// Median seconds of `runner validate` on N files.
    private var validateSeconds: Double?

    private static let startUpRepeats = 5
    private static let validateTarget = 20_000.0
    private static let memoryLimit = 100_000_000

    init(tool: RunnerTool, collections: Collections, count: Int, rounds: Int, jobs: Int) {
        self.tool = tool
        self.collections = collections
        self.count = count
        self.rounds = rounds
        self.jobs = jobs
    }

    /// Throughput of `runner run` and of the raw loop, sequential and with `jobs`, interleaved round by round.
    mutating func throughput(against server: LocalServer, measuringMemory: Bool) async throws -> [ResultRow] {
        progress("warming up \(server.name) on port \(server.port)")
        _ = try await RawClientLoop.run(url: server.healthURL, count: 500, concurrency: jobs)
        var samples: [Int: [RoundSample]] = [:]
        for round in 1...rounds {
            for concurrency in [1, jobs] {
                progress("round \(round)/\(rounds): \(server.name), \(mode(concurrency))")
                var raw = (seconds: 0.0, cpuSeconds: 0.0)
                var measured: ChildMeasurement?
                // Alternate which goes first, so neither always meets a cold or a warm server.
                for runnerFirst in round % 2 == 0 ? [true, false] : [false, true] {
                    if runnerFirst {
                        measured = try tool.run(collections.large, port: server.port, scheme: server.scheme, jobs: concurrency)
                    } else {
                        raw = try await RawClientLoop.run(url: server.healthURL, count: count, concurrency: concurrency)
                    }
                }
                guard let measured else { continue }
                samples[concurrency, default: []].append(
                    RoundSample(runnerRate: Double(count) / measured.seconds, rawRate: Double(count) / raw.seconds,
                                runnerCPU: measured.cpuSeconds / Double(count), rawCPU: raw.cpuSeconds / Double(count)))
                if measuringMemory {
                    let small = try tool.run(collections.small, port: server.port, scheme: server.scheme, jobs: concurrency)
                    peaks[concurrency, default: MemoryPeaks()].large.append(measured.peakResidentBytes)
                    peaks[concurrency, default: MemoryPeaks()].small.append(small.peakResidentBytes)
                }
            }
        }
        return [1, jobs].flatMap { concurrency in
            let taken = samples[concurrency] ?? []
            rawSeconds.append((server.name, concurrency, Double(count) / taken.map(\.rawRate).median))
            let ratios = taken.map { $0.runnerRate / $0.rawRate }
            // The targets are for http; over https the ratio is printed without one.
            let target: Double? = server.scheme == "https" ? nil : concurrency == 1 ? 0.8 : 0.7
            let ratio = ratios.median
            let runnerCPU = taken.map(\.runnerCPU).median, rawCPU = taken.map(\.rawCPU).median
            return [
                ResultRow(
                    measure: "throughput, \(server.name), \(mode(concurrency))", unit: "req/s",
                    runner: Figure.whole(taken.map(\.runnerRate).median), raw: Figure.whole(taken.map(\.rawRate).median),
                    ratio: "\(Figure.decimal(ratio)) (\(Figure.decimal(ratios.min() ?? 0))-\(Figure.decimal(ratios.max() ?? 0)))",
                    target: target.map { "runner/raw >= \(Figure.decimal($0))" } ?? "", verdict: target.map { Verdict(ratio >= $0) }),
                ResultRow(
                    measure: "CPU per request, \(server.name), \(mode(concurrency))", unit: "us",
                    runner: Figure.whole(runnerCPU * 1e6), raw: Figure.whole(rawCPU * 1e6),
                    ratio: "x\(Figure.decimal(runnerCPU / rawCPU))"),
            ]
        }
    }

    /// Files per second of `runner validate` on the large collection.
    mutating func parsing() throws -> [ResultRow] {
        let seconds = try (1...rounds).map { round in
            progress("round \(round)/\(rounds): validate")
            return try tool.validate(collections.large).seconds
        }
        validateSeconds = seconds.median
        let rate = Double(count) / seconds.median
        return [ResultRow(
            measure: "validate, \(Figure.whole(Double(count))) files", unit: "files/s", runner: Figure.whole(rate),
            target: ">= \(Figure.whole(Self.validateTarget)) files/s", verdict: Verdict(rate >= Self.validateTarget))]
    }

    /// The runner/raw a run would reach if it sent like the raw loop and checking the files first (what
    /// `validate` costs) were its only other work: raw / (raw + validate), for each throughput row. An
    /// estimate, not a bound: the runner's own HTTP/1.1 client costs less than AsyncHTTPClient's.
    func parsingEstimateRows() -> [ResultRow] {
        guard let validateSeconds else { return [] }
        return rawSeconds.map { raw in
            ResultRow(measure: "raw/(raw + validate), \(raw.server), \(mode(raw.concurrency))", unit: "",
                      runner: "", ratio: Figure.decimal(raw.seconds / (raw.seconds + validateSeconds)))
        }
    }

    /// Wall time of `runner --version` and of a one-request run against `server`.
    func startUp(against server: LocalServer?) throws -> [ResultRow] {
        progress("start-up")
        let version = try (0..<Self.startUpRepeats).map { _ in try tool.version().seconds }
        var rows = [ResultRow(measure: "start-up, runner --version", unit: "ms", runner: Figure.decimal(version.median * 1_000, places: 1))]
        if let server {
            let single = try (0..<Self.startUpRepeats).map { _ in
                try tool.run(collections.single, port: server.port, jobs: 1).seconds
            }
            rows.append(ResultRow(measure: "start-up, one-request run (\(server.name))", unit: "ms",
                                  runner: Figure.decimal(single.median * 1_000, places: 1)))
        }
        return rows
    }

    /// Peak resident memory at N/10 and N files, for each concurrency measured, with its growth per file between
    /// them (a run keeps every file it checked); the target is an absolute bound at N.
    func memoryRows() -> [ResultRow] {
        [1, jobs].flatMap { concurrency -> [ResultRow] in
            guard let peak = peaks[concurrency], let small = peak.small.max(), let large = peak.large.max() else { return [] }
            let perFile = Double(large - small) / Double(max(1, count - count / 10))
            return [
                ResultRow(measure: "peak memory, N = \(Figure.whole(Double(count / 10))), \(mode(concurrency))",
                          unit: "MB", runner: Figure.megabytes(small)),
                ResultRow(measure: "peak memory, N = \(Figure.whole(Double(count))), \(mode(concurrency))",
                          unit: "MB", runner: Figure.megabytes(large),
                          ratio: "+\(Figure.decimal(perFile / 1_000, places: 1)) KB per file",
                          target: "< 100 MB", verdict: Verdict(large < Self.memoryLimit)),
            ]
        }
    }

    private func mode(_ concurrency: Int) -> String {
        concurrency == 1 ? "sequential" : "--jobs \(concurrency)"
    }
}
