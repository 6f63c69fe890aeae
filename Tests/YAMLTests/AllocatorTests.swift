import CYAMLAllocator
import Foundation
import Testing
@testable import YAML

/// libyaml's allocation functions, replaced: the small strings it frees while scanning are kept for the thread's next
/// ones (taken again parse after parse, so they do not pile up), and documents parse the same.
@Suite struct AllocatorTests {
    private static let document = """
        name: Health check
        request: { url: /api/health, headers: { Accept: application/json } }
        expect:
          status: [200, 201]
          body:
            $.status: ok
            $.items[0].id: 7

        """

    @Test func theSmallStringsLibyamlFreesAreKeptForItsNextOnes() async throws {
        // On a thread of its own, so that nothing else parses on it meanwhile.
        let counts = await withCheckedContinuation { (finished: CheckedContinuation<[Int32], Never>) in
            Thread {
                var counts = [cyaml_cached_block_count()]
                for _ in 0..<3 {
                    _ = try? YAMLParser.parse(Self.document)
                    counts.append(cyaml_cached_block_count())
                }
                finished.resume(returning: counts)
            }.start()
        }
        #expect(counts[0] == 0)
        // The first parse leaves blocks kept; the next ones take them again and leave about as many. Not exactly as
        // many: with none kept, malloc may hand a 16-byte request a larger chunk (a free one too small to split),
        // which is not kept when freed, and the heap's layout differs from run to run. Without the blocks being
        // taken again, each parse would add a first parse's worth, and the first would already fill the thread's 64
        // (a parse of this document frees some 70 small strings).
        #expect(counts[1] > 0)
        #expect(counts[2] > 0 && counts[3] > 0)
        #expect(counts[3] < 2 * counts[1])
        #expect(counts.allSatisfy { $0 < 64 })
    }

    /// Blocks handed back hold what libyaml writes into them next: a document parsed on a thread with none kept and
    /// again with blocks kept from it reads back the same, node for node (compared through their images).
    @Test func documentsParseTheSameWhetherTheThreadKeepsBlocksOrNot() async throws {
        let images = await withCheckedContinuation { (finished: CheckedContinuation<[[UInt8]], Never>) in
            Thread {
                var images: [[UInt8]] = []
                for _ in 0..<2 {
                    var bytes: [UInt8] = []
                    if let root = try? YAMLParser.parse(Self.document) { DocumentImage.append(root, text: Self.document, to: &bytes) }
                    images.append(bytes)
                }
                finished.resume(returning: images)
            }.start()
        }
        #expect(!images[0].isEmpty)
        #expect(images[0] == images[1])
        #expect(try value("expect", in: Self.document)["body"]?["$.items[0].id"]?.scalar?.value == .int(7))
    }
}
