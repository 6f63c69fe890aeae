import DemoAPICore
import Foundation
import Testing

/// The GitHub Action's shell steps, `scripts/action/install` and `scripts/action/run`, run as the action runs them
/// against a release served from a file:// URL whose tarball holds the runner built here.
@Suite struct ActionTests {
    /// A scratch directory with a release laid out as GitHub serves one: `releases/vVERSION/NAME.tar.gz` and its
    /// `.sha256`, NAME being `Repository.releaseName`.
    struct Scratch {
        let directory: URL

        var releases: URL { directory.appendingPathComponent("releases") }
        var tarball: URL { releases.appendingPathComponent("v\(Repository.version)/\(Repository.releaseName).tar.gz") }

        /// The files GitHub gives a step: where outputs and PATH additions go, and its temporary directory.
        var githubFiles: [String: String] {
            ["GITHUB_OUTPUT": directory.appendingPathComponent("github-output").path,
             "GITHUB_PATH": directory.appendingPathComponent("github-path").path,
             "RUNNER_TEMP": directory.appendingPathComponent("runner-temp").path]
        }

        /// Packs the runner built here as the release tarball, with its checksum.
        static func make() async throws -> Scratch {
            let scratch = Scratch(directory: FileManager.default.temporaryDirectory.appendingPathComponent("runner-action-\(UUID().uuidString)"))
            let staging = scratch.directory.appendingPathComponent("staging/\(Repository.releaseName)")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: scratch.tarball.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: scratch.directory.appendingPathComponent("runner-temp"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try RunnerProcess.executable, to: staging.appendingPathComponent("runner"))
            try await RunnerProcess.tool("tar", ["-czf", scratch.tarball.path, "-C", staging.deletingLastPathComponent().path,
                                                      Repository.releaseName])
            try await scratch.writeChecksum()
            return scratch
        }

        /// Writes the tarball's `.sha256`, for what the tarball holds now.
        func writeChecksum() async throws {
            let checksum = try await RunnerProcess.tool("sh", ["-c", "cd \"$0\" && sha256sum \"$1\"",
                                                                    tarball.deletingLastPathComponent().path, tarball.lastPathComponent])
            try Data(checksum.stdout.utf8).write(to: URL(fileURLWithPath: tarball.path + ".sha256"))
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// Runs one of the action's scripts with the step's environment.
        func step(_ script: String, _ environment: [String: String], in folder: URL = Repository.root) async throws -> RunnerProcess.Result {
            let base = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1", "RUNNER_DOWNLOAD_URL": releases.absoluteString]
            return try await RunnerProcess.run(program: Repository.url("scripts/action/\(script)"), [], in: folder,
                                               environment: base.merging(githubFiles) { $1 }.merging(environment) { $1 })
        }

        /// A folder holding one request file, `requests/NAME.yaml` with `text`, to run the run step in.
        func collection(_ name: String, _ text: String) throws -> URL {
            let collection = directory.appendingPathComponent("collection")
            try FileManager.default.createDirectory(at: collection.appendingPathComponent("requests"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: collection.appendingPathComponent("requests/\(name).yaml"))
            return collection
        }

        /// The `path` output the install step wrote.
        func installedPath() throws -> String? {
            let output = try String(contentsOfFile: githubFiles["GITHUB_OUTPUT"]!, encoding: .utf8)
            return output.split(separator: "\n").first { $0.hasPrefix("path=") }.map { String($0.dropFirst("path=".count)) }
        }
    }

    @Test func installDownloadsChecksAndUnpacksTheReleaseAndPutsItOnThePath() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let install = try await scratch.step("install", [:])
        #expect(install.exitCode == 0, "\(install.stderr)")
        let path = try #require(try scratch.installedPath())
        #expect(path.hasPrefix(scratch.githubFiles["RUNNER_TEMP"]!))
        let version = try await RunnerProcess.run(program: URL(fileURLWithPath: path), ["--version"], in: Repository.root, environment: [:])
        #expect(version.stdout == Repository.version + "\n")
        let addedToPath = try String(contentsOfFile: scratch.githubFiles["GITHUB_PATH"]!, encoding: .utf8)
        #expect(addedToPath == URL(fileURLWithPath: path).deletingLastPathComponent().path + "\n")
    }

    @Test func installRefusesATarballThatDoesNotMatchItsChecksum() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let handle = try FileHandle(forWritingTo: scratch.tarball)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let install = try await scratch.step("install", [:])
        #expect(install.exitCode == 1)
        #expect(install.stderr.contains("does not match its checksum"), "\(install.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.githubFiles["RUNNER_TEMP"]!))?.isEmpty == true)
    }

    /// A release that checks out but cannot be unpacked, or whose binary cannot start here (a missing library, another
    /// architecture), fails the install step with an annotation, not the run after it (trial helper-199 #2, #5).
    @Test(arguments: ["not a tarball", "cannot start", "says nothing"])
    func installFailsWhenTheReleaseCannotBeUnpackedOrRun(_ release: String) async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        if release == "not a tarball" {
            try Data("garbage\n".utf8).write(to: scratch.tarball)
        } else {
            let staging = scratch.directory.appendingPathComponent("broken/\(Repository.releaseName)")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            let script = release == "says nothing" ? "#!/bin/sh\nexit 3\n"
                : "#!/bin/sh\necho 'runner: error while loading shared libraries: libyaml-0.so.2 (100%)' >&2\nexit 127\n"
            try Data(script.utf8).write(to: staging.appendingPathComponent("runner"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: staging.appendingPathComponent("runner").path)
            try await RunnerProcess.tool("tar", ["-czf", scratch.tarball.path, "-C", staging.deletingLastPathComponent().path,
                                                      Repository.releaseName])
        }
        try await scratch.writeChecksum()
        let install = try await scratch.step("install", [:])
        #expect(install.exitCode == 1)
        let said = switch release {
        case "not a tarball": "::error::runner: \(Repository.releaseName).tar.gz cannot be unpacked: "
        case "says nothing": "::error::runner: \(Repository.releaseName)/runner cannot run on this machine: its --version ended with status 3"
        default: "::error::runner: \(Repository.releaseName)/runner cannot run on this machine: runner: error while loading shared libraries: "
            + "libyaml-0.so.2 (100%25)"
        }
        #expect(install.stderr.contains(said), "\(install.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.githubFiles["GITHUB_OUTPUT"]!), "no path output")
    }

