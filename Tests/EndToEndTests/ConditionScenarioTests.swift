import Foundation
import TestSupport
import Testing

/// `when:`, `finally:`, `each:` over a captured list and seeded random values, run by `runner` against the test server
/// (scenario `Scenarios/conditions`).
@Suite struct ConditionScenarioTests {
    /// The names and results of the JSON report's requests, as `NAME RESULT`.
    static func results(_ output: ScenarioRun.Output) throws -> [String] {
        try ScenarioRun.jsonRequests(output.json).map { request in
            let flow = (request["flow"] as? String).map { "\($0) › " } ?? ""
            return "\(flow)\(request["name"] as? String ?? "?") \(request["result"] as? String ?? "?")"
        }
    }

    @Test(arguments: ["1", "4"]) func loopsAndConditionsRunInOrderAfterTheCapturingFile(jobs: String) async throws {
        let output = try await ScenarioRun.run("conditions", ["run", "requests", "--env", "local", "--jobs", jobs])
        #expect(output.result.exitCode == 0, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(try Self.results(output) == [
            "Listing passed",
            "Item [1] passed", "Item [2] passed", "Item [3] passed",
            "Conditions › Only in eu or us skipped", "Conditions › Without a token passed", "Conditions › In ap passed",
            "Conditions › Per admin [1] passed", "Conditions › Per admin [2] skipped",
        ], "\(output.result.stdout)")
        let requests = try ScenarioRun.jsonRequests(output.json)
        try #require(requests.count == 9)
        #expect(requests[4]["skipReason"] as? String == #"when "{{ region }}" is in ["eu","us"]: was "ap""#)
        #expect(requests[8]["skipReason"] as? String == #"when "{{ role }}" is equal to "admin": was "viewer""#)
        // The three items after the listing that captured them, in order (with --jobs 4 too), each with its index.
        let items = output.received.filter { $0.path == "/echo" && $0.query("id") != nil }
        #expect(items.map { "\($0.query("id") ?? "")#\($0.query("n") ?? "")" } == ["11#1", "12#2", "13#3"])
        let listing = try #require(output.received.firstIndex { $0.method == "POST" })
        #expect(output.received.firstIndex { $0.query("id") != nil }.map { $0 > listing } == true)
        #expect(output.received.compactMap { $0.query("step") } == ["no-token", "ap", "user-7-1"])
    }

    @Test func aFlowWhoseMiddleStepFailsStillDeletesWhatItCreated() async throws {
        let output = try await ScenarioRun.run("conditions", ["run", "cleanup/flow.yaml", "--env", "local"])
        #expect(output.result.exitCode == 4, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(try Self.results(output) == [
            "Thing › Create passed", "Thing › Check failed", "Thing › Never skipped", "Thing › Delete passed",
            "Thing › Delete the other skipped",
        ])
        #expect(output.received.contains { $0.method == "DELETE" && $0.path == "/things/1" })
        #expect(output.things.isEmpty, "the server still holds \(output.things)")
        #expect(output.result.stdout.contains(#"SKIP   Thing › Delete the other  DELETE /things/{{ otherId }}  (when "{{ otherId }}" is present: was absent)"#),
                "\(output.result.stdout)")
    }

    /// The stalled step, under way when SIGTERM comes, is given `answerGrace` (5 s) to answer, then abandoned; the cleanup
    /// deletes what the first step created.
    @Test func aFirstSIGTERMStillRunsTheCleanupSteps() async throws {
        let output = try await ScenarioRun.run("conditions", ["run", "cleanup/stalls.yaml", "--env", "local"]) { pid, server in
            guard server.waitForRequest("/stall", whileRunning: pid) else { return }
            kill(pid, SIGTERM)
        }
        #expect(output.result.exitCode == 143, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(try Self.results(output) == [
            "Stalled thing › Create passed", "Stalled thing › Stall skipped", "Stalled thing › Delete passed",
        ])
        #expect(output.things.isEmpty, "the server still holds \(output.things)")
    }

    @Test func theSameSeedSendsTheSameRandomValuesAndTheSeedIsPrinted() async throws {
        func bodies(_ extra: [String]) async throws -> (body: String, stdout: String, json: String?, junit: String?) {
            let output = try await ScenarioRun.run("conditions", ["run", "random", "--env", "local"] + extra)
            #expect(output.result.exitCode == 0, "\(output.result.stdout)\n\(output.result.stderr)")
            let body = try #require(output.received.first { $0.path == "/echo" }?.bodyText)
            // The time is not random: compare everything else.
            let random = try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]).filter { $0.key != "at" }
            return (random.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
                    output.result.stdout, output.json, output.junit)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports = ["tap", "md", "html"].map { folder.appendingPathComponent("report.\($0)").path }
        let first = try await bodies(["--seed", "1234", "--report-tap", reports[0], "--report-markdown", reports[1],
                                      "--report-html", reports[2]])
        let second = try await bodies(["--seed", "1234"])
        #expect(first.body == second.body)
        // Every report records the seed.
        #expect(first.junit?.contains(#"<property name="seed" value="1234"/>"#) == true, "\(first.junit ?? "no JUnit report")")
        #expect(first.json?.contains("\"seed\": 1234") == true, "\(first.json ?? "no JSON report")")
        for path in reports {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("random values from seed 1234"), "\(path): \(text)")
        }
        #expect(first.body.contains("@example.com"), "\(first.body)")
        #expect(first.stdout.contains("random values from seed 1234: --seed 1234 sends them again"), "\(first.stdout)")
        let unseeded = try await bodies([]), again = try await bodies([])
        #expect(unseeded.body != again.body)
        let seed = try #require(unseeded.stdout.firstMatch(of: /random values from seed (\d+)/)?.1, "\(unseeded.stdout)")
        let replayed = try await bodies(["--seed", String(seed)])
        #expect(replayed.body == unseeded.body)
    }

    @Test func eachOverAValueThatIsNotAListIsAnErrorNamingIt() async throws {
        let output = try await ScenarioRun.run("conditions", ["run", "bad/not-a-list.yaml", "--env", "local"])
        #expect(output.result.exitCode == 3, "\(output.result.stdout)\n\(output.result.stderr)")
        #expect(output.result.stdout.contains("""
            bad/not-a-list.yaml:5:11: error: each: '{{ region }}' is a string, not a list
            """), "\(output.result.stdout)")
    }
}
