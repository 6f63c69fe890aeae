import Foundation
import Testing
@testable import CollectionFormat

@Suite struct SpillFileTests {
    /// Files with templates (whose `{{` marks are found in the text), a flow, a body and a warning.
    static let files = [
        "requests/01-user.yaml": "request:\n  url: /users/{{ id }}?q={{ q }}\n  headers: { X-Id: 'a {{ id }}' }\nexpect:\n  status: 200\n",
        "requests/02-flow.yaml": "steps:\n  - name: one\n    request: { method: POST, url: /a, json: { n: 1, s: \"{{ id }}\" } }\n"
            + "    capture: { t: $.token }\n  - request: { url: \"/b/{{ t }}\" }\n",
        "requests/03-lower.yaml": "request: { method: get, url: /c }\n",
    ]

    @Test func spilledFilesDecodeAsTheirCheckReadThemAcrossBufferFlushes() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for (path, text) in Self.files { scratch.write(path, text) }
        // A buffer smaller than one image: every append flushes, and reads find each image written.
        let spill = try #require(SpillFile.temporary(bufferSize: 64))
        var checked: [(DiscoveredFile, SpilledFile?)] = []
        var request = LoadRequest(paths: ["requests"], variables: [("id", "7"), ("q", "x")], currentDirectory: scratch.root)
        request.forSending = false
        let loaded = CollectionLoader.check(request, spillingTo: spill) { location, _, spilled in checked.append((location, spilled)) }
        #expect(!loaded.hasErrors)
        #expect(checked.count == 3)
        for (location, spilled) in checked {
            let spilled = try #require(spilled)
            let fromSpill = try #require(CollectionLoader.reload(location, from: spilled))
            let fromDisk = try #require(CollectionLoader.reload(location))
            #expect(fromSpill.text == fromDisk.text)
            #expect(fromSpill.diagnostics.map { "\($0)" } == fromDisk.diagnostics.map { "\($0)" })
            #expect(fromSpill.diagnostics.count == (location.path.hasSuffix("03-lower.yaml") ? 1 : 0))
            let (spillValue, diskValue) = (try #require(fromSpill.value), try #require(fromDisk.value))
            #expect(outline(spillValue) == outline(diskValue))
        }
        let first = try #require(CollectionLoader.reload(checked[0].0)?.value)
        #expect(outline(first).contains("/users/{{ id }}?q={{ q }} 2:15,2:26"))
    }

    @Test func aSpilledFileIsDecodedAsCheckedAfterItChanges() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /before }\n")
        let spill = try #require(SpillFile.temporary())
        var checked: [(DiscoveredFile, SpilledFile?)] = []
        _ = CollectionLoader.check(LoadRequest(paths: ["requests"], currentDirectory: scratch.root), spillingTo: spill) {
            checked.append(($0, $2))
        }
        scratch.write("requests/a.yaml", "request: { url: /after }\n")
        let (location, spilledOrNil) = try #require(checked.first)
        let spilled = try #require(spilledOrNil)
        #expect(CollectionLoader.reload(location, from: spilled)?.value?.steps.first?.request.url.description == "/before")
        #expect(CollectionLoader.reload(location)?.value?.steps.first?.request.url.description == "/after")
    }

    @Test func aSpillFileIsGoneFromItsDirectoryOnceCreated() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let spill = SpillFile.temporary(in: scratch.root)
        #expect(spill != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.root).isEmpty)
        #expect(SpillFile.temporary(in: scratch.root + "/missing") == nil)
    }

    /// Each step's name, method, URL and header templates with the marks of their expressions, and its captures.
    private func outline(_ file: RequestFile) -> String {
        file.steps.map { step in
            let templates = [step.request.url] + step.request.headers.map(\.value)
            let marks = templates.map { template in
                "\(template) " + template.segments.compactMap { segment -> String? in
                    if case .expression(_, let mark) = segment { return "\(mark.line):\(mark.column)" }
                    return nil
                }.joined(separator: ",")
            }
            return "\(step.name) \(step.request.method.value) \(marks) \(step.captures.map(\.name))"
        }.joined(separator: "\n")
    }
}
