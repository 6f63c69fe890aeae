/// The release `runner` executable, run on generated collections and measured each time.
struct RunnerTool: Sendable {
    /// Path of the executable.
    let executable: String
    /// The generated `environments/` directory (holding `bench.yaml`).
    let environments: String

    /// `runner run COLLECTION --env bench --var port=PORT [--jobs N] EXTRA...` (`--env bench-https` for an https
    /// server); fails unless it exits 0.
    func run(_ collection: String, port: Int, scheme: String = "http", jobs: Int, extra: [String] = []) throws -> ChildMeasurement {
        try measured(["run", collection] + environmentArguments(port: port, scheme: scheme) + (jobs > 1 ? ["--jobs", String(jobs)] : [])
                     + extra)
    }

    /// `runner validate COLLECTION --env bench --var port=1`; fails unless it exits 0.
    func validate(_ collection: String) throws -> ChildMeasurement {
        try measured(["validate", collection] + environmentArguments(port: 1))
    }

    /// `runner --version`.
    func version() throws -> ChildMeasurement {
        try measured(["--version"])
    }

    private func environmentArguments(port: Int, scheme: String = "http") -> [String] {
        ["--env", scheme == "https" ? "bench-https" : "bench", "--environments", environments, "--var", "port=\(port)"]
    }

    private func measured(_ arguments: [String]) throws -> ChildMeasurement {
        let measurement = try ChildProcess.measure(executable, arguments)
        guard measurement.exitStatus == 0 else {
            let ending = measurement.exitStatus.map { "exited with \($0)" } ?? "ended by a signal"
            throw BenchmarkError(description: "runner \(arguments.joined(separator: " ")) \(ending):\n\(measurement.errorTail)")
        }
        return measurement
    }
}
