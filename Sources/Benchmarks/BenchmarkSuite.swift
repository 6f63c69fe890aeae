import Foundation

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
        /// The baseline runner's rate and CPU seconds per request, when there is one.
        var baselineRate: Double?
        var baselineCPU: Double?
        /// curl's rate, when it is measured.
        var curlRate: Double?
    }

    /// Peak resident bytes of the runs at N/10 and at N files.
    private struct MemoryPeaks {
        var small: [Int] = []
        var large: [Int] = []
        /// The baseline runner's at N files.
        var baseline: [Int] = []
    }

    /// What a round measures, in turn.
    private enum Contender {
        case raw, runner, baseline, curl
    }

    let tool: RunnerTool
    /// Another runner measured in the same rounds, for `baselineRows`.
    let baseline: RunnerTool?
    /// curl sending the same requests, for the runner/curl rows.
    let curl: CurlTool?
    let collections: Collections
    let count: Int
    let rounds: Int
    let jobs: Int
    private var peaks: [Int: MemoryPeaks] = [:]
    /// Median seconds of the raw loop for N requests, by server name and concurrency, in measuring order.
    private var rawSeconds: [(server: String, concurrency: Int, seconds: Double)] = []
    /// Median seconds of `runner validate` on N files.
    private var validateSeconds: Double?
    /// The runner beside the baseline, measured so far: throughput, CPU per request and validate, runner/baseline.
    private var baselineMeasured: [ResultRow] = []

    private static let startUpRepeats = 5
    private static let validateTarget = 20_000.0
    private static let memoryLimit = 100_000_000

    init(tool: RunnerTool, baseline: RunnerTool? = nil, curl: CurlTool? = nil, collections: Collections, count: Int, rounds: Int,
         jobs: Int) {
        self.tool = tool
        self.baseline = baseline
        self.curl = curl
        self.collections = collections
        self.count = count
        self.rounds = rounds
        self.jobs = jobs
    }

    /// Throughput of `runner run`, of the raw loop and of curl, sequential and with `jobs`, interleaved round by round.
    mutating func throughput(against server: LocalServer, measuringMemory: Bool) async throws -> [ResultRow] {
        progress("warming up \(server.name) on port \(server.port)")
        _ = try await RawClientLoop.run(url: server.healthURL, count: 500, concurrency: jobs)
        var samples: [Int: [RoundSample]] = [:]
        for round in 1...rounds {
            for concurrency in [1, jobs] {
                progress("round \(round)/\(rounds): \(server.name), \(mode(concurrency))")
                var raw = (seconds: 0.0, cpuSeconds: 0.0)
                var measured: ChildMeasurement?
                var measuredBaseline: ChildMeasurement?
                var measuredCurl: ChildMeasurement?
                // Rotate which goes first, so none always meets a cold or a warm server.
                var order: [Contender] = [.raw, .runner] + (baseline == nil ? [] : [.baseline]) + (curl == nil ? [] : [.curl])
                order = Array(order[(round % order.count)...] + order[..<(round % order.count)])
                for contender in order {
                    switch contender {
                    case .runner:
                        measured = try tool.run(collections.large, port: server.port, scheme: server.scheme, jobs: concurrency)
                    case .baseline:
                        measuredBaseline = try baseline?.run(collections.large, port: server.port, scheme: server.scheme, jobs: concurrency)
                    case .raw:
                        raw = try await RawClientLoop.run(url: server.healthURL, count: count, concurrency: concurrency)
                    case .curl:
                        measuredCurl = try curl?.run(url: server.healthURL, count: count, jobs: concurrency)
                    }
                }
                guard let measured else { continue }
                samples[concurrency, default: []].append(
                    RoundSample(runnerRate: Double(count) / measured.seconds, rawRate: Double(count) / raw.seconds,
                                runnerCPU: measured.cpuSeconds / Double(count), rawCPU: raw.cpuSeconds / Double(count),
                                baselineRate: measuredBaseline.map { Double(count) / $0.seconds },
                                baselineCPU: measuredBaseline.map { $0.cpuSeconds / Double(count) },
                                curlRate: measuredCurl.map { Double(count) / $0.seconds }))
                if measuringMemory {
                    let small = try tool.run(collections.small, port: server.port, scheme: server.scheme, jobs: concurrency)
                    peaks[concurrency, default: MemoryPeaks()].large.append(measured.peakResidentBytes)
                    peaks[concurrency, default: MemoryPeaks()].small.append(small.peakResidentBytes)
                    if let measuredBaseline {
                        peaks[concurrency, default: MemoryPeaks()].baseline.append(measuredBaseline.peakResidentBytes)
                    }
                }
            }
        }
        baselineMeasured += [1, jobs].flatMap { concurrency in comparisonRows(samples[concurrency] ?? [], server: server, concurrency: concurrency) }
        return [1, jobs].flatMap { concurrency in
            let taken = samples[concurrency] ?? []
            rawSeconds.append((server.name, concurrency, Double(count) / taken.map(\.rawRate).median))
            let ratios = taken.map { $0.runnerRate / $0.rawRate }
            // The targets are for http; over https the ratio is printed without one.
            let target: Double? = server.scheme == "https" ? nil : concurrency == 1 ? 0.8 : 0.7
            let ratio = ratios.median
            let runnerCPU = taken.map(\.runnerCPU).median, rawCPU = taken.map(\.rawCPU).median
            let curlRatios = taken.compactMap { sample in sample.curlRate.map { sample.runnerRate / $0 } }
            let curlRows = curlRatios.isEmpty ? [] : [ResultRow(
                measure: "throughput beside curl, \(server.name), \(mode(concurrency))", unit: "req/s",
                runner: Figure.whole(taken.map(\.runnerRate).median), raw: Figure.whole(taken.compactMap(\.curlRate).median),
                ratio: Self.medianAndRange(curlRatios), target: "runner/curl >= 0.5", verdict: Verdict(curlRatios.median >= 0.5))]
            return curlRows + [
                ResultRow(
                    measure: "throughput, \(server.name), \(mode(concurrency))", unit: "req/s",
                    runner: Figure.whole(taken.map(\.runnerRate).median), raw: Figure.whole(taken.map(\.rawRate).median),
                    ratio: Self.medianAndRange(ratios),
                    target: target.map { "runner/raw >= \(Figure.decimal($0))" } ?? "", verdict: target.map { Verdict(ratio >= $0) }),
                ResultRow(
                    measure: "CPU per request, \(server.name), \(mode(concurrency))", unit: "us",
                    runner: Figure.whole(runnerCPU * 1e6), raw: Figure.whole(rawCPU * 1e6),
                    ratio: "x\(Figure.decimal(runnerCPU / rawCPU))"),
            ]
        }
    }

    /// Files per second of `runner validate` on the large collection (and of the baseline's, interleaved).
    mutating func parsing() throws -> [ResultRow] {
        var seconds: [Double] = [], baselineSeconds: [Double] = []
        for round in 1...rounds {
            progress("round \(round)/\(rounds): validate")
            seconds.append(try tool.validate(collections.large).seconds)
            if let baseline { baselineSeconds.append(try baseline.validate(collections.large).seconds) }
        }
        validateSeconds = seconds.median
        let rate = Double(count) / seconds.median
        if !baselineSeconds.isEmpty {
            let ratios = zip(seconds, baselineSeconds).map { $1 / $0 }
            baselineMeasured.append(ResultRow(
                measure: "validate, \(Figure.whole(Double(count))) files", unit: "files/s", runner: Figure.whole(rate),
                raw: Figure.whole(Double(count) / baselineSeconds.median), ratio: Self.medianAndRange(ratios)))
        }
        return [ResultRow(
            measure: "validate, \(Figure.whole(Double(count))) files", unit: "files/s", runner: Figure.whole(rate),
            target: ">= \(Figure.whole(Self.validateTarget)) files/s", verdict: Verdict(rate >= Self.validateTarget))]
    }

    /// Throughput and CPU per request of the runner beside the baseline's, from the rounds of one server and mode.
    private func comparisonRows(_ taken: [RoundSample], server: LocalServer, concurrency: Int) -> [ResultRow] {
        let pairs = taken.compactMap { sample in
            sample.baselineRate.map { (sample, baselineRate: $0, baselineCPU: sample.baselineCPU ?? 0) }
        }
        guard !pairs.isEmpty else { return [] }
        let runnerCPU = pairs.map(\.0.runnerCPU).median, baselineCPU = pairs.map(\.baselineCPU).median
        return [
            ResultRow(measure: "throughput, \(server.name), \(mode(concurrency))", unit: "req/s",
                      runner: Figure.whole(pairs.map(\.0.runnerRate).median), raw: Figure.whole(pairs.map(\.baselineRate).median),
                      ratio: Self.medianAndRange(pairs.map { $0.0.runnerRate / $0.baselineRate })),
            ResultRow(measure: "CPU per request, \(server.name), \(mode(concurrency))", unit: "us",
                      runner: Figure.whole(runnerCPU * 1e6), raw: Figure.whole(baselineCPU * 1e6),
                      ratio: "x\(Figure.decimal(runnerCPU / baselineCPU))"),
        ]
    }

    /// "0.93 (0.90-0.97)": the median of `ratios` and their range.
    private static func medianAndRange(_ ratios: [Double]) -> String {
        "\(Figure.decimal(ratios.median)) (\(Figure.decimal(ratios.min() ?? 0))-\(Figure.decimal(ratios.max() ?? 0)))"
    }

    /// The runner/raw a run would reach if it sent like the raw loop and checking the files first (what
    /// `validate` costs) were its only other work: raw / (raw + validate), for each throughput row. An
    /// estimate of what checking costs.
    func parsingEstimateRows() -> [ResultRow] {
        guard let validateSeconds else { return [] }
        return rawSeconds.map { raw in
            ResultRow(measure: "raw/(raw + validate), \(raw.server), \(mode(raw.concurrency))", unit: "",
                      runner: "", ratio: Figure.decimal(raw.seconds / (raw.seconds + validateSeconds)))
        }
    }

    /// What writing every report (JUnit, JSON, HTML, Markdown, TAP) costs a sequential run of N requests against
    /// `server`: its wall and CPU time beside the same run without reports, the two one after the other in each
    /// round (which goes first alternating), and the HTML page's bytes per request; the baseline's the same way in
    /// the same rounds, when there is one.
    mutating func reportCost(against server: LocalServer, scratch: URL) throws -> [ResultRow] {
        let reports = ["junit.xml", "report.json", "report.html", "summary.md", "report.tap"].map { scratch.appendingPathComponent($0).path }
        let flags = zip(["--report-junit", "--report-json", "--report-html", "--report-markdown", "--report-tap"], reports)
            .flatMap { [$0, $1] }
        let tools = [tool] + (baseline.map { [$0] } ?? [])
        var costs = [[ReportCost]](repeating: [], count: tools.count)
        for round in 1...rounds {
            progress("round \(round)/\(rounds): reports, \(server.name)")
            // Which runner goes first, and whether its run without reports does, alternate round by round.
            let plainFirst = round % 2 == 1
            for index in plainFirst ? Array(tools.indices) : tools.indices.reversed() {
                let runs = try [plainFirst ? [] : flags, plainFirst ? flags : []].map { extra in
                    try tools[index].run(collections.large, port: server.port, scheme: server.scheme, jobs: 1, extra: extra)
                }
                costs[index].append(ReportCost(plain: runs[plainFirst ? 0 : 1], reported: runs[plainFirst ? 1 : 0]))
            }
        }
        let htmlBytes = (try? FileManager.default.attributesOfItem(atPath: reports[2])[.size] as? Int) ?? 0
        let wall = costs[0].map(\.wallRatio).median - 1
        let measure = "every report, \(server.name), sequential"
        if costs.count > 1 {
            baselineMeasured += [("time", \ReportCost.wallRatio), ("CPU", \ReportCost.cpuRatio)].map { unit, ratio in
                ResultRow(measure: measure, unit: unit, runner: Self.percent(costs[0].map { $0[keyPath: ratio] }.median - 1),
                          raw: Self.percent(costs[1].map { $0[keyPath: ratio] }.median - 1))
            }
        }
        return [
            ResultRow(measure: measure, unit: "time", runner: Self.percent(wall), ratio: Self.range(costs[0].map(\.wallRatio)),
                      target: "< +10%", verdict: Verdict(wall < 0.1)),
            ResultRow(measure: measure, unit: "CPU", runner: Self.percent(costs[0].map(\.cpuRatio).median - 1),
                      ratio: Self.range(costs[0].map(\.cpuRatio))),
            ResultRow(measure: "HTML report per request", unit: "bytes", runner: Figure.whole(Double(htmlBytes) / Double(count))),
        ]
    }

    /// A run with every report and the same run without, measured one after the other.
    private struct ReportCost {
        var plain: ChildMeasurement
        var reported: ChildMeasurement
        var wallRatio: Double { reported.seconds / plain.seconds }
        var cpuRatio: Double { reported.cpuSeconds / plain.cpuSeconds }
    }

    /// `+7.5%`: what a ratio minus one adds, in percent.
    private static func percent(_ extra: Double) -> String {
        (extra < 0 ? "" : "+") + Figure.decimal(extra * 100, places: 1) + "%"
    }

    /// `(+3.1% to +12.0%)`: the smallest and largest extra of `ratios`.
    private static func range(_ ratios: [Double]) -> String {
        "(\(percent((ratios.min() ?? 1) - 1)) to \(percent((ratios.max() ?? 1) - 1)))"
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
        return [1, jobs].flatMap { concurrency -> [ResultRow] in
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

    /// The runner beside the baseline: what `baselineMeasured` holds, then peak memory at N files.
    var baselineRows: [ResultRow] {
        baselineMeasured + [1, jobs].compactMap { concurrency in
            guard let peak = peaks[concurrency], let large = peak.large.max(), let baseline = peak.baseline.max() else { return nil }
            return ResultRow(measure: "peak memory, N = \(Figure.whole(Double(count))), \(mode(concurrency))", unit: "MB",
                             runner: Figure.megabytes(large), raw: Figure.megabytes(baseline),
                             ratio: "x\(Figure.decimal(Double(large) / Double(baseline)))")
        }
    }

    private func mode(_ concurrency: Int) -> String {
        concurrency == 1 ? "sequential" : "--jobs \(concurrency)"
    }
}
