import DemoAPICore
import Foundation

/// `demo-api [--port N]`: serves the demo API on 127.0.0.1 until SIGINT or SIGTERM.
@main
struct DemoAPICommand {
    /// Parses the port, starts the server, prints its URL on one line and stops cleanly on a signal.
    static func main() async {
        guard let port = port(from: Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(Data("usage: demo-api [--port N]   (N from 0 to 65535; 0 picks a free port)\n".utf8))
            exit(1)
        }
        TerminationSignal.install()
        do {
            let server = try await DemoServer.start(port: port)
            FileHandle.standardOutput.write(Data("listening on \(server.baseURL)\n".utf8))
            await TerminationSignal.next()
            try await server.stop()
        } catch {
            FileHandle.standardError.write(Data("demo-api: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The port of `--port N` or `--port=N` (0 when absent), or nil for any other arguments.
    static func port(from arguments: [String]) -> Int? {
        var value = "0"
        switch arguments.count {
        case 0: break
        case 1 where arguments[0].hasPrefix("--port="): value = String(arguments[0].dropFirst("--port=".count))
        case 2 where arguments[0] == "--port": value = arguments[1]
        default: return nil
        }
        guard let port = Int(value), (0...65_535).contains(port) else { return nil }
        return port
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
