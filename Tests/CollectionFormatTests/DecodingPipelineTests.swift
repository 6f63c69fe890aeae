import Synchronization
import Testing
@testable import CollectionFormat

@Suite struct DecodingPipelineTests {
    private static let root = DiscoveredFile.Root(display: "requests", absolute: "/requests")

    private static func file(_ number: Int) -> DiscoveredFile {
        DiscoveredFile(root: root, relative: "file-\(number).yaml")
    }

    @Test(arguments: [0, 1, 3])
    func decodedFilesComeBackInTheOrderAddedWithABoundedNumberOut(workers: Int) {
        var pipeline = DecodingPipeline(batchSize: 8, maxBatchesAhead: 3, workers: workers) { $0.defaultName.uppercased() }
        var received: [String] = []
        var mostOut = 0
        for number in 0..<1_000 {
            pipeline.add(Self.file(number)) { _, decoded in received.append(decoded) }
            mostOut = max(mostOut, number + 1 - received.count)
        }
        pipeline.finish { _, decoded in received.append(decoded) }
        #expect(received == (0..<1_000).map { "FILE-\($0)" })
        // Added but not handed back: at most the batches out plus the one being collected.
        #expect(mostOut <= 8 * 4 && mostOut > 8)
    }

    @Test func everyFileIsDecodedOnceWhoeverDecodesIt() {
        let decodedCount = Mutex(0)
        var pipeline = DecodingPipeline(batchSize: 4, maxBatchesAhead: 2, workers: 2) { file in
            decodedCount.withLock { $0 += 1 }
            return file.path
        }
        var received = 0
        for number in 0..<500 { pipeline.add(Self.file(number)) { _, _ in received += 1 } }
        pipeline.finish { _, _ in received += 1 }
        #expect(received == 500)
        #expect(decodedCount.withLock { $0 } == 500)
    }

    @Test func aPartialBatchAndNoFilesAtAllFinish() {
        var pipeline = DecodingPipeline(batchSize: 8, maxBatchesAhead: 3) { $0.path }
        var received: [String] = []
        for number in 0..<3 { pipeline.add(Self.file(number)) { received.append($1) } }
        pipeline.finish { received.append($1) }
        #expect(received == ["requests/file-0.yaml", "requests/file-1.yaml", "requests/file-2.yaml"])

        var empty = DecodingPipeline(batchSize: 8, maxBatchesAhead: 3) { $0.path }
        var none: [String] = []
        empty.finish { none.append($1) }
        #expect(none.isEmpty)
    }
}
