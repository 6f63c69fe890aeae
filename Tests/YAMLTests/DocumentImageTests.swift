import Testing
import YAML

@Suite struct DocumentImageTests {
    /// Every kind of node: nested collections, aliases, explicit tags, each scalar style and core-schema type,
    /// text that is not ASCII and a long scalar.
    static let text = """
    name: &n "Créer un utilisateur ✓"
    request:
      url: /users/{{ id }}
      headers: { X-A: 'single', X-B: plain }
    list: [1, -2.5, true, null, ~, *n, !!str 42, 0x1F]
    literal: |
      line one
      line two
    folded: >
      folded
      text
    long: \(String(repeating: "x", count: 300))
    nested:
      - { a: [ { b: c } ] }
      - []
      - {}
    """

    @Test func anImageReadsBackAsTheSameTreeAndText() throws {
        let root = try document(Self.text)
        var bytes: [UInt8] = [7, 7]
        DocumentImage.append(root, text: Self.text, to: &bytes)
        #expect(bytes.prefix(2) == [7, 7])
        let read = try #require(Array(bytes.dropFirst(2)).withUnsafeBytes(DocumentImage.read))
        #expect(read.text == Self.text)
        #expect(outline(read.root) == outline(root))
        #expect(outline(root).contains("5:36 plain !!str '42' string(\"42\")"))
    }

    @Test func largeDocumentsReadBackAndImagesFollowEachOtherExactly() throws {
        // Hundreds of nodes and long scalars: counts, indices and lengths that take several bytes each.
        let text = "items:\n" + (0..<400).map { index in
            "  - { id: \(index), name: \"item \(index) ✓\", note: x\(String(repeating: "y", count: index)) }"
        }.joined(separator: "\n") + "\n"
        let root = try document(text)
        var bytes: [UInt8] = []
        DocumentImage.append(root, text: text, to: &bytes)
        let first = bytes.count
        DocumentImage.append(root, text: text, to: &bytes)
        #expect(bytes.count == 2 * first)
        for range in [0..<first, first..<bytes.count] {
            let read = try #require(Array(bytes[range]).withUnsafeBytes(DocumentImage.read))
            #expect(read.text == text)
            #expect(outline(read.root) == outline(root))
        }
    }

    @Test func anImageOfASmallFileStaysUnderOneKibibyte() throws {
        let text = "request:\n  url: /api/health\nexpect:\n  status: 200\n  body:\n    $.status: ok\ncapture:\n  s: $.status\n"
        var bytes: [UInt8] = []
        DocumentImage.append(try document(text), text: text, to: &bytes)
        #expect(bytes.count < 4 * text.utf8.count)
        #expect(bytes.count < 1024)
    }

    @Test func damagedImagesReadAsNilOrAsAWholeTree() throws {
        let root = try document(Self.text)
        var image: [UInt8] = []
        DocumentImage.append(root, text: Self.text, to: &image)
        for count in 0..<image.count {
            #expect(Array(image.prefix(count)).withUnsafeBytes(DocumentImage.read) == nil)
        }
        #expect((image + [0]).withUnsafeBytes(DocumentImage.read) == nil)
        var intact = 0
        for offset in image.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] where image[offset] != value {
                var damaged = image
                damaged[offset] = value
                // A damaged image that still reads must be a tree whose every node can be visited.
                if let read = damaged.withUnsafeBytes(DocumentImage.read) {
                    _ = outline(read.root)
                    intact += 1
                }
            }
        }
        #expect(intact > 0)
    }

    /// Each node with its mark, kind, scalar style, tag and value, depth first.
    private func outline(_ node: Node, depth: Int = 0) -> String {
        let place = String(repeating: " ", count: depth) + "\(node.mark) "
        switch node.content {
        case .scalar(let scalar):
            return place + "\(scalar.style) \(scalar.tag.map { "!!" + $0.split(separator: ":").last! } ?? "-") '\(scalar.text)' \(scalar.value)\n"
        case .sequence(let items):
            return place + "list\n" + items.map { outline($0, depth: depth + 1) }.joined()
        case .mapping(let pairs):
            return place + "mapping\n" + pairs.map { outline($0.key, depth: depth + 1) + outline($0.value, depth: depth + 1) }.joined()
        }
    }
}
