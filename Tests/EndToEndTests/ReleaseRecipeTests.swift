import Foundation
import Testing
import YAML

/// The Dockerfile, the GitHub Action and the release workflow cannot run here (no Docker engine, no GitHub): these
/// tests check that what they run exists in the repository and fits together. `DistributionTests` runs what they
/// build, `ActionTests` the action's scripts.
@Suite struct ReleaseRecipeTests {
    /// A repository file's text.
    private static func text(_ path: String) throws -> String {
        try String(contentsOf: Repository.url(path), encoding: .utf8)
    }

    /// A repository YAML file's root node.
    private static func yaml(_ path: String) throws -> Node {
        try #require(try YAMLParser.parse(text(path)))
    }

    /// Whether a repository file is an executable script.
    private static func isScript(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: Repository.url(path).path)
    }

    /// The Dockerfile's instructions, stage by stage: each stage's `FROM` line, then its other lines.
    private static func dockerStages() throws -> [[String]] {
        var stages: [[String]] = []
        var continued = ""
        for line in try text("Dockerfile").split(separator: "\n").map(String.init) where !line.hasPrefix("#") {
            if line.hasSuffix("\\") {
                continued += line.dropLast() + " "
                continue
            }
            let instruction = (continued + line).trimmingCharacters(in: .whitespaces)
            continued = ""
            guard !instruction.isEmpty else { continue }
            if instruction.hasPrefix("FROM ") { stages.append([]) }
            stages[stages.count - 1].append(instruction)
        }
        return stages
    }

    @Test func theDockerfileBuildsWithTheDistScriptAndRunsFromDebianSlimWithCACertificates() throws {
        let stages = try Self.dockerStages()
        try #require(stages.count == 2)
        let (build, runtime) = (stages[0], stages[1])
        #expect(build[0].hasPrefix("FROM swift:6") && build[0].hasSuffix(" AS build"), "\(build[0])")
        #expect(runtime[0] == "FROM debian:bookworm-slim", "the runtime is the base scripts/debian-root makes for DistributionTests")

        let buildCommands = build.filter { $0.hasPrefix("RUN ") }.joined(separator: " ")
        let scripts = buildCommands.matches(of: /\.\/(scripts\/[a-z-]+)/).map { String($0.output.1) }
        #expect(scripts == ["scripts/dist"], "\(buildCommands)")
        #expect(scripts.allSatisfy(Self.isScript))
        #expect(buildCommands.contains("dist/runner-*.tar.gz"))
        #expect(try Self.text("scripts/dist").contains("dist/$name.tar.gz"), "the Dockerfile unpacks the tarball scripts/dist writes")

        #expect(runtime.contains { $0.hasPrefix("RUN ") && $0.contains("install") && $0.contains("ca-certificates") })
        let copy = try #require(runtime.first { $0.hasPrefix("COPY --from=") })
        let copied = copy.split(separator: " ").map(String.init)
        #expect(copied == ["COPY", "--from=build", "/release/runner", "/usr/local/bin/runner"], "\(copy)")
        #expect(runtime.contains("ENTRYPOINT [\"/usr/local/bin/runner\"]"))
        #expect(runtime.contains("RUN [\"/usr/local/bin/runner\", \"--version\"]"), "the image build runs the binary once")

        let ignored = try Self.text(".dockerignore").split(separator: "\n")
        #expect(ignored.contains(".build") && ignored.contains("dist"), "the build context leaves out local builds")
    }

    @Test func theActionRunsItsScriptsWithEveryInputAndKeepsTheReportsWhenTheRunFails() throws {
        let action = try Self.yaml("action.yml")
        let inputs = try #require(action["inputs"]?.mapping).map { $0.key.scalarText ?? "" }
        #expect(action["runs"]?["using"]?.scalarText == "composite")
        let steps = try #require(action["runs"]?["steps"]?.sequence).map { $0 }
        let text = try Self.text("action.yml")

        // Every input is declared once and used; every input used is declared.
        let used = Set(text.matches(of: /inputs\.([a-z-]+)/).map { String($0.output.1) })
        #expect(used == Set(inputs), "declared \(inputs), used \(used.sorted())")

        // The shell steps are the scripts ActionTests runs, and the run step passes what scripts/action/run reads.
        let shellSteps = steps.filter { $0["run"] != nil }
        #expect(shellSteps.compactMap { $0["run"]?.scalarText } == [#""$GITHUB_ACTION_PATH/scripts/action/install""#,
                                                                    #""$GITHUB_ACTION_PATH/scripts/action/run""#])
        #expect(Self.isScript("scripts/action/install") && Self.isScript("scripts/action/run"))
        let runScript = try Self.text("scripts/action/run")
        for variable in try #require(shellSteps.last?["env"]?.mapping).map({ $0.key.scalarText ?? "" }) {
            #expect(runScript.contains("${\(variable)"), "scripts/action/run does not read \(variable)")
        }

        // The reports are uploaded after the run step, also when it failed (not only on success).
        let upload = try #require(steps.last)
        #expect(upload["uses"]?.scalarText?.hasPrefix("actions/upload-artifact@") == true)
        let condition = upload["if"]?.scalarText ?? ""
        #expect(condition.contains("!cancelled()") && !condition.contains("success()"), "\(condition)")
    }

    @Test func theReleaseWorkflowBuildsTheTarballOnTagsAndPublishesItWithItsChecksum() throws {
        let workflow = try Self.yaml(".github/workflows/release.yml")
        let tags = workflow["on"]?["push"]?["tags"]?.sequence.map { $0.compactMap(\.scalarText) }
        #expect(tags == ["v*"])
        let job = try #require(workflow["jobs"]?.mapping?.first?.value)
        let steps = try #require(job["steps"]?.sequence).map { $0 }
        let commands = steps.compactMap { $0["run"]?.scalarText }.joined(separator: "\n")
        #expect(commands.contains("./scripts/dist") && Self.isScript("scripts/dist"))
        #expect(commands.contains("VERSION"), "the tag is checked against VERSION")
        let files = steps.compactMap { $0["with"]?["files"]?.scalarText }.joined()
        #expect(files.contains("dist/runner-*.tar.gz\n") && files.contains("dist/runner-*.tar.gz.sha256"), "\(files)")
    }
}
