import CollectionFormat
import Foundation
import Running
import Testing
import TestSupport

/// `--shard I/N` and `--rerun-failed`: which planned files each part, or a rerun, takes.
@Suite struct ShardTests {
    /// 40 files: chains of files passing captures (`chain-C-K` reads what `chain-C-(K-1)` captured), a flow with rows
    /// whose row values read a capture, files that read an environment variable only, and a file whose `each:` loops
    /// over a capture.
    static func files() -> [String: String] {
        var files = ["environments/test.yaml": environment("variables: { region: eu }\n")]
        for chain in 1...5 {
            for link in 1...(chain + 1) {
                let reads = link == 1 ? "" : "  headers: { X-Prev: \"{{ c\(chain)_\(link - 1) }}\" }\n"
                files["requests/chain-\(chain)-\(link).yaml"] = "request:\n  url: /c\(chain)/\(link)\n\(reads)capture:\n  c\(chain)_\(link): $.id\n"
            }
        }
        for index in 1...12 {
            files["requests/alone-\(String(format: "%02d", index)).yaml"] = "request: { url: \"/alone/\(index)?r={{ region }}\" }\n"
        }
        files["requests/rows-login.yaml"] = "request: { url: /login }\ncapture: { rowToken: $.token }\n"
        files["requests/rows.yaml"] = """
            each: [{ n: "1-{{ rowToken }}" }, { n: "2" }, { n: "3" }]
            steps:
              - request: { url: "/rows/{{ n }}" }
              - request: { url: "/rows/{{ n }}/again" }
            """
        files["requests/zz-list.yaml"] = "request: { url: /list }\ncapture: { ids: \"$.ids[*]\" }\n"
        files["requests/zz-loop.yaml"] = "each: \"{{ ids }}\"\nrequest: { url: \"/items/{{ item }}\" }\n"
        return files
    }

    /// The planner of the collection's files in the order given by `order` (paths relative to `requests/`).
    static func planner(_ collection: TestCollection) async throws -> (RunPlanner, LoadedCollection) {
        let loaded = await collection.load()
        guard !loaded.hasErrors else { throw TestCollection.InvalidCollection(diagnostics: loaded.diagnostics) }
        return (RunPlanner(planning: loaded.files, selection: TagFilter(), scope: loaded.scope), loaded)
    }

    @Test func partsAreDisjointCoverTheRunKeepCapturesTogetherAndAreBalanced() async throws {
        let collection = try TestCollection(Self.files())
        defer { collection.remove() }
        let (planner, loaded) = try await Self.planner(collection)
        let all = loaded.files.map(\.path)
        // The components: each chain, the rows flow with its login, the loop with its listing, each lone file.
        let largest = 2 * 3 + 1
        for total in 1...8 {
            let parts = (1...total).map { planner.files(in: Shard(index: $0, total: total), environment: loaded.environment) }
            let paths = parts.flatMap { $0.map(\.path) }
            #expect(Set(paths).count == paths.count, "N=\(total): a file is in two parts")
            #expect(paths.sorted() == all.sorted(), "N=\(total): the parts do not cover the run")
            for part in parts {
                let inPart = Set(part.map(\.path))
                for chain in 1...5 where inPart.contains("requests/chain-\(chain)-1.yaml") {
                    #expect((1...(chain + 1)).allSatisfy { inPart.contains("requests/chain-\(chain)-\($0).yaml") })
                }
                #expect(inPart.contains("requests/rows.yaml") == inPart.contains("requests/rows-login.yaml"))
                #expect(inPart.contains("requests/zz-loop.yaml") == inPart.contains("requests/zz-list.yaml"))
                // Within a part, files keep the run order.
                #expect(part.map(\.path) == all.filter(inPart.contains))
            }
            let loads = parts.map { RunPlanner(planning: $0, selection: TagFilter(), scope: loaded.scope).requestCount }
            #expect((loads.max() ?? 0) - (loads.min() ?? 0) <= largest, "N=\(total): loads \(loads)")
            #expect(loads.reduce(0, +) == planner.requestCount)
        }
    }

