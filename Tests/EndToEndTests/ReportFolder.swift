import Foundation

/// A temporary folder for the reports of one run: `junit` and `json` name files in it; `remove()` deletes it.
struct ReportFolder {
    let url: URL

    /// Creates the folder, its name starting with `runner-name-`.
    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var junit: String { url.appendingPathComponent("junit.xml").path }
    var json: String { url.appendingPathComponent("report.json").path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
