import Foundation

/// A server process on 127.0.0.1 that the benchmark sends requests to; `stop()` ends it.
final class LocalServer {
    /// A short name for the table: `demo-api`, `demo-api https` or `nginx`.
    let name: String
    /// "http", or "https" for a server with a self-signed certificate (which clients do not verify).
    let scheme: String
    /// The loopback port it listens on.
    let port: Int
    private let process: Process
    private let scratch: URL?

    private init(name: String, scheme: String = "http", port: Int, process: Process, scratch: URL?) {
        self.name = name
        self.scheme = scheme
        self.port = port
        self.process = process
        self.scratch = scratch
    }

    /// The server's process and its scratch directory, for stopping it from a signal handler.
    var leftovers: (process: pid_t, directory: URL?) { (process.processIdentifier, scratch) }

    /// The URL of the path every generated request asks for.
    var healthURL: String { "\(scheme)://127.0.0.1:\(port)\(CollectionGenerator.path)" }

    /// Ends the server with SIGTERM, waits for it and removes its scratch files.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    /// Starts the demo API on a free port, over HTTPS with the PEM certificate and key of `tls` when given, and
    /// reads the port from its `listening on URL` line.
    static func demoAPI(executable: String, tls: (certificate: String, privateKey: String)? = nil) throws -> LocalServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", "0"] + (tls.map { ["--tls-cert", $0.certificate, "--tls-key", $0.privateKey] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("listening on "),
              let port = URL(string: String(line.dropFirst("listening on ".count)))?.port
        else {
            if process.isRunning { process.terminate() }
            throw BenchmarkError(description: "\(executable) did not print 'listening on URL' (it printed '\(text)')")
        }
        return tls == nil ? LocalServer(name: "demo-api", port: port, process: process, scratch: nil)
            : LocalServer(name: "demo-api https", scheme: "https", port: port, process: process, scratch: nil)
    }

    /// Starts nginx with a temporary configuration that serves `{"status":"ok"}` as JSON on a free
    /// loopback port (over HTTPS with the PEM certificate and key of `tls` when given), or returns nil when nginx is
    /// not installed.
    static func nginx(tls: (certificate: String, privateKey: String)? = nil) throws -> LocalServer? {
        guard let executable = findExecutable("nginx", extraDirectories: ["/usr/sbin", "/sbin", "/usr/local/sbin"]) else {
            return nil
        }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("runner-bench-nginx-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        let document = scratch.appendingPathComponent("www" + CollectionGenerator.path)
        try FileManager.default.createDirectory(at: document.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"status":"ok"}"#.utf8).write(to: document)
        let port = try freeLoopbackPort()
        let configuration = scratch.appendingPathComponent("nginx.conf")
        try nginxConfiguration(scratch: scratch.path, port: port, tls: tls).write(to: configuration, atomically: false, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-p", scratch.path, "-c", configuration.path, "-e", scratch.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = LocalServer(name: tls == nil ? "nginx" : "nginx https", scheme: tls == nil ? "http" : "https", port: port,
                                 process: process, scratch: scratch)
        guard waitUntilAccepting(port: port, while: process) else {
            let log = (try? String(contentsOf: scratch.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            server.stop()
            throw BenchmarkError(description: "nginx did not start on port \(port): \(log)")
        }
        return server
    }

    /// One worker, no access log, keep-alive without a request limit, JSON by default; TLS with `tls`'s files.
    private static func nginxConfiguration(scratch: String, port: Int, tls: (certificate: String, privateKey: String)?) -> String {
        let listen = tls.map { "listen 127.0.0.1:\(port) ssl;\n        ssl_certificate \($0.certificate);\n        ssl_certificate_key \($0.privateKey);" }
            ?? "listen 127.0.0.1:\(port);"
        return """
        daemon off;
        worker_processes 1;
        pid \(scratch)/nginx.pid;
        error_log \(scratch)/error.log warn;
        events { worker_connections 1024; }
        http {
            access_log off;
            client_body_temp_path \(scratch)/client-body;
            proxy_temp_path \(scratch)/proxy;
            fastcgi_temp_path \(scratch)/fastcgi;
            uwsgi_temp_path \(scratch)/uwsgi;
            scgi_temp_path \(scratch)/scgi;
            keepalive_requests 1000000;
            default_type application/json;
            server {
                \(listen)
                root \(scratch)/www;
            }
        }

        """
    }

}

/// The first executable called `name` on PATH or in `extraDirectories`.
func findExecutable(_ name: String, extraDirectories: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
    return (path + extraDirectories).map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