    /// The environment's auth reads the login's capture only for the requests it applies to: a file with `auth: none`
    /// (or its own) does not follow the login into its part (trial helper-161); a file using it does.
    @Test func aFileThatDoesNotUseTheEnvironmentsAuthIsNotKeptWithItsCapturer() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("auth: { bearer: \"{{ token }}\" }\n"),
            "requests/00-login.yaml": "request: { url: /login }\nauth: none\ncapture: { token: $.token }\n",
            "requests/10-me.yaml": "request: { url: /me }\n",
            "requests/20-open.yaml": "request: { url: /open }\nauth: none\n",
            "requests/30-own.yaml": "request: { url: /own }\nauth: { bearer: abc-own-token }\n",
        ])
        defer { collection.remove() }
        let (planner, loaded) = try await Self.planner(collection)
        let parts = (1...3).map { planner.files(in: Shard(index: $0, total: 3), environment: loaded.environment).map(\.path) }
        #expect(parts == [["requests/00-login.yaml", "requests/10-me.yaml"], ["requests/20-open.yaml"], ["requests/30-own.yaml"]])
    }

    @Test func aPartCountBeyondTheComponentsLeavesTheLastPartsEmptyAtNoCost() async throws {
        let collection = try TestCollection(Self.files())
        defer { collection.remove() }
        let (planner, loaded) = try await Self.planner(collection)
        let billion = 1_000_000_000
        for index in 1...40 {
            let few = planner.files(in: Shard(index: index, total: 40), environment: loaded.environment).map(\.path)
            let many = planner.files(in: Shard(index: index, total: billion), environment: loaded.environment).map(\.path)
            #expect(many == few, "part \(index)")
        }
        #expect(planner.files(in: Shard(index: billion - 1, total: billion), environment: loaded.environment).isEmpty)
    }

    /// An `each:` over a list known before sending (an environment's) counts a request per element, as the run
    /// reports them; over a captured list, or a name a `with:` gives, it counts once; an empty list is one SKIP.
    @Test func knownListsCountTheirElements() async throws {
        let collection = try TestCollection([
            "environments/test.yaml": environment("variables: { regions: [eu, us, ap], none: [], ids: [1, 2] }\n"),
            "requests/a.yaml": "each: \"{{ regions }}\"\nrequest: { url: \"/r/{{ item }}\" }\n",
            "requests/b.yaml": "steps:\n  - request: { url: /x }\n  - each: \"{{ regions }}\"\n    request: { url: \"/r/{{ item }}\" }\n",
            "requests/c.yaml": "each: \"{{ none }}\"\nrequest: { url: /n }\n",
            "requests/d.yaml": "request: { url: /ids }\ncapture: { ids: \"$.ids\" }\n",
            "requests/e.yaml": "each: \"{{ ids }}\"\nrequest: { url: \"/i/{{ item }}\" }\n",
        ])
        defer { collection.remove() }
        let (planner, loaded) = try await Self.planner(collection)
        #expect(planner.requestCount == 3 + (1 + 3) + 1 + 1 + 1)
        #expect(loaded.requestCount() == planner.requestCount)
        let summary = await CollectionRun(collection: loaded, options: RunOptions(),
                                          transport: ScriptedLoader([], fallback: .json(#"{"ids":[5]}"#))).run()
        #expect(summary.total == planner.requestCount)
    }

    @Test func theSameFilesGiveTheSamePartsWhateverOrderTheyWereWrittenOrTouchedIn() async throws {
        let collection = try TestCollection(Self.files())
        defer { collection.remove() }
        // The same files written one by one in the opposite order (the directory lists them in another order), then
        // touched.
        let other = try TestCollection([:])
        defer { other.remove() }
        for (path, text) in Self.files().sorted(by: { $0.key > $1.key }) {
            let url = other.root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -Double(text.count))],
                                                  ofItemAtPath: url.path)
        }
        let (planner, loaded) = try await Self.planner(collection)
        let (otherPlanner, otherLoaded) = try await Self.planner(other)
        for total in [2, 3, 5] {
            for index in 1...total {
                let shard = Shard(index: index, total: total)
                #expect(planner.files(in: shard, environment: loaded.environment).map(\.path)
                        == otherPlanner.files(in: shard, environment: otherLoaded.environment).map(\.path))
            }
        }
    }

    @Test func aRerunTakesTheFailedFilesAndTheFilesWhoseCapturesTheyRead() async throws {
        let collection = try TestCollection(Self.files())
        defer { collection.remove() }
        let (planner, loaded) = try await Self.planner(collection)
        let rerun = planner.rerun(["requests/chain-3-3.yaml", "requests/alone-04.yaml", "requests/gone.yaml", "requests/alone-04.yaml"],
                                  environment: loaded.environment)
        #expect(rerun.files.map(\.path) == [
            "requests/alone-04.yaml", "requests/chain-3-1.yaml", "requests/chain-3-2.yaml", "requests/chain-3-3.yaml",
        ])
        #expect(rerun.reasons == [
            "requests/alone-04.yaml: failed in the report",
            "requests/chain-3-1.yaml: captures c3_1 for requests/chain-3-2.yaml",
            "requests/chain-3-2.yaml: captures c3_2 for requests/chain-3-3.yaml",
            "requests/chain-3-3.yaml: failed in the report",
        ])
        #expect(rerun.missing == ["requests/gone.yaml: failed in the report"])
        // A file skipped for a capture a failed request did not make is run again too, with what it reads.
        let missed = planner.rerun(["requests/chain-3-1.yaml"], missedCaptures: ["requests/chain-3-2.yaml"], environment: loaded.environment)
        #expect(missed.reasons == [
            "requests/chain-3-1.yaml: failed in the report",
            "requests/chain-3-2.yaml: skipped in the report: a capture it needs failed",
        ])
    }

    @Test(arguments: [("2/4", 2, 4), ("1/1", 1, 1), (" 3 / 8 ", 3, 8), ("01/3", 1, 3)])
    func shardsParse(text: String, index: Int, total: Int) throws {
        #expect(try Shard.parse(text).get() == Shard(index: index, total: total))
    }

    @Test(arguments: ["0/4", "5/4", "2", "a/b", "1/0", "1/2/3", "", "+1/4", "1/+4", "-1/4"])
    func badShardsAreRefused(text: String) {
        guard case .failure(let problem) = Shard.parse(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
        #expect(problem.message.contains("I/N") || problem.message.contains("from 1 to N"))
    }

    /// A number past the largest integer is too large, not a different syntax.
    @Test func aPartCountPastTheLargestIntegerSaysSo() {
        guard case .failure(let problem) = Shard.parse("1/99999999999999999999") else { Issue.record("accepted"); return }
        #expect(problem.message == "'1/99999999999999999999': I must be from 1 to N, and N at most \(Int.max)")
        // I past it, N not: I is named (trial helper-165).
        guard case .failure(let index) = Shard.parse("99999999999999999999/4") else { Issue.record("accepted"); return }
        #expect(index.message == "'99999999999999999999/4': I must be from 1 to N, and N at most \(Int.max): I is past it")
        // What is wrong is said (trial helper-166).
        for (text, message) in [("5/4", "'5/4': I must be from 1 to N, and N at least 1: 5 is past 4"),
                                ("+1/4", "'+1/4' is not I/N, such as 2/4: write the numbers without a sign")] {
            guard case .failure(let problem) = Shard.parse(text) else { Issue.record("\(text) accepted"); continue }
            #expect(problem.message == message)
        }
    }
}
