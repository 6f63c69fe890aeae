import Foundation
import Testing
import YAML

/// `--report-markdown` and `--report-tap` from a real run against the test server with a pass, failures, an error,
/// skips, a flaky pass, a flow and a secret the server echoes; the TAP file read by Perl's `prove`.
@Suite struct MarkdownAndTAPReportTests {
    /// A bearer token with characters Markdown and YAML escape, so that escaping before redacting would show it.
    static let token = "Sup3r|s3cret`t0ken<x>"

    /// The run of a scenario (by default `reports` with the `local` environment) with both reports, read back.
    static func run(
        _ scenario: String = "reports", _ arguments: [String] = ["run", "requests", "--env", "local"]
    ) async throws -> (output: ScenarioRun.Output, markdown: String, tap: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-md-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = folder.appendingPathComponent("summary.md"), tap = folder.appendingPathComponent("report.tap")
        let output = try await ScenarioRun.run(
            scenario, arguments + ["--report-markdown", markdown.path, "--report-tap", tap.path],
            environment: ["REPORT_TOKEN": token])
        return (output, try String(contentsOf: markdown, encoding: .utf8), try String(contentsOf: tap, encoding: .utf8))
    }

    @Test func theMarkdownSummaryCountsTheRunAndTablesEachFailureAndErrorAtItsLine() async throws {
        let (output, markdown, _) = try await Self.run()
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(markdown.hasPrefix("## runner: 7 requests: 2 passed (1 flaky), 2 failed, 1 errored, 2 skipped in "), "\(markdown)")
        #expect(markdown.contains("""
            | Passed | Failed | Errored | Skipped | Flaky | Total | Exit status |
            |---:|---:|---:|---:|---:|---:|---:|
            | 2 | 2 | 1 | 2 | 1 | 7 | 3 |
            """), "\(markdown)")
        let rows = markdown.split(separator: "\n").map(String.init).filter { $0.hasPrefix("| FAIL") || $0.hasPrefix("| ERROR") }
        #expect(rows.count == 5, "\(markdown)")
        // Six cells in every row: a `|` in a name or a value is escaped, never a cell border.
        for row in rows { #expect(Self.cells(of: row).count == 6, "\(row)") }
        let cells = rows.map(Self.cells)
        #expect(cells.map { Array($0.prefix(3)) } == [
            ["FAIL", #"echo \| the token"#, "requests/02-fails.yaml:7"],
            ["FAIL", #"echo \| the token"#, "requests/02-fails.yaml:9"],
            ["FAIL", #"echo \| the token"#, "requests/02-fails.yaml:10"],
            ["ERROR", "a connection closed mid-body", "requests/03-errors.yaml:2"],
            ["FAIL", "A flow › checks the header", "requests/06-flow.yaml:7"],
        ], "\(markdown)")
        #expect(cells[0].suffix(2) == ["201", "200"], "\(rows[0])")
        #expect(cells[1][4] == #""not \| the \`token\` &lt;i&gt;""#, "\(rows[1])")
        // The schema's violations, one per line, stay in their cell.
        #expect(cells[2][5].contains("<br>"), "\(rows[2])")
        #expect(cells[4][5].contains(#"Bearer \*\*\*"#), "the token the server echoed is redacted: \(rows[4])")
        #expect(!markdown.contains("left out"))
    }

    @Test func theTAPStreamHasAPointPerRequestSkipsWithReasonsAndYAMLDiagnostics() async throws {
        let (_, _, tap) = try await Self.run()
        let lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(2)) == ["TAP version 14", "1..7"])
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(points == [
            ##"ok 1 - passes | with <b>markup</b> & `code` \# and a hash \\ and a backslash"##,
            "not ok 2 - echo | the token",
            "not ok 3 - a connection closed mid-body",
            "ok 4 - skipped on purpose # SKIP waiting for ticket #42",
            "ok 5 - passes on its second attempt",
            "not ok 6 - A flow › checks the header",
            "ok 7 - A flow › never sent # SKIP an earlier step failed: checks the header",
        ], "\(tap)")
        #expect(lines.contains("# flaky: passed only after 2 attempts (retried for a status or an error)"), "\(tap)")
        #expect(lines.last(where: { !$0.isEmpty })?.hasPrefix("# 7 requests: 2 passed (1 flaky), 2 failed, 1 errored") == true)

        let blocks = try Self.diagnosticBlocks(in: tap)
        #expect(blocks.count == 3, "\(tap)")
        let failure = try #require(blocks.first)
        #expect(failure["message"]?.string == "status did not match")
        #expect(failure["severity"]?.string == "fail")
        #expect(failure["location"]?.string?.hasPrefix("requests/02-fails.yaml:7:") == true)
        #expect(failure["expected"]?.string == "201" && failure["actual"]?.string == "200")
        let problems = try #require(failure["problems"]?.sequence)
        #expect(problems.count == 3)
        #expect(problems[1]["expected"]?.string == #""not | the `token` <i>""#)
        #expect(problems[1]["location"]?.string?.hasPrefix("requests/02-fails.yaml:9:") == true)
        // A value of several lines (every schema violation) is one quoted YAML string holding its line breaks.
        let violations = try #require(problems[2]["actual"]?.string)
        #expect(violations.split(separator: "\n").count >= 2, "\(violations)")
        #expect(blocks[1]["severity"]?.string == "error")
        #expect(blocks[1]["location"] == nil || blocks[1]["location"]?.string?.hasPrefix("requests/03-errors.yaml") == true)
        #expect(blocks[2]["actual"]?.string?.contains("Bearer ***") == true, "\(tap)")
        // The exchange of the failed request, as --verbose shows it: the request line first, the response after.
        let exchange = try #require(failure["exchange"]?.string, "\(tap)")
        #expect(exchange.hasPrefix("> POST http://127.0.0.1:") && exchange.contains("\n< 200 "), "\(exchange)")
    }

    @Test func neitherReportHoldsTheSecret() async throws {
        let (output, markdown, tap) = try await Self.run()
        #expect(output.received.contains { $0.headers.contains { $0.value == "Bearer \(Self.token)" } }, "the token was sent")
        for report in [markdown, tap] {
            #expect(!report.contains("s3cret"), "\(report)")
            #expect(!report.contains("t0ken"), "\(report)")
        }
    }

    @Test func proveReadsTheTAPFileAndFailsOnTheFailedAndErroredPoints() async throws {
        let prove = ["/usr/bin/prove", "/usr/local/bin/prove"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try #require(prove != nil, "Perl's prove is not installed; the TAP file is not checked by a TAP consumer")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-prove-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, _, tap) = try await Self.run()
        try Data(tap.utf8).write(to: folder.appendingPathComponent("report.tap"))
        // `-e cat`: prove "runs" the file by printing it, and parses what it reads as TAP.
        let result = try await RunnerProcess.run(program: URL(fileURLWithPath: prove!), ["--verbose", "-e", "cat", "report.tap"],
                                                 in: folder, environment: ["PATH": "/usr/bin:/bin"])
        let text = result.stdout + result.stderr
        #expect(result.exitCode != 0, "\(text)")
        #expect(text.contains("Failed 3/7 subtests"), "\(text)")
        #expect(text.contains("ok 4 - skipped on purpose # SKIP waiting for ticket #42"), "\(text)")
        // The summary names the failed points and no parse error (a YAML block prove cannot read, a wrong plan), except
        // that a Test::Harness that knows TAP only up to version 13 (3.44, Perl 5.36's) says so.
        let summary = text.components(separatedBy: "Test Summary Report\n-------------------\n").last?
            .components(separatedBy: "Files=").first?.split(separator: "\n").map(String.init)
            .filter { !$0.contains("TAP specified version 14 but we don't know about versions later than 13") }
        #expect(summary == ["report.tap (Wstat: 0 Tests: 7 Failed: 3)", "  Failed tests:  2-3, 6"], "\(text)")
    }

    @Test func anInvalidCollectionWritesBothReportsWithAnErrorPerProblem() async throws {
        let (output, markdown, tap) = try await Self.run("invalid", ["run", "requests"])
        #expect(output.result.exitCode == 2)
        #expect(markdown.contains("| 0 | 0 | 2 | 0 | 0 | 2 | 2 |"), "\(markdown)")
        #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| ERROR | requests/") }.count == 2, "\(markdown)")
        let points = tap.split(separator: "\n").filter { $0.hasPrefix("not ok ") }
        #expect(tap.hasPrefix("TAP version 14\n1..2\n") && points.count == 2, "\(tap)")
    }

    /// The cells of a Markdown table row, split at the `|` that are not escaped.
    static func cells(of row: String) -> [String] {
        var cells: [String] = [], cell = "", escaped = false
        for character in row.dropFirst().dropLast() {
            if character == "|", !escaped {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            escaped = character == "\\" && !escaped
        }
        return cells + [cell.trimmingCharacters(in: .whitespaces)]
    }

    /// Every YAML diagnostic block of a TAP stream (the lines from `  ---` to `  ...`, unindented), parsed.
    static func diagnosticBlocks(in tap: String) throws -> [Node] {
        var blocks: [Node] = []
        var block: [String]?
        for line in tap.split(separator: "\n").map(String.init) {
            if line == "  ---" {
                block = []
            } else if line == "  ...", let lines = block {
                if let node = try YAMLParser.parse(lines.joined(separator: "\n") + "\n") { blocks.append(node) }
                block = nil
            } else if block != nil {
                block?.append(String(line.dropFirst(2)))
            }
        }
        return blocks
    }
}
