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
            let checksum = try await RunnerProcess.tool("sh", ["-c", "cd \"$0\" && sha256sum \"$1\"",
                                                                    scratch.tarball.deletingLastPathComponent().path,
                                                                    scratch.tarball.lastPathComponent])
            try Data(checksum.stdout.utf8).write(to: URL(fileURLWithPath: scratch.tarball.path + ".sha256"))
            return scratch
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// Runs one of the action's scripts with the step's environment.
        func step(_ script: String, _ environment: [String: String], in folder: URL = Repository.root) async throws -> RunnerProcess.Result {
            let base = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1", "RUNNER_DOWNLOAD_URL": releases.absoluteString]
            return try await RunnerProcess.run(program: Repository.url("scripts/action/\(script)"), [], in: folder,
                                               environment: base.merging(githubFiles) { $1 }.merging(environment) { $1 })
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

    @Test func aFailingRunEndsWithRunnersStatusAndKeepsItsReports() async throws {
        let scratch = try await Scratch.make()
        defer { scratch.remove() }
        let api = try await DemoServer.start()
        defer { Task { try? await api.stop() } }
        let collection = scratch.directory.appendingPathComponent("collection")
        try FileManager.default.createDirectory(at: collection.appendingPathComponent("requests"), withIntermediateDirectories: true)
        try Data("request: { url: \"http://127.0.0.1:\(api.port)/api/users\" }\nexpect: { status: 418 }\n".utf8)
            .write(to: collection.appendingPathComponent("requests/teapot.yaml"))
        let run = try await scratch.step("run", ["RUNNER_BINARY": try RunnerProcess.executable.path,
                                                 "RUNNER_REPORT_JUNIT": "reports/junit.xml"], in: collection)
        #expect(run.exitCode == 4, "\(run.stdout)\n\(run.stderr)")
        let junit = try String(contentsOf: collection.appendingPathComponent("reports/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure"), "\(junit)")
    }
}
