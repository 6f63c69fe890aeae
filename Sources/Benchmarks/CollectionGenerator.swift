import Foundation

/// Writes the benchmark's request collections into a temporary directory.
///
/// Every request file is a GET of `/api/health` (which the demo API and the nginx configuration both
/// answer with `{"status":"ok"}` and `Content-Type: application/json`) with three expectations (status,
/// a header, a JSONPath) and one capture. The environments `bench` (http) and `bench-https` (https, with
/// `insecure: true` for the benchmark's self-signed certificate) take the server's port as `--var port=N`.
struct CollectionGenerator: Sendable {
    /// The directory that holds `environments/` and the generated collections.
    let root: URL

    /// The path every generated request asks for, on either server.
    static let path = "/api/health"

    /// Creates a fresh temporary directory with the `bench` environment in it.
    static func makeTemporary() throws -> CollectionGenerator {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("runner-bench-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        let environments = root.appendingPathComponent("environments")
        try FileManager.default.createDirectory(at: environments, withIntermediateDirectories: true)
        try write("baseURL: http://127.0.0.1:{{ port }}\n", to: environments.appendingPathComponent("bench.yaml").path)
        try write("baseURL: https://127.0.0.1:{{ port }}\noptions: { insecure: true }\n",
                  to: environments.appendingPathComponent("bench-https.yaml").path)
        return CollectionGenerator(root: root)
    }

    /// Writes `count` request files into `root/name` (ten per directory level of 1,000) and returns its path.
    func collection(named name: String, count: Int) throws -> String {
        let directory = root.appendingPathComponent(name)
        let width = String(count - 1).count
        for index in 0..<count {
            let number = String(repeating: "0", count: width - String(index).count) + String(index)
            let folder = directory.appendingPathComponent("group-\(index / 1_000)")
            if index % 1_000 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            try Self.write(Self.requestFile(number: number), to: folder.appendingPathComponent("request-\(number).yaml").path)
        }
        return directory.path
    }

    /// One request file's text.
    static func requestFile(number: String) -> String {
        """
        name: Health check \(number)
        request:
          url: \(path)
        expect:
          status: 200
          headers:
            Content-Type: { contains: application/json }
          body:
            $.status: ok
        capture:
          healthStatus: $.status

        """
    }

    /// Writes `text` to a new file with stdio: Foundation's `Data.write` syncs every file to disk, which
    /// makes generating 10,000 files take minutes on a busy disk.
    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchmarkError(description: "cannot create \(path): errno \(errno)") }
        let written = fputs(text, file)
        guard fclose(file) == 0, written >= 0 else { throw BenchmarkError(description: "cannot write \(path): errno \(errno)") }
    }

    /// Removes the directory and everything generated in it.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
