import Foundation
import Synchronization
import TestSupport
import Testing

/// 10,000 requests in one run: the runner's memory stays flat and its open files do not grow; the test
/// server's sockets are all closed after it stops.
@Suite struct SoakTests {
    static let files = 100, stepsPerFile = 100, jobs = 4
    static var total: Int { files * stepsPerFile }

    /// A collection of `files` flows of `stepsPerFile` steps each, in a new temporary folder.
    private static func makeCollection() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runner-soak-\(UUID().uuidString)")
        let requests = root.appendingPathComponent("requests"), environments = root.appendingPathComponent("environments")
        try FileManager.default.createDirectory(at: requests, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: environments, withIntermediateDirectories: true)
        try Data(#"baseURL: "http://127.0.0.1:{{ $env.TEST_SERVER_PORT }}""#.utf8)
            .write(to: environments.appendingPathComponent("local.yaml"))
        let steps = (0..<stepsPerFile).map { step in
            "  - { name: s\(step), request: { url: \"/status/200?step=\(step)\" }, expect: { status: 200 } }"
        }.joined(separator: "\n")
        for file in 0..<files {
            let name = String(format: "f%03d.yaml", file)
            try Data("name: flow \(file)\nsteps:\n\(steps)\n".utf8).write(to: requests.appendingPathComponent(name))
        }
        return root
    }

    /// The child's resident memory (kB) and open file descriptors, read from /proc.
    struct Sample: Sendable, CustomStringConvertible {
        var requestsDone: Int
        var residentKB: Int
        var openFiles: Int
        var description: String { "after \(requestsDone) requests: \(residentKB) kB resident, \(openFiles) open files" }

        /// Reads `/proc/PID/status` and `/proc/PID/fd`; nil when the process has gone.
        static func take(pid: Int32, requestsDone: Int) -> Sample? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                  let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }),
                  let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { return nil }
            return Sample(requestsDone: requestsDone, residentKB: kilobytes, openFiles: fds.count)
        }
    }

    /// The inodes of TCP sockets (IPv4 and IPv6) with `port` at either end, from /proc/net.
    private static func socketInodes(port: Int) -> Set<String> {
        let hexPort = String(format: ":%04X", port)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: /proc files report size 0 and arrive a page at a time.
            let data = FileHandle(forReadingAtPath: table).map { handle in
                defer { try? handle.close() }
                return readAll(handle.fileDescriptor)
            } ?? Data()
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                guard columns.count > 9, columns[1].hasSuffix(hexPort) || columns[2].hasSuffix(hexPort), columns[9] != "0" else { continue }
                inodes.insert(String(columns[9]))
            }
        }
        return inodes
    }

    /// The socket inodes this (test) process has open.
    private static func ownSocketInodes() -> Set<String> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(fds.compactMap { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
    }

    @Test(.timeLimit(.minutes(3))) func tenThousandRequestsKeepMemoryFlatAndCloseEveryFile() async throws {
        let collection = try Self.makeCollection()
        defer { try? FileManager.default.removeItem(at: collection) }
        let server = try await TestServer.start()
        let port = server.port
        #expect(!Self.socketInodes(port: port).intersection(Self.ownSocketInodes()).isEmpty, "the listener is seen")

        let samples = Mutex<[Sample]>([])
        let monitor: @Sendable (Int32) -> Void = { pid in
            var thresholds = [20, 50, 90].map { Self.total * $0 / 100 }
            while let next = thresholds.first {
                let done = server.receivedRequests().count
                if done >= next {
                    guard let sample = Sample.take(pid: pid, requestsDone: done) else { return }
                    samples.withLock { $0.append(sample) }
                    thresholds.removeFirst()
                } else if Sample.take(pid: pid, requestsDone: done) == nil {
                    return
                }
                usleep(5_000)
            }
        }
        let result: RunnerProcess.Result
        do {
            result = try await RunnerProcess.run(
                ["run", "requests", "--env", "local", "--jobs", String(Self.jobs)], in: collection,
                environment: ["NO_COLOR": "1", "TEST_SERVER_PORT": String(port)], whileRunning: monitor)
        } catch {
            try? await server.stop()
            throw error
        }
        let received = server.receivedRequests().count
        try await server.stop()

        #expect(result.exitCode == 0, "\(result.stderr)\n\(result.stdout.suffix(2000))")
        #expect(received == Self.total)
        #expect(result.stdout.contains("\(Self.total) requests: \(Self.total) passed"))
        let taken = samples.withLock { $0 }
        try #require(taken.count == 3, "samples at 20%, 50% and 90%: \(taken)")
        let (early, middle, late) = (taken[0], taken[1], taken[2])
        #expect(Double(late.residentKB) < Double(early.residentKB) * 1.2, "memory grew: \(taken)")
        #expect(Double(middle.residentKB) < Double(early.residentKB) * 1.2, "memory grew: \(taken)")
        #expect(late.openFiles <= early.openFiles + 2, "open files grew: \(taken)")
        #expect(Self.socketInodes(port: port).intersection(Self.ownSocketInodes()).isEmpty,
                "every socket of the test server is closed after it stops")
        print("soak: \(taken)")
    }
}
