import Foundation
import Testing

/// Replays the inputs of the `collection` and `template` fuzz targets (hand-made seeds and what fuzzing
/// found) through the promises the targets check, `FuzzContracts`; each must hold, quickly.
struct FuzzRegressionTests {
    /// The files in `Regressions/FOLDER` next to this file, sorted by name.
    static func inputs(_ folder: String) -> [URL] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions/\(folder)")
        let files = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") && $0.lastPathComponent != "README.md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static let collectionInputs = inputs("collection")
    static let templateInputs = inputs("template")

    @Test func theFoldersHaveInputs() {
        #expect(Self.collectionInputs.count >= 5)
        #expect(Self.templateInputs.count >= 5)
    }

    @Test(arguments: collectionInputs) func decodesAsARequestFileAndAnEnvironment(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        let start = ContinuousClock.now
        let problem = FuzzContracts.collectionProblem(bytes)
        #expect(start.duration(to: .now) < .seconds(2), "\(file.lastPathComponent) took too long")
        #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
    }

    @Test(arguments: templateInputs) func parsesAndResolvesAsATemplateAndAsAnExpression(_ file: URL) throws {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let start = ContinuousClock.now
        let problem = FuzzContracts.templateProblem(text)
        #expect(start.duration(to: .now) < .seconds(2), "\(file.lastPathComponent) took too long")
        #expect(problem == nil, "\(file.lastPathComponent): \(problem ?? "")")
    }
}
