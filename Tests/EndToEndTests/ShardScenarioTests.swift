import Foundation
import TestSupport
import Testing

/// `--shard`, `merge-reports` and `--rerun-failed` run by `runner` against the test server (scenario `Scenarios/shards`:
/// files passing captures, a loop over a capture, a flow, independent files, two failures, one of them reading a capture).
@Suite struct ShardScenarioTests {
    /// A folder for reports, removed by `remove()`.
    struct Reports {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-shards-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs `body` with a fresh http test server and a folder for reports, stopping and removing both afterwards.
    static func withServer(_ body: (TestServer, Reports) async throws -> Void) async throws {
        let server = try await TestServer.start(.http)
        let reports = try Reports()
        defer { reports.remove() }
        do {
            try await body(server, reports)
            try await server.stop()
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Runs `runner` in the scenario against `server`.
    static func runner(_ arguments: [String], server: TestServer, environment: [String: String] = [:]) async throws -> RunnerProcess.Result {
        try await RunnerProcess.run(arguments, in: ScenarioRun.folder("shards"),
                                    environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)].merging(environment) { $1 })
    }

    /// A JSON report without what differs between two runs of the same requests: durations and `Date` headers.
    static func comparable(_ text: String) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "durationMs" }.mapValues(strip)
            }
            if let list = value as? [Any] {
                return list.filter { (($0 as? [String: Any])?["name"] as? String)?.lowercased() != "date" }.map(strip)
            }
            return value
        }
        let object = strip(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
    }

    @Test(arguments: [3, 8]) func theMergedPartsAreTheUnshardedRun(parts: Int) async throws {
        try await Self.withServer { server, reports in
            let whole = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path("whole.json"),
                                               "--report-junit", reports.path("whole.xml")], server: server)
            #expect(whole.exitCode == 4, "\(whole.stdout)\n\(whole.stderr)")
            var requested = 0
            for index in 1...parts {
                // The part comes from RUNNER_SHARD for the first, from --shard for the others.
                let shard = ["--shard", "\(index)/\(parts)"]
                let part = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path("part-\(index).json")]
                                                     + (index == 1 ? [] : shard),
                                                 server: server, environment: index == 1 ? ["RUNNER_SHARD": "1/\(parts)"] : [:])
                #expect([0, 4].contains(part.exitCode), "\(part.stdout)\n\(part.stderr)")
                #expect(part.stdout.contains("shard \(index)/\(parts): "), "\(part.stdout)")
                if part.stdout.contains("nothing to run") { #expect(part.exitCode == 0) }
                requested += try ScenarioRun.jsonRequests(reports.text("part-\(index).json")).count
            }
            #expect(requested == 17)
            let partPaths = (1...parts).reversed().map { reports.path("part-\($0).json") }
            let merged = try await Self.runner(["merge-reports"] + partPaths + ["--report-json", reports.path("merged.json"),
                                                                                "--report-junit", reports.path("merged.xml")], server: server)
            #expect(merged.exitCode == 4, "\(merged.stdout)\n\(merged.stderr)")
            #expect(try Self.comparable(reports.text("merged.json")) == Self.comparable(reports.text("whole.json")))
            #expect(try reports.text("merged.xml").contains(#"tests="17""#))
            // The failures quote the lines they point at, as the unsharded run's do (the files are as the parts read them).
            let failures = { (junit: String) in junit.matches(of: #/<failure[^>]*>([^<]*)</failure>/#).map { String($0.1) } }
            let unsharded = try failures(reports.text("whole.xml"))
            #expect(unsharded.count == 2 && unsharded.allSatisfy { $0.contains(" | ") }, "\(unsharded)")
            #expect(try failures(reports.text("merged.xml")) == unsharded)
        }
    }

    /// A part that is not one (`--shard 5/4`, `RUNNER_SHARD=0/3`, `--shard ""`, `--shard -1/3`) is a bad command line that still writes the reports,
    /// with an errored case saying why, so the CI step that publishes them finds them.
    @Test func aShardThatIsNotAPartWritesReportsSayingWhy() async throws {
        try await Self.withServer { server, reports in
            // An empty `--shard ""` (a CI matrix variable left empty) is refused too, not read as the whole collection.
            for (arguments, environment) in [(["--shard", "5/4"], ["GITHUB_ACTIONS": "true"]), ([], ["RUNNER_SHARD": "0/3"]),
                                             (["--shard", ""], [String: String]()), (["--shard", "-1/3"], [:])] {
                let result = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path("bad.json"),
                                                    "--report-junit", reports.path("bad.xml")] + arguments,
                                                   server: server, environment: environment)
                #expect(result.exitCode == 1, "\(result.stdout)\n\(result.stderr)")
                let json = try reports.text("bad.json"), junit = try reports.text("bad.xml")
                #expect(json.contains("\"exitStatus\": 1") && json.contains("\"result\": \"errored\""), "\(json)")
                #expect(junit.contains("<error"), "\(junit)")
                // On GitHub Actions it is an annotation too, as every other stop is.
                if environment["GITHUB_ACTIONS"] != nil { #expect(result.stdout.contains("::error"), "\(result.stdout)") }
                #expect(server.receivedRequests().isEmpty)
                try FileManager.default.removeItem(atPath: reports.path("bad.json"))
            }
        }
    }

    /// An empty `RUNNER_SHARD` (a CI variable set to nothing) is unset: the whole collection runs, saying nothing of parts.
    @Test func anEmptyRunnerShardIsUnset() async throws {
        try await Self.withServer { server, _ in
            let result = try await Self.runner(["run", "requests/05-alone.yaml", "--env", "local"], server: server,
                                               environment: ["RUNNER_SHARD": ""])
            #expect(result.exitCode == 0 && !result.stdout.contains("shard"), "\(result.stdout)\n\(result.stderr)")
        }
    }

    /// A report is read back past the 64 MiB of other inputs: one with many failures keeps up to 64 KiB of each one's
    /// body, more as JSON text.
    @Test func aReportLargerThanOtherInputsIsReadBack() async throws {
        try await Self.withServer { server, reports in
            let whole = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path("whole.json")], server: server)
            #expect(whole.exitCode == 4, "\(whole.stdout)\n\(whole.stderr)")
            var report = try #require(JSONSerialization.jsonObject(with: Data(try reports.text("whole.json").utf8)) as? [String: Any])
            var records = try #require(report["requests"] as? [[String: Any]])
            let failed = try #require(records.firstIndex { $0["exchange"] is [String: Any] })
            var exchange = try #require(records[failed]["exchange"] as? [String: Any])
            var response = try #require(exchange["response"] as? [String: Any])
            response["body"] = String(repeating: "x", count: 65 << 20)
            (exchange["response"], records[failed]["exchange"], report["requests"]) = (response, exchange, records)
            try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: reports.path("large.json")))
            let rerun = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("large.json")],
                                              server: server)
            #expect(rerun.exitCode == 4 && !rerun.stderr.contains("cannot read"), "\(rerun.stdout)\n\(rerun.stderr)")
        }
    }

    @Test func mergeReportsRefusesPartsThatDoNotMakeOneRun() async throws {
        try await Self.withServer { server, reports in
            for (name, arguments) in [("1.json", ["--shard", "1/2"]), ("2.json", ["--shard", "2/2"]),
                                      ("other.json", ["--shard", "2/2", "--tag", "none", "--exclude-tag", "x"]),
                                      ("whole.json", []), ("wide.json", ["--shard", "1/1000000000"]), ("third.json", ["--shard", "1/3"]),
                                      ("varied.json", ["--shard", "2/2", "--var", "unused=1"]),
                                      ("strict.json", ["--shard", "2/2", "--fail-on-flaky"])] {
                _ = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path(name)] + arguments,
                                          server: server)
            }
            let cases: [([String], String)] = [
                (["1.json"], "missing part 2/2: merge the reports of all 2 parts"),
                (["1.json", "2.json", "2.json"], "part 2/2 is given twice"),
                (["wide.json"], "missing part 2/1000000000, part 3/1000000000, part 4/1000000000, part 5/1000000000, "
                    + "part 6/1000000000, part 7/1000000000, part 8/1000000000, part 9/1000000000, part 10/1000000000, "
                    + "part 11/1000000000 and 999999989 more: merge the reports of all 1000000000 parts"),
                (["1.json", "whole.json"], "is not the report of a part: it was written by a run without --shard"),
                // Another run's part, told by what differs.
                (["1.json", "third.json"], "third.json is a part of another run than \(reports.path("1.json")): it is part 1/3, "
                    + "\(reports.path("1.json")) part 1/2: each run was split in its own number of parts"),
                (["1.json", "varied.json"], "varied.json is a part of another run than \(reports.path("1.json")): it was given --var unused, "
                    + "\(reports.path("1.json")) was not"),
                // Run with and without --fail-on-flaky: a flaky pass would be a failure in one part only (trial helper-165).
                (["1.json", "strict.json"], "strict.json was run with --fail-on-flaky, \(reports.path("1.json")) without: a flaky pass "
                    + "is a failure in some parts only; run every part with the same flags"),
                (["1.json", "missing.json"], "cannot read the report '\(reports.path("missing.json"))': no such file or directory"),
                (["1.json", "edited.json"], "edited.json: request 1 names requests/zzz.yaml, which is not a file of the run's plan"),
                (["1.json", "copied.json"], "copied.json, but a file runs in one part: is a part edited?"),
            ]
            // A part holding a request of a file the other part ran (copied by hand).
            let partOne = try String(contentsOfFile: reports.path("1.json"), encoding: .utf8)
            let fileOfPartOne = try #require(partOne.firstRange(of: #/"file": "[^"]*"/#))
            let secondPart = try String(contentsOfFile: reports.path("2.json"), encoding: .utf8)
            try secondPart.replacingCharacters(in: try #require(secondPart.firstRange(of: #/"file": "[^"]*"/#)), with: partOne[fileOfPartOne])
                .write(toFile: reports.path("copied.json"), atomically: true, encoding: .utf8)
            // A part whose request names a file the plan does not hold (edited by hand).
            let second = try String(contentsOfFile: reports.path("2.json"), encoding: .utf8)
            let firstFile = try #require(second.firstRange(of: #/"file": "[^"]*"/#))
            try second.replacingCharacters(in: firstFile, with: #""file": "requests/zzz.yaml""#)
                .write(toFile: reports.path("edited.json"), atomically: true, encoding: .utf8)
            // A part with every record of one of its files deleted and its counts made to match; also with the file
            // deleted from what it was dealt.
            var dropped = try #require(JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any])
            var records = try #require(dropped["requests"] as? [[String: Any]])
            // A file of only passed requests: the part's exit status stays what its other records give.
            let fileResults = Dictionary(grouping: records) { $0["file"] as? String ?? "" }
            let droppedFile = try #require(fileResults.keys.sorted().first { file in
                fileResults[file]?.allSatisfy { $0["result"] as? String == "passed" } == true
            })
            records.removeAll { $0["file"] as? String == droppedFile }
            var summary = try #require(dropped["summary"] as? [String: Any])
            summary["total"] = records.count
            summary["passed"] = records.count { $0["result"] as? String == "passed" }
            (dropped["requests"], dropped["summary"]) = (records, summary)
            try JSONSerialization.data(withJSONObject: dropped).write(to: URL(fileURLWithPath: reports.path("dropped.json")))
            var plan = try #require(dropped["plan"] as? [String: Any])
            var dealt = try #require(plan["part"] as? [String: Any])
            let dealtFiles = try #require(dealt["files"] as? [String])
            let droppedIndex = try #require(dealtFiles.firstIndex(of: droppedFile))
            dealt["files"] = dealtFiles.filter { $0 != droppedFile }
            dealt["steps"] = (dealt["steps"] as? [Int]).map { steps in steps.indices.filter { $0 != droppedIndex }.map { steps[$0] } }
            plan["part"] = dealt
            dropped["plan"] = plan
            try JSONSerialization.data(withJSONObject: dropped).write(to: URL(fileURLWithPath: reports.path("undealt.json")))
            // ... and with what both parts were dealt made to agree (13 files): the files held are not those dealt.
            for (name, source) in [("forged-1.json", partOne), ("forged-2.json", nil)] {
                var report = source.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? dropped
                var forgedPlan = try #require(report["plan"] as? [String: Any])
                var forgedPart = try #require(forgedPlan["part"] as? [String: Any])
                forgedPart["dealt"] = 13
                forgedPlan["part"] = forgedPart
                report["plan"] = forgedPlan
                try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: reports.path(name)))
            }
            // ... and without the record of what it was dealt.
            var bare = try #require(JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any])
            var barePlan = try #require(bare["plan"] as? [String: Any])
            barePlan["part"] = nil
            bare["plan"] = barePlan
            try JSONSerialization.data(withJSONObject: bare).write(to: URL(fileURLWithPath: reports.path("bare.json")))
            // ... with one record of a file of several (a flow's step) deleted and the counts made to match, and with its
            // plan removed.
            var short = try #require(JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any])
            var shortRecords = try #require(short["requests"] as? [[String: Any]])
            let byFile = Dictionary(grouping: shortRecords) { $0["file"] as? String ?? "" }
            let several = "requests/14-flow.yaml"
            #expect(byFile[several]?.count == 2 && byFile[several]?.allSatisfy { $0["result"] as? String == "passed" } == true)
            shortRecords.remove(at: try #require(shortRecords.firstIndex { $0["file"] as? String == several }))
            var shortSummary = try #require(short["summary"] as? [String: Any])
            shortSummary["total"] = shortRecords.count
            shortSummary["passed"] = shortRecords.count { $0["result"] as? String == "passed" }
            (short["requests"], short["summary"]) = (shortRecords, shortSummary)
            try JSONSerialization.data(withJSONObject: short).write(to: URL(fileURLWithPath: reports.path("short.json")))
            short["plan"] = NSNull()
            try JSONSerialization.data(withJSONObject: short).write(to: URL(fileURLWithPath: reports.path("unplanned.json")))
            let steps = try #require(byFile[several]?.count)
            let checks = cases + [(["1.json", "short.json"], "short.json has \(steps - 1) records of \(several), which reports \(steps) at least"),
                                  (["1.json", "unplanned.json"], "unplanned.json has no plan, but holds request records"),
                                  (["1.json", "dropped.json"], "dropped.json has no record of \(droppedFile), a file of its part: is it edited?"),
                                  (["1.json", "undealt.json"], "the parts were dealt 14 files but hold 13: is a part edited?"),
                                  (["forged-1.json", "forged-2.json"], "the parts were dealt 13 files but hold 13 others: is a part edited?"),
                                  (["1.json", "forged-2.json"], "was dealt from other files than"),
                                  (["1.json", "bare.json"], "bare.json does not record what its part was dealt (its plan has no 'part')")]
            for (names, message) in checks {
                let result = try await Self.runner(["merge-reports"] + names.map(reports.path), server: server)
                #expect(result.exitCode == 1, "\(names): \(result.stdout)\n\(result.stderr)")
                #expect(result.stderr.contains(message), "\(names): \(result.stderr)")
            }
            // A merged report may not overwrite a part it merges (the part would be lost).
            let part = try String(contentsOfFile: reports.path("1.json"), encoding: .utf8)
            let overwriting = try await Self.runner(["merge-reports", reports.path("1.json"), reports.path("2.json"),
                                                     "--report-html", reports.path("1.json")], server: server)
            #expect(overwriting.exitCode == 1, "\(overwriting.stdout)\n\(overwriting.stderr)")
            #expect(overwriting.stderr.contains("is a file merge-reports merges"), "\(overwriting.stderr)")
            #expect(try String(contentsOfFile: reports.path("1.json"), encoding: .utf8) == part)
        }
    }

    /// A part with a record of a data row deleted (its counts made to match) is refused: a file reports a record per
    /// selected step and row at least.
    /// Parts of runs of different files are refused naming the file: one edited between the two runs, or added.
    @Test func mergeReportsNamesTheFileThatDiffersBetweenTwoRuns() async throws {
        try await Self.withServer { server, reports in
            let folder = reports.folder.appendingPathComponent("edits")
            func write(_ path: String, _ text: String) throws {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            try write("requests/a.yaml", "request: { url: /echo }\n")
            try write("requests/b.yaml", "request: { url: /echo }\n")
            try write("environments/local.yaml", "baseURL: \"http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}\"\n")
            let environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
            func part(_ index: Int, _ name: String, env: String = "local", _ options: [String] = []) async throws {
                let result = try await RunnerProcess.run(["run", "requests", "--env", env, "--shard", "\(index)/2",
                                                          "--report-json", reports.path(name)] + options, in: folder, environment: environment)
                #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
            }
            func refusal(_ names: [String]) async throws -> String {
                try await RunnerProcess.run(["merge-reports"] + names.map(reports.path), in: folder, environment: environment).stderr
            }
            try await part(1, "1.json")
            try write("requests/b.yaml", "request: { url: /echo, method: POST }\n")
            try await part(2, "2.json")
            #expect(try await refusal(["1.json", "2.json"]).contains(": requests/b.yaml was edited between the two runs"))
            try write("requests/c.yaml", "request: { url: /echo }\n")
            try write("requests/b.yaml", "request: { url: /echo }\n")
            try await part(2, "2c.json")
            let added = try await refusal(["1.json", "2c.json"])
            #expect(added.contains(": requests/c.yaml is in its plan, not in \(reports.path("1.json"))'s"), "\(added)")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("requests/c.yaml"))
            // What else the plan records: the environment (its name, its files), the tags, the --vars' names (never their
            // values), the request files no part runs.
            let local = "baseURL: \"http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}\"\n"
            try write("environments/local.yaml", local + "variables: { who: me }\n")
            try await part(2, "2e.json")
            #expect(try await refusal(["1.json", "2e.json"]).contains(": environments/local.yaml was edited between the two runs"))
            try write("environments/local.yaml", local)
            try write("environments/other.yaml", local)
            try await part(2, "2o.json", env: "other")
            #expect(try await refusal(["1.json", "2o.json"]).contains(": it ran with --env other, \(reports.path("1.json")) with --env local"))
            try await part(2, "2t.json", ["--exclude-tag", "slow"])
            #expect(try await refusal(["1.json", "2t.json"])
                .contains(": it selected with --exclude-tag slow, \(reports.path("1.json")) with no tag filter"))
            try await part(1, "1v.json", ["--var", "who=first-secret-value"])
            try await part(2, "2v.json", ["--var", "who=second-secret-value"])
            try await part(2, "2w.json", ["--var", "whom=first-secret-value"])
            #expect(try await refusal(["1v.json", "2v.json"]).contains(": the value of --var who differs (values are not recorded)"))
            #expect(try await refusal(["1v.json", "2w.json"]).contains(": it was given --var whom, \(reports.path("1v.json")) was not"))
            #expect(try !reports.text("1v.json").contains("secret-value") && reports.text("1v.json").contains(#""variables": ["#))
            try write("requests/d.yaml", "tags: [slow]\nrequest: { url: /echo }\n")
            try await part(1, "1d.json", ["--exclude-tag", "slow"])
            try write("requests/d.yaml", "tags: [slow]\nrequest: { url: /echo, method: PUT }\n")
            let unplanned = try await refusal(["1d.json", "2t.json"])
            #expect(unplanned.contains(": a request file neither of them runs (other tags) was edited, added or removed"), "\(unplanned)")
            // Other tags are named, though they plan other files too; the same tags in another order are the same run.
            try await part(2, "2n.json")
            #expect(try await refusal(["1d.json", "2n.json"])
                .contains(": it selected with no tag filter, \(reports.path("1d.json")) with --exclude-tag slow"))
            try await part(1, "1ab.json", ["--exclude-tag", "a", "--exclude-tag", "b"])
            try await part(2, "2ba.json", ["--exclude-tag", "b", "--exclude-tag", "a", "--exclude-tag", "b"])
            #expect(try await refusal(["1ab.json", "2ba.json"]).isEmpty)
            // A secret given by --var counts by its name only, as one from the process environment does: no hash of its value.
            try write("environments/keyed.yaml", local + "secrets: { key: { env: TEST_KEY } }\n")
            try await part(1, "1k.json", env: "keyed", ["--var", "key=first-secret-value"])
            try await part(2, "2k.json", env: "keyed", ["--var", "key=second-secret-value"])
            #expect(try await refusal(["1k.json", "2k.json"]).isEmpty)
            #expect(try reports.text("1k.json").contains(#""secretVariables": ["#))
            // A schema file edited between the two runs.
            try write("schemas/s.json", #"{"type": "object"}"#)
            try write("requests/s.yaml", "request: { url: /echo }\nexpect: { schema: ../schemas/s.json }\n")
            try await part(1, "1s.json")
            try write("schemas/s.json", #"{"type": ["object", "array"]}"#)
            try await part(2, "2s.json")
            #expect(try await refusal(["1s.json", "2s.json"]).contains(": schemas/s.json was edited between the two runs"))
        }
    }

    @Test func aPartWithADataRowsRecordDeletedIsRefused() async throws {
        try await Self.withServer { server, reports in
            let folder = reports.folder.appendingPathComponent("rows")
            for (path, text) in ["requests/_d/rows.csv": "code\n200\n201\n204\n",
                                 "requests/a.yaml": "each: _d/rows.csv\nrequest: { url: \"/status/{{ code }}\" }\n",
                                 "requests/b.yaml": "request: { url: /echo }\n",
                                 "environments/local.yaml": "baseURL: \"http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}\"\n"] {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            let environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
            for part in 1...2 {
                let result = try await RunnerProcess.run(["run", "requests", "--env", "local", "--shard", "\(part)/2",
                                                          "--report-json", reports.path("\(part).json")], in: folder, environment: environment)
                #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
            }
            let honest = try await RunnerProcess.run(["merge-reports", reports.path("1.json"), reports.path("2.json")], in: folder,
                                                     environment: environment)
            #expect(honest.exitCode == 0 && honest.stdout.contains("4 requests: 4 passed"), "\(honest.stdout)\n\(honest.stderr)")
            // The part that ran the rows.
            let parts = try ["1.json", "2.json"].map { name in
                (name, try #require(JSONSerialization.jsonObject(with: Data(try reports.text(name).utf8)) as? [String: Any]))
            }
            let (part, read) = try #require(parts.first { _, report in
                ((report["plan"] as? [String: Any])?["part"] as? [String: Any])?["files"] as? [String] == ["requests/a.yaml"]
            })
            var report = read
            var records = try #require(report["requests"] as? [[String: Any]])
            records.removeLast()
            var summary = try #require(report["summary"] as? [String: Any])
            (summary["total"], summary["passed"]) = (records.count, records.count)
            (report["requests"], report["summary"]) = (records, summary)
            try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: reports.path("edited.json")))
            let other = part == "1.json" ? "2.json" : "1.json"
            let edited = try await RunnerProcess.run(["merge-reports", reports.path("edited.json"), reports.path(other)], in: folder,
                                                     environment: environment)
            #expect(edited.exitCode == 1, "\(edited.stdout)\n\(edited.stderr)")
            #expect(edited.stderr.contains("has 2 records of requests/a.yaml, which reports 3 at least"), "\(edited.stderr)")
        }
    }

    /// A part that stopped before it planned (an environment that does not exist in its job, exit 2; a bad --proxy or a
    /// --rerun-failed report that cannot be read, exit 1)
    /// is still a part: its errors are merged with the other parts' requests, and the merged run has its exit status.
    @Test(arguments: [(["--env", "nowhere"], Int32(2), "nowhere"), (["--env", "local", "--proxy", "http://127.0.0.1:99999"], 1, "99999"),
                      (["--env", "local", "--rerun-failed", "missing.json"], 1, "missing.json")])
    func aPartThatStoppedBeforePlanningIsMerged(options: [String], status: Int32, named: String) async throws {
        try await Self.withServer { server, reports in
            _ = try await Self.runner(["run", "requests", "--env", "local", "--shard", "1/2", "--report-json", reports.path("1.json")],
                                      server: server)
            let invalid = try await Self.runner(["run", "requests"] + options + ["--shard", "2/2", "--report-json", reports.path("2.json")],
                                                server: server)
            #expect(invalid.exitCode == status, "\(invalid.stdout)\n\(invalid.stderr)")
            // A part stopped after it planned (a bad --proxy) records its plan: it merges only with parts of that plan.
            let part = try reports.text("2.json")
            #expect(part.contains("\"plan\": {") == (named == "99999"), "\(part)")
            let merged = try await Self.runner(["merge-reports", reports.path("1.json"), reports.path("2.json"),
                                                "--report-json", reports.path("merged.json")], server: server)
            #expect(merged.exitCode == status, "\(merged.stdout)\n\(merged.stderr)")
            let report = try reports.text("merged.json")
            #expect(report.contains(named) && report.contains("\"exitStatus\": \(status)") && report.contains("requests/01-login.yaml"),
                    "\(report)")
            // The part that stopped tested nothing: a rerun of the merged report runs every file.
            let rerun = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("merged.json")],
                                              server: server)
            #expect(rerun.stdout.contains("reports a part that stopped before sending (exit \(status)): every file runs"), "\(rerun.stdout)")
        }
    }

    /// Every part stopped before sending by the same problem (an environment that does not exist in any job): the merged
    /// run has it once, as unsharded (trial helper-195 F1: once per part, counted so).
    @Test func aProblemEveryPartFoundBeforeSendingIsMergedOnce() async throws {
        try await Self.withServer { server, reports in
            for part in 1...3 {
                let stopped = try await Self.runner(["run", "requests", "--env", "nowhere", "--shard", "\(part)/3",
                                                     "--report-json", reports.path("\(part).json")], server: server)
                #expect(stopped.exitCode == 2, "\(stopped.stdout)\n\(stopped.stderr)")
            }
            let merged = try await Self.runner(["merge-reports"] + (1...3).map { reports.path("\($0).json") }
                                                   + ["--report-json", reports.path("merged.json")], server: server)
            #expect(merged.exitCode == 2 && merged.stdout.contains("nothing was sent: 1 problem"), "\(merged.stdout)\n\(merged.stderr)")
            let report = try reports.text("merged.json")
            #expect(report.contains("\"total\": 1,") && report.components(separatedBy: "nowhere").count > 1, "\(report)")
        }
    }

    /// What a stopped run did not run was not tested: `--bail`'s and a cancellation's skipped requests run again, and a
    /// report of a run that sent nothing (an invalid collection, exit 2) runs every file; neither is a green rerun.
    @Test func rerunFailedRunsWhatAStoppedRunDidNotRun() async throws {
        try await Self.withServer { server, reports in
            let bailed = try await Self.runner(["run", "requests", "--env", "local", "--bail", "--report-json", reports.path("bail.json")],
                                               server: server)
            #expect(bailed.exitCode == 4, "\(bailed.stdout)\n\(bailed.stderr)")
            let rerun = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("bail.json")],
                                              server: server)
            #expect(rerun.exitCode == 4, "\(rerun.stdout)\n\(rerun.stderr)")
            #expect(rerun.stdout.contains("--rerun-failed: 13 of 14 files from \(reports.path("bail.json"))"), "\(rerun.stdout)")
            #expect(rerun.stdout.contains("  requests/03-fails-with-token.yaml: failed in the report\n"
                + "  requests/04-fails.yaml: not run in the report (the run stopped)"), "\(rerun.stdout)")
            // An invalid collection's report: exit 2, and an errored case per error, which names no request.
            let invalid = #"{"version": 1, "summary": {"total": 1, "passed": 0, "failed": 0, "errored": 1, "skipped": 0, "exitStatus": 2}, "#
                + #""requests": [{"file": "requests/04-fails.yaml", "name": "requests/04-fails.yaml", "method": "", "url": "", "result": "errored", "#
                + #""error": {"location": "requests/04-fails.yaml:1:1", "message": "unknown key 'requst'"}}]}"#
            try Data(invalid.utf8).write(to: URL(fileURLWithPath: reports.path("invalid.json")))
            let everything = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("invalid.json")],
                                                   server: server)
            #expect(everything.stdout.contains("reports no request (exit 2): every file runs"), "\(everything.stdout)")
            #expect(everything.stdout.contains("requests: 1"), "\(everything.stdout)")
            // A run a second signal stopped at once reports only what it reached: the files it never reached run too.
            var document = try #require(JSONSerialization.jsonObject(with: Data(reports.text("bail.json").utf8)) as? [String: Any])
            var summary = try #require(document["summary"] as? [String: Any])
            summary["exitStatus"] = 143
            summary["total"] = 2
            // Written as such a run writes it: its counts are of the records it holds (here left out, as the reader allows).
            ["passed", "failed", "errored", "skipped"].forEach { summary[$0] = nil }
            document["summary"] = summary
            document["requests"] = try #require(document["requests"] as? [[String: Any]]).prefix(2).map { $0 }
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: reports.path("killed.json")))
            let killed = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("killed.json")],
                                               server: server)
            #expect(killed.stdout.contains("--rerun-failed: 13 of 14 files from"), "\(killed.stdout)")
            #expect(killed.stdout.contains("  requests/14-flow.yaml: not run in the report (the run stopped)"), "\(killed.stdout)")
            // A part a second signal stopped: only its own part's files it never reached run again, not the other part's.
            _ = try await Self.runner(["run", "requests", "--env", "local", "--shard", "1/2", "--report-json", reports.path("p1.json")],
                                      server: server)
            _ = try await Self.runner(["run", "requests", "--env", "local", "--shard", "2/2", "--report-json", reports.path("p2.json")],
                                      server: server)
            // So when it reached no request at all.
            let otherPart = try #require(JSONSerialization.jsonObject(with: Data(reports.text("p2.json").utf8)) as? [String: Any])
            let otherFiles = Set(try #require(otherPart["requests"] as? [[String: Any]]).compactMap { $0["file"] as? String })
            for reached in [1, 0] {
                var part = try #require(JSONSerialization.jsonObject(with: Data(reports.text("p1.json").utf8)) as? [String: Any])
                var partSummary = try #require(part["summary"] as? [String: Any])
                (partSummary["exitStatus"], partSummary["total"]) = (143, reached)
                ["passed", "failed", "errored", "skipped"].forEach { partSummary[$0] = nil }
                part["summary"] = partSummary
                part["requests"] = try #require(part["requests"] as? [[String: Any]]).prefix(reached).map { $0 }
                try JSONSerialization.data(withJSONObject: part).write(to: URL(fileURLWithPath: reports.path("p1-killed.json")))
                let partRerun = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("p1-killed.json")],
                                                      server: server)
                #expect(partRerun.stdout.contains("not run in the report (the run stopped)"), "\(reached): \(partRerun.stdout)")
                #expect(!otherFiles.isEmpty && !otherFiles.contains { partRerun.stdout.contains("  \($0): ") }, "\(partRerun.stdout)")
            }
            // A run stopped before sending by another error (a bad --proxy, exit 1) tested nothing either.
            document["requests"] = [[String: Any]]()
            summary["exitStatus"] = 1
            summary["total"] = 0
            document["summary"] = summary
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: reports.path("proxy.json")))
            let proxy = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("proxy.json")],
                                              server: server)
            #expect(proxy.stdout.contains("reports no request (exit 1): every file runs"), "\(proxy.stdout)")
        }
    }

    @Test func rerunFailedRunsTheFailuresAndTheFileWhoseCaptureOneReads() async throws {
        try await Self.withServer { server, reports in
            _ = try await Self.runner(["run", "requests", "--env", "local", "--report-json", reports.path("first.json")], server: server)
            let rerun = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("first.json"),
                                               "--report-json", reports.path("rerun.json")], server: server)
            #expect(rerun.exitCode == 4, "\(rerun.stdout)\n\(rerun.stderr)")
            #expect(rerun.stdout.contains("""
                --rerun-failed: 3 of 14 files from \(reports.path("first.json"))
                  requests/01-login.yaml: captures token for requests/03-fails-with-token.yaml
                  requests/03-fails-with-token.yaml: failed in the report
                  requests/04-fails.yaml: failed in the report
                """), "\(rerun.stdout)")
            #expect(try ScenarioRun.jsonRequests(reports.text("rerun.json")).compactMap { $0["file"] as? String } == [
                "requests/01-login.yaml", "requests/03-fails-with-token.yaml", "requests/04-fails.yaml",
            ])
            // The same collection named by its absolute path (a rerun from another directory) finds the same files.
            let absolute = ScenarioRun.folder("shards").appendingPathComponent("requests").path
            let byAbsolutePath = try await Self.runner(["run", absolute, "--env", "local", "--rerun-failed", reports.path("first.json")],
                                                       server: server)
            // A report written through a symbolic link of another name (`reqs` → `requests`) finds the files it leads to.
            let linked = FileManager.default.temporaryDirectory.appendingPathComponent("runner-rerun-link-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: linked) }
            try FileManager.default.createSymbolicLink(atPath: linked.appendingPathComponent("reqs").path, withDestinationPath: absolute)
            let environment = ["NO_COLOR": "1", "TEST_SERVER_PORT": String(server.port)]
            let environments = ScenarioRun.folder("shards").appendingPathComponent("environments").path
            _ = try await RunnerProcess.run(["run", "reqs", "--env", "local", "--environments", environments, "--report-json",
                                             reports.path("linked.json")], in: linked, environment: environment)
            let throughLink = try await RunnerProcess.run(["run", absolute, "--env", "local", "--rerun-failed", reports.path("linked.json")],
                                                          in: linked, environment: environment)
            #expect(throughLink.stdout.contains("--rerun-failed: 3 of 14 files from"), "\(throughLink.stdout)\n\(throughLink.stderr)")
            #expect(byAbsolutePath.exitCode == 4 && byAbsolutePath.stdout.contains("--rerun-failed: 3 of 14 files from")
                    && byAbsolutePath.stdout.contains("\(absolute)/04-fails.yaml: failed in the report"),
                    "\(byAbsolutePath.stdout)\n\(byAbsolutePath.stderr)")
            // A report with nothing failed runs nothing; one whose failed files are gone names them.
            let passing = try await Self.runner(["run", "requests/05-alone.yaml", "--env", "local", "--report-json", reports.path("ok.json")],
                                                server: server)
            #expect(passing.exitCode == 0)
            let nothing = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("ok.json")], server: server)
            #expect(nothing.exitCode == 0 && nothing.stdout.contains("nothing failed"), "\(nothing.stdout)")
            let report = try reports.text("first.json").replacingOccurrences(of: "requests/04-fails.yaml", with: "requests/04-gone.yaml")
            try Data(report.utf8).write(to: URL(fileURLWithPath: reports.path("edited.json")))
            let gone = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("edited.json")],
                                             server: server)
            #expect(gone.stdout.contains("requests/04-gone.yaml: failed in the report, but is not in this collection"), "\(gone.stdout)")
            // A request a user skipped as `cancelled`, in a run no signal cancelled, is no request the run stopped before.
            var skipping = try #require(JSONSerialization.jsonObject(with: Data(reports.text("first.json").utf8)) as? [String: Any])
            var records = try #require(skipping["requests"] as? [[String: Any]])
            let alone = try #require(records.firstIndex { $0["file"] as? String == "requests/05-alone.yaml" && $0["result"] as? String == "passed" })
            records[alone].merge(["result": "skipped", "skipReason": "cancelled", "status": NSNull(), "durationMs": NSNull()]) { $1 }
            var counts = try #require(skipping["summary"] as? [String: Any])
            counts["passed"] = try #require(counts["passed"] as? Int) - 1
            counts["skipped"] = try #require(counts["skipped"] as? Int) + 1
            (skipping["requests"], skipping["summary"]) = (records, counts)
            try JSONSerialization.data(withJSONObject: skipping).write(to: URL(fileURLWithPath: reports.path("user-skip.json")))
            let skippedByUser = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("user-skip.json")],
                                                      server: server)
            #expect(skippedByUser.stdout.contains("--rerun-failed: 3 of 14 files from") && !skippedByUser.stdout.contains("05-alone"),
                    "\(skippedByUser.stdout)\n\(skippedByUser.stderr)")
            // A file whose text changed since the report (its hash differs) still runs, and is named.
            var document = try #require(JSONSerialization.jsonObject(with: Data(reports.text("first.json").utf8)) as? [String: Any])
            var plan = try #require(document["plan"] as? [String: Any])
            plan["files"] = try #require(plan["files"] as? [[String: Any]]).map { file in
                var file = file
                if file["path"] as? String == "requests/04-fails.yaml" { file["hash"] = "0000000000000000" }
                return file
            }
            document["plan"] = plan
            try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: reports.path("changed.json")))
            let changed = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("changed.json")],
                                                server: server)
            #expect(changed.exitCode == 4, "\(changed.stdout)\n\(changed.stderr)")
            #expect(changed.stdout.contains("  requests/04-fails.yaml: failed in the report, and changed since the report\n"),
                    "\(changed.stdout)")
            #expect(!changed.stdout.contains("requests/04-fails.yaml: changed"), "\(changed.stdout)")
            #expect(!changed.stdout.contains("requests/03-fails-with-token.yaml: changed"), "\(changed.stdout)")
            // A report none of whose files is in this collection is a wrong path: nothing runs, and the status says so.
            let other = try reports.text("ok.json").replacingOccurrences(of: "requests/05-alone.yaml", with: "elsewhere/05-alone.yaml")
            try Data(other.utf8).write(to: URL(fileURLWithPath: reports.path("other.json")))
            let elsewhere = try await Self.runner(["run", "requests", "--env", "local", "--rerun-failed", reports.path("other.json"),
                                                   "--report-json", reports.path("elsewhere.json")], server: server)
            #expect(elsewhere.exitCode == 1, "\(elsewhere.stdout)\n\(elsewhere.stderr)")
            #expect(elsewhere.stdout.contains("no file of \(reports.path("other.json")) is in this collection"),
                    "\(elsewhere.stdout)")
            // Its report is not a green empty run: it says why, with the status.
            let written = try reports.text("elsewhere.json")
            #expect(written.contains("\"exitStatus\": 1") && written.contains("no file of"), "\(written)")
        }
    }
}
