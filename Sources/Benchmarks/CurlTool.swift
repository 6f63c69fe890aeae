import Foundation

/// curl, the hand-written client users compare with: one process sending the N GETs from a `-K` config file,
/// one after another over one connection, or with `--parallel --parallel-max J`.
struct CurlTool: Sendable {
    /// Path of the curl executable.
    let executable: String
    /// Where the config files are written.
    let scratch: URL

    /// curl on PATH (or in /usr/bin), or nil when it is not installed.
    static func find(scratch: URL) -> CurlTool? {
        findExecutable("curl", extraDirectories: ["/usr/bin", "/usr/local/bin"]).map { CurlTool(executable: $0, scratch: scratch) }
    }

    /// Sends `count` GETs of `url` (`--fail`: any status of 400 or more is an error; `--insecure` for https, as the
    /// runner's `insecure: true`), with `jobs` transfers at once when above 1; fails unless curl exits 0.
    func run(url: String, count: Int, jobs: Int) throws -> ChildMeasurement {
        let config = scratch.appendingPathComponent("curl-\(count).config")
        if !FileManager.default.fileExists(atPath: config.path) {
            try CollectionGenerator.write(String(repeating: "url = \"\(url)\"\noutput = \"/dev/null\"\n", count: count), to: config.path)
        }
        let arguments = ["--silent", "--show-error", "--fail", "--config", config.path]
            + (url.hasPrefix("https:") ? ["--insecure"] : [])
            + (jobs > 1 ? ["--parallel", "--parallel-max", String(jobs)] : [])
        let measurement = try ChildProcess.measure(executable, arguments)
        guard measurement.exitStatus == 0 else {
            throw BenchmarkError(description: "curl \(arguments.joined(separator: " ")) failed:\n\(measurement.errorTail)")
        }
        return measurement
    }
}
