import Foundation
import CollectionFormat
import HTTPCore
import Reporting

/// `runner list`: the requests that would run, in order: name, method, URL template and tags.
public struct List: Sendable {
    /// The paths and the tag filter (no environment or variables: nothing is resolved).
    public var collection: CollectionSelection

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Prints a row per selected request, or the problems that keep the files from being read.
    public func execute() async -> ExitStatus {
        let loaded = await collection.load(forSending: false, checksReferences: false)
        if let status = DiagnosticsOutput.report(loaded, color: .auto) { return status }
        guard collection.selectedRequests(in: loaded) != nil else { return .badCommandLine }
        var rows: [[String]] = []
        // The credentials the files write as they are, which a YAML alias may put in a name, a URL or a tag.
        let written = Redactor(secrets: loaded.scope.hiddenValues)
        for file in loaded.files {
            for label in Self.rowLabels(of: file) {
                for step in collection.filter.selectedSteps(of: file) {
                    let name = file.isFlow ? "\(label ?? file.name) › \(step.name)" : label ?? step.name
                    let tags = (file.tags + step.tags).uniqued()
                    // One line per request: a line break in a name (from a data row) or a URL is a space.
                    // A password written in a URL shows as `***`, in its path too, as `run` shows the request's.
                    let source = step.request.url.source
                    // As `run` hides the credentials a request sends: a short one only in the user information.
                    let redactor = Redactor.ofURLPasswords(in: source, asOneURL: true)
                    let hide = { (text: String) in written.redact(redactor?.redact(text) ?? text) }
                    let url = URLCredentials.hidingPasswords(in: source, asOneURL: true)
                    var columns = [name, step.request.method.value, url].map { TerminalText.oneLine(hide($0)) }
                    columns.append(tags.isEmpty ? "" : hide("[" + tags.joined(separator: ", ") + "]"))
                    if file.skip != nil || step.skip != nil { columns[3] += columns[3].isEmpty ? "(skipped)" : " (skipped)" }
                    rows.append(columns)
                }
            }
        }
        Console.out(Table.render(rows))
        return .success
    }
}

extension List {
    /// The name of each row's run of an `each:` file (`NAME [ROW]`, or its `name:` template resolved with the row's
    /// literal values); one nil for a file that runs once.
    static func rowLabels(of file: RequestFile) -> [String?] {
        guard let rows = file.rows else { return [nil] }
        return rows.rows.indices.map { row in
            var scope = VariableScope()
            for (column, value) in zip(rows.columns, rows.rows[row]) {
                if let resolved = try? scope.resolve(value) { scope.define(column, resolved, in: .row) }
            }
            return (try? file.rowLabel(row, in: scope)) ?? file.defaultRowLabel(row)
        }
    }
}

/// Aligns rows of text into columns separated by two spaces.
enum Table {
    static func render(_ rows: [[String]]) -> String {
        guard let columnCount = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: columnCount)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
