import Foundation
import Testing
import YAML

/// Every input in `Regressions/` (hand-made hostile seeds and what fuzzing found) parses to a tree or
/// nothing, or fails with an error located inside the input, and does so quickly.
struct RegressionTests {
    /// The regression inputs, `*.yaml` in the folder next to this file, sorted by name.
    static let inputs: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "yaml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }()

    @Test func theFolderHasInputs() {
        #expect(Self.inputs.count >= 10)
    }

    @Test(arguments: inputs) func parsesOrFailsWithALocatedError(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        let start = ContinuousClock.now
        let error = parseError(bytes)
        #expect(start.duration(to: .now) < .seconds(2), "\(file.lastPathComponent) took too long")
        guard let error else { return }
        #expect(error.mark.line >= 1 && error.mark.line <= bytes.count + 1, "\(file.lastPathComponent): \(error)")
        #expect(error.mark.column >= 1 && error.mark.column <= bytes.count + 1, "\(file.lastPathComponent): \(error)")
        #expect(!error.message.isEmpty)
    }
}
