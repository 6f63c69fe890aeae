import Foundation
import Testing

/// The built `runner validate` rejects hostile files with exit 2 and a located error, in under 100 ms
/// more than `runner --version` takes to start and end, and under 64 MB of peak memory.
///
/// The files are generated here into a temporary directory (a 50 MB file is not committed). Time is the
/// wall time from posix_spawn to wait4, the fastest of three runs, minus the same for `runner --version`
/// (the start-up of a debug binary: loading Foundation and the Swift runtime, about 10-30 ms here);
/// memory is the child's own peak resident size, start-up included (about 25 MB for `--version`), sampled
/// from /proc while it runs (wait4's ru_maxrss also counts the test process's memory: see `MeasuredProcess`).
@Suite(.serialized) struct HostileFileEndToEndTests {
    /// A hostile request file, the text it is made of, and the start of the error `validate` must print.
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var text: @Sendable () -> String
        var expectedError: String
    }

    static let cases: [Case] = [
        Case(description: "billion laughs", text: {
            let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
            return "a: &a [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]\n"
                + zip(names, names.dropFirst()).map { previous, name in
                    "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
                }.joined()
        }, expectedError: "requests/a.yaml:4:36: error: aliases expand to more than 10000 nodes"),
        Case(description: "100,000 nested block lists", text: { String(repeating: "- ", count: 100_000) + "x\n" },
             expectedError: "requests/a.yaml:1:513: error: nesting is deeper than the limit of 256 levels"),
        Case(description: "100,000 nested flow mappings",
             text: { String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000) },
             expectedError: "requests/a.yaml:1:1025: error: nesting is deeper than the limit of 256 levels"),
        Case(description: "50 MB file", text: { "request: { url: /x }\n" + String(repeating: "# padding\n", count: 5 << 20) },
             expectedError: "requests/a.yaml: error: the file has 52428821 bytes, more than the limit of 1048576 bytes"),
        Case(description: "a line of 5 million characters", text: { "request: { url: /" + String(repeating: "x", count: 5_000_000) + " }\n" },
             expectedError: "requests/a.yaml: error: the file has 5000020 bytes, more than the limit of 1048576 bytes"),
        Case(description: "1 MB single-line scalar", text: { "request: { url: /" + String(repeating: "x", count: 1_000_000) + " }\n" },
             expectedError: "requests/a.yaml:1:17: error: this value has 1000001 bytes, more than the limit of 65536 bytes"),
        Case(description: "1 MB line of list items", text: { "tags: [" + String(repeating: "a,", count: 500_000) + "]\n" },
             expectedError: "requests/a.yaml:1:40002: error: the document has more than 20000 nodes"),
    ]

    @Test(arguments: cases)
    func rejectedFastInBoundedMemory(_ hostile: Case) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        let requests = scratch.appendingPathComponent("requests")
        try FileManager.default.createDirectory(at: requests, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(hostile.text().utf8).write(to: requests.appendingPathComponent("a.yaml"))

        let baseline = try await onOwnThread { try MeasuredProcess.fastest(of: 3, ["--version"], scratch: scratch) }
        let run = try await onOwnThread { try MeasuredProcess.fastest(of: 3, ["validate", requests.path], scratch: scratch) }

        #expect(baseline.exitCode == 0)
        #expect(run.exitCode == 2, "stderr: \(run.stderr.prefix(2000))")
        let located = run.stderr.replacingOccurrences(of: scratch.path + "/", with: "")
        #expect(located.hasPrefix(hostile.expectedError + "\n"), "stderr: \(located.prefix(2000))")
        #expect(run.peakMemoryBytes < 64 << 20,
                "peak RSS \(run.peakMemoryBytes >> 20) MB (ru_maxrss bound \(run.maxRSSBoundBytes >> 20) MB)")
        #expect(run.peakMemoryBytes > 4 << 20, "the peak memory was not sampled")
        // A generous ceiling (a busy machine slows a debug build many times); a file that blows up takes far longer.
        #expect(run.wallTime - baseline.wallTime < .seconds(1),
                "validate took \(run.wallTime), runner --version \(baseline.wallTime)")
    }
}
