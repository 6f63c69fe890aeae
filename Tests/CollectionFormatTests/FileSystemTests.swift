import Foundation
import Testing
@testable import CollectionFormat
@testable import CollectionReading

/// `FileSystem.contents(of:limit:)`: one read for a small regular file, more for larger or growing ones and for
/// files that are not regular, the limit enforced either way, and which file was read.
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
        #expect(FileSystem.contents(of: path, limit: 1 << 20)?.contents == .bytes(bytes))
    }

    @Test func aFileOverTheLimitGivesItsSizeAndOneAtTheLimitIsRead() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Array(repeating: 65, count: 1_000), to: "limit")
        #expect(FileSystem.contents(of: path, limit: 999)?.contents == .tooLarge(size: 1_000))
        #expect(FileSystem.contents(of: path, limit: 1_000)?.contents == .bytes(Array(repeating: 65, count: 1_000)))
        #expect(FileSystem.contents(of: directory.appendingPathComponent("missing").path, limit: 1_000) == nil)
    }

    /// Two names of one file (a hard link, a symbolic link) read as the same file; another file with the same bytes does not.
    @Test func theContentsSayWhichFileWasRead() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try write(Array("request: { url: /a }\n".utf8), to: "a.yaml")
        let copy = try write(Array("request: { url: /a }\n".utf8), to: "copy.yaml")
        let hard = directory.appendingPathComponent("hard.yaml").path, soft = directory.appendingPathComponent("soft.yaml").path
        try FileManager.default.linkItem(atPath: path, toPath: hard)
        try FileManager.default.createSymbolicLink(atPath: soft, withDestinationPath: "a.yaml")
        let identity = try #require(FileSystem.contents(of: path, limit: 1_000)?.identity)
        #expect(identity == FileSystem.status(of: path)?.identity)
        #expect(FileSystem.contents(of: hard, limit: 1_000)?.identity == identity)
        #expect(FileSystem.contents(of: soft, limit: 1_000)?.identity == identity)
        #expect(FileSystem.contents(of: copy, limit: 1_000)?.identity != identity)
        // A file over the limit is not read, but is still told apart.
        #expect(FileSystem.contents(of: hard, limit: 5)?.identity == identity)
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
            #expect(FileSystem.contents(of: path, limit: limit)?.contents == .bytes(expected))
        }
    }
}
