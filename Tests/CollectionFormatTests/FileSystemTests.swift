import Foundation
import Testing
@testable import CollectionFormat

/// `FileSystem.contents(of:limit:)`: one read for a small regular file, more for larger or growing ones and for
/// files that are not regular, and the limit enforced either way.
@Suite struct FileSystemTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [0, 1, 193, 4_096, 200_000])
    func aRegularFileIsReadWhole(size: Int) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = try write(bytes, to: "file-\(size)")
        #expect(FileSystem.contents(of: path, limit: 1 << 20) == .bytes(bytes))
    }

    @Test func aFileOverTheLimitGivesItsSizeAndOneAtTheLimitIsRead() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Array(repeating: 65, count: 1_000), to: "limit")
        #expect(FileSystem.contents(of: path, limit: 999) == .tooLarge(size: 1_000))
        #expect(FileSystem.contents(of: path, limit: 1_000) == .bytes(Array(repeating: 65, count: 1_000)))
        #expect(FileSystem.contents(of: directory.appendingPathComponent("missing").path, limit: 1_000) == nil)
    }

    /// A named pipe has no size: it is read in chunks until its writer closes it, or until one byte past the limit.
    @Test func aFileThatIsNotRegularIsReadInChunksUpToTheLimit() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
        // The reader stops at the limit and closes its end: the writer's next write fails instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        for (limit, expected) in [(20_000, bytes), (6_000, Array(bytes[...6_000]))] {
            let path = directory.appendingPathComponent("pipe-\(limit)").path
            #expect(mkfifo(path, 0o600) == 0)
            let writer = Thread {
                guard let handle = FileHandle(forWritingAtPath: path) else { return }
                for start in stride(from: 0, to: bytes.count, by: 1_000) {
                    try? handle.write(contentsOf: Data(bytes[start..<start + 1_000]))
                }
                try? handle.close()
            }
            writer.start()
            #expect(FileSystem.contents(of: path, limit: limit) == .bytes(expected))
        }
    }
}
