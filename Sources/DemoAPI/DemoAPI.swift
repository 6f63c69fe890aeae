import DemoAPICore
import Foundation

/// `demo-api [--port N] [--tls-cert FILE --tls-key FILE]`: serves the demo API on 127.0.0.1 (over HTTPS with that
/// PEM certificate chain and key) until SIGINT or SIGTERM.
@main
struct DemoAPICommand {
    /// Parses the options, starts the server, prints its URL on one line and stops cleanly on a signal.
    static func main() async {
        guard let options = Options(arguments: Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(Data("usage: demo-api [--port N] [--tls-cert FILE --tls-key FILE]   (N from 0 to 65535; 0 picks a free port)\n".utf8))
            exit(1)
        }
        TerminationSignal.install()
        do {
            let server = try await DemoServer.start(port: options.port, tls: options.tls)
            FileHandle.standardOutput.write(Data("listening on \(server.baseURL)\n".utf8))
            await TerminationSignal.next()
            try await server.stop()
        } catch {
            FileHandle.standardError.write(Data("demo-api: \(error)\n".utf8))
            exit(1)
        }
    }

    /// What the command line asks for.
    struct Options {
        var port = 0
        var tls: DemoServer.TLSFiles?

        /// Parses `--port N` (0 when absent), `--tls-cert FILE` and `--tls-key FILE`, each also as `--name=value`
        /// and at most once, the two files together or not at all; nil for anything else.
        init?(arguments: [String]) {
            var values: [String: String] = [:]
            var remaining = arguments[...]
            while let argument = remaining.popFirst() {
                let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard let name = parts.first, ["--port", "--tls-cert", "--tls-key"].contains(name), values[name] == nil,
                      let value = parts.count == 2 ? parts[1] : remaining.popFirst()
                else { return nil }
                values[name] = value
            }
            guard let port = Int(values["--port"] ?? "0"), (0...65_535).contains(port) else { return nil }
            self.port = port
            switch (values["--tls-cert"], values["--tls-key"]) {
            case (nil, nil): tls = nil
            case (let certificate?, let key?): tls = DemoServer.TLSFiles(certificateChain: certificate, privateKey: key)
            default: return nil
            }
        }
    }
}

/// The ends of the pipe the signal handler writes one byte to (the self-pipe trick).
private let signalPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    return (ends[0], ends[1])
}()

/// SIGINT and SIGTERM turned into an awaitable event instead of ending the process.
enum TerminationSignal {
    /// Installs the handlers; a signal that arrives from now on is kept until `next()` reads it.
    static func install() {
        _ = signalPipe
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(signalPipe.write, &byte, 1)
            }
        }
    }

    /// Returns once SIGINT or SIGTERM has arrived, waiting on a thread of its own rather than the task pool.
    static func next() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                _ = read(signalPipe.read, &byte, 1)
                continuation.resume()
            }
        }
    }
}