    /// The version as the action's ref is written (`v1.2.3`) names the release 1.2.3.
    @Test func installReadsAVersionWrittenWithAV() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let install = try await scratch.step("install", ["RUNNER_VERSION": "v" + Repository.version])
        #expect(install.exitCode == 0, "\(install.stderr)")
        #expect(try scratch.installedPath() != nil)
    }

    @Test func installSaysWhichReleaseItCannotDownload() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let install = try await scratch.step("install", ["RUNNER_VERSION": "99.0.0"])
        #expect(install.exitCode == 1)
        #expect(install.stderr.contains("cannot download \(scratch.releases.absoluteString)/v99.0.0/runner-99.0.0-linux-"), "\(install.stderr)")
    }

    @Test func runPassesTheInputsToRunnerAndWritesTheReports() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let api = try await DemoServer.start()
        defer { Task { try? await api.stop() } }
        #expect(try await scratch.step("install", [:]).exitCode == 0)
        let reports = scratch.directory.appendingPathComponent("reports")
        let run = try await scratch.step("run", [
            "RUNNER_BINARY": try #require(try scratch.installedPath()),
            "RUNNER_PATHS": "requests/auth\nrequests/users requests/misc",
            "RUNNER_ENV": "local",
            "RUNNER_VARS": "port=\(api.port)\nuserName=ford",
            "RUNNER_JOBS": "2",
            "RUNNER_EXCLUDE_TAGS": "slow",
            "RUNNER_REPORT_JUNIT": reports.appendingPathComponent("junit/report.xml").path,
            "RUNNER_REPORT_JSON": reports.appendingPathComponent("report.json").path,
            "RUNNER_REPORT_HTML": reports.appendingPathComponent("report.html").path,
            "GITHUB_STEP_SUMMARY": reports.appendingPathComponent("step-summary.md").path,
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("16 requests: 16 passed"), "\(run.stdout)")
        let junit = try String(contentsOf: reports.appendingPathComponent("junit/report.xml"), encoding: .utf8)
        #expect(junit.contains("tests=\"16\""), "\(junit)")
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("report.json").path))
        let html = try String(contentsOf: reports.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("runner report: passed"))
        // The job's summary page gets the Markdown summary without any setting.
        let summary = try String(contentsOf: reports.appendingPathComponent("step-summary.md"), encoding: .utf8)
        #expect(summary.contains("16 requests: 16 passed") && summary.contains("No failures or errors."), "\(summary)")
    }

    /// `vars` lines are read without the spaces around them (an indented block, `vars: >`), and `step-summary` is true or
    /// false in any case; another value is an error, not a summary silently left out (trial helper-199 #4).
    @Test(arguments: ["True", "FALSE", "yes"])
    func runReadsVarsWithoutSurroundingSpacesAndStepSummaryInAnyCase(_ stepSummary: String) async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let api = try await DemoServer.start()
        defer { Task { try? await api.stop() } }
        let collection = try scratch.collection("health", "request: { url: \"http://127.0.0.1:{{ port }}/api/health?q={{ q }}\" }\nexpect: { status: 200 }\n")
        let summary = scratch.directory.appendingPathComponent("step-summary.md")
        let run = try await scratch.step("run", ["RUNNER_BINARY": try RunnerProcess.executable.path, "RUNNER_REPORT_JUNIT": "",
                                                 "RUNNER_REPORT_HTML": "", "RUNNER_VARS": "  port=\(api.port)  \n\tq=a b\t\n",
                                                 "RUNNER_STEP_SUMMARY": stepSummary, "GITHUB_STEP_SUMMARY": summary.path],
                                         in: collection)
        if stepSummary == "yes" {
            #expect(run.exitCode == 1)
            #expect(run.stderr.contains("::error::runner: step-summary is 'yes': write true or false"), "\(run.stderr)")
            return
        }
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("/api/health?q=a%20b  200"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: summary.path) == (stepSummary == "True"))
    }

    @Test func aFailingRunEndsWithRunnersStatusAndKeepsItsReports() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let api = try await DemoServer.start()
        defer { Task { try? await api.stop() } }
        let collection = try scratch.collection("teapot", "request: { url: \"http://127.0.0.1:\(api.port)/api/users\" }\nexpect: { status: 418 }\n")
        let run = try await scratch.step("run", ["RUNNER_BINARY": try RunnerProcess.executable.path,
                                                 "RUNNER_REPORT_JUNIT": "reports/junit.xml"], in: collection)
        #expect(run.exitCode == 4, "\(run.stdout)\n\(run.stderr)")
        let junit = try String(contentsOf: collection.appendingPathComponent("reports/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure"), "\(junit)")
    }
}
