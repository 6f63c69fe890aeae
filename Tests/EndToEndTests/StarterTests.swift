import Foundation
import Testing

/// `runner schema` and `runner init`: what a team starts with.
@Suite struct StarterTests {
    private static let environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]

    /// Runs `runner` in a directory.
    private func runner(_ arguments: [String], in directory: URL) async throws -> RunnerProcess.Result {
        try await RunnerProcess.run(arguments, in: directory, environment: Self.environment)
    }

    /// A new empty directory, removed by the caller.
    private func emptyDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-starter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func schemaPrintsADraft2020SchemaForEachKindOfFile() async throws {
        var titles: [String] = []
        for arguments in [["schema"], ["schema", "environment"]] {
            let result = try await runner(arguments, in: Repository.root)
            #expect(result.exitCode == 0, "\(result.stderr)")
            let schema = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
            #expect((schema["$defs"] as? [String: Any])?.isEmpty == false)
            titles.append(schema["title"] as? String ?? "")
        }
        #expect(titles == ["runner request file", "runner environment file"])
        let wrongKind = try await runner(["schema", "requests"], in: Repository.root)
        #expect(wrongKind.exitCode == 1, "\(wrongKind.stdout)")
    }

    @Test func initWritesACollectionThatValidatesAtOnce() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let initialized = try await runner(["init"], in: directory)
        #expect(initialized.exitCode == 0, "\(initialized.stderr)")
        #expect(initialized.stdout.contains("wrote requests/"), "\(initialized.stdout)")

        let validated = try await runner(["validate", "requests/", "--env", "local"], in: directory)
        #expect(validated.exitCode == 0, "\(validated.stdout)\n\(validated.stderr)")
        #expect(validated.stdout.contains("valid with environment 'local'"), "\(validated.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".github/workflows/api.yml").path))

        // The schemas are what `runner schema` prints, and every YAML file's first line points at its kind's schema.
        for kind in ["request", "environment"] {
            let written = try String(contentsOf: directory.appendingPathComponent(".runner/\(kind).schema.json"), encoding: .utf8)
            #expect(written == (try await runner(["schema", kind], in: directory)).stdout)
        }
        for folder in ["requests", "environments"] {
            let files = try FileManager.default.subpathsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".yaml") }
            #expect(!files.isEmpty)
            for file in files {
                let url = directory.appendingPathComponent(folder).appendingPathComponent(file)
                let firstLine = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
                let prefix = "# yaml-language-server: $schema="
                #expect(firstLine.hasPrefix(prefix), "\(file)")
                let schema = url.deletingLastPathComponent().appendingPathComponent(String(firstLine.dropFirst(prefix.count)))
                #expect(schema.path.hasSuffix(folder == "requests" ? "request.schema.json" : "environment.schema.json"))
                #expect(FileManager.default.fileExists(atPath: schema.standardizedFileURL.path), "\(file): \(schema.path)")
            }
        }
    }

    @Test func initOverwritesNothingAndSaysWhichFilesExist() async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let local = directory.appendingPathComponent("team/environments/local.yaml")
        try FileManager.default.createDirectory(at: local.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("baseURL: http://127.0.0.1:9000\n".utf8).write(to: local)

        let result = try await runner(["init", "team"], in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("team/environments/local.yaml"), "\(result.stderr)")
        #expect(try String(contentsOf: local, encoding: .utf8) == "baseURL: http://127.0.0.1:9000\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("team/requests").path),
                "nothing is written when a file exists")

        let fresh = try await runner(["init", "fresh/api"], in: directory)
        #expect(fresh.exitCode == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("cd fresh/api && runner validate requests/ --env local"), "\(fresh.stdout)")
        let spaced = try await runner(["init", "my api"], in: directory)
        #expect(spaced.stdout.contains("cd 'my api' && runner validate"), "a command that can be pasted: \(spaced.stdout)")
        let dashed = try await runner(["init", "--", "-x"], in: directory)
        #expect(dashed.stdout.contains("cd -- -x && runner validate"), "not an option of cd: \(dashed.stdout)")
        for odd in ["", "a\nb"] {
            let refused = try await runner(["init", odd], in: directory)
            #expect(refused.exitCode == 1 && refused.stderr.contains("error: runner init needs a directory name"), "\(refused.stderr)")
        }
    }

    /// `runner init FILE`, or a path under a file: a clear error naming the file (not the system's "Not a
    /// directory"), exit 1, and nothing written.
    @Test(arguments: [("notes.txt", "'notes.txt' is a file"), ("notes.txt/api", "'notes.txt', above 'notes.txt/api', is a file")])
    func initIntoAFileSaysSoAndWritesNothing(_ target: String, _ message: String) async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("notes\n".utf8).write(to: directory.appendingPathComponent("notes.txt"))

        let result = try await runner(["init", target], in: directory)
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("error: runner init writes into a directory, but \(message), not a directory\n"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("could not be completed"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
        #expect(try String(contentsOf: directory.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes\n")
    }

    /// A file or a link to nothing where a starter folder goes, or a link to nothing where a starter file goes: found
    /// before anything is written (trial helper-199: the schemas were written, then init failed, and a second init
    /// refused for them).
    @Test(arguments: ["file at .github/workflows", "file at requests", "link at requests", "link at requests/01-health.yaml", "link at ."])
    func initWritesNothingWhenSomethingStandsInTheWay(_ obstacle: String) async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let parts = obstacle.split(separator: " at ").map(String.init)
        let place = parts[1] == "." ? directory.appendingPathComponent("api") : directory.appendingPathComponent("api/" + parts[1])
        try FileManager.default.createDirectory(at: place.deletingLastPathComponent(), withIntermediateDirectories: true)
        if parts[0] == "file" {
            try Data("x\n".utf8).write(to: place)
        } else {
            try FileManager.default.createSymbolicLink(atPath: place.path, withDestinationPath: directory.appendingPathComponent("nowhere").path)
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted()

        let result = try await runner(["init", "api"], in: directory)
        #expect(result.exitCode == 1)
        let said = parts[1].hasSuffix(".yaml") ? "these files exist:\n  api/\(parts[1])\n"
            : "'\(parts[1] == "." ? "api" : "api/" + parts[1])' is \(parts[0] == "file" ? "a file" : "a link to nothing"), "
                + "where runner init writes a folder of files"
        #expect(result.stderr.contains(said), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: directory.path).sorted() == before, "nothing written")
        // Once it is moved away, init writes every file.
        try FileManager.default.removeItem(at: place)
        let again = try await runner(["init", "api"], in: directory)
        #expect(again.exitCode == 0, "\(again.stderr)")
    }
}
