import HTTPCore
import YAML

/// Decodes the rows of an `each:` file from its bytes: CSV whose first record names the columns (a `.csv` file), else a
/// JSON or YAML list of mappings. Problems inside the file are located there; a file without rows at the `each:`.
package enum DataRowsDecoding {
    /// Whether a path names a file rows are read from: `.csv`, `.json`, `.yaml` or `.yml`.
    package static func isDataFile(_ path: String) -> Bool {
        [".csv", ".json", ".yaml", ".yml"].contains { path.hasSuffix($0) }
    }

    /// The rows in `bytes`, the contents of the file `reference` names (written in the request file at `path`), with
    /// every problem found; the file's text goes into `sources`.
    package static func rows(_ bytes: [UInt8], of reference: FileReference, in path: String,
                             sources: SourceCache) -> (rows: DataRows?, problems: [Diagnostic]) {
        if reference.written.hasSuffix(".csv") { return csvRows(bytes, reference, in: path, sources: sources) }
        var bytes = bytes
        // A `.json` file is JSON: YAML would read `{"a":1 "b":2}` (a missing comma) as a value `1 "b":2` nobody wrote.
        if reference.written.hasSuffix(".json") {
            let text = WideEncoding.withoutByteOrderMark(bytes)
            do throws(JSONParseError) { _ = try JSONValue.parse(text) } catch {
                sources.store(WideEncoding.displayText(bytes), for: reference.path)
                return (nil, [.error("invalid JSON: \(error.message)", path: reference.path, at: Mark(line: error.line, column: error.column),
                                     suggestion: error.fileSuggestion)])
            }
            bytes = YAMLParser.escapingLineBreaks(inJSON: bytes)
        }
        let document = SourceDocument.parse(bytes, path: reference.path)
        sources.store(document.source.text, for: reference.path)
        guard document.diagnostics.isEmpty else { return (nil, document.diagnostics) }
        guard let root = document.root else { return (nil, [empty(reference, in: path)]) }
        var decoder = NodeDecoder(source: document.source)
        guard case .sequence(let items) = root.content else {
            decoder.typeMismatch(root, expected: "a list of mappings (one per row)", for: nil)
            return (nil, decoder.diagnostics.diagnostics)
        }
        var rows = decoder.rows(items, at: reference.mark, in: reference.written)
        rows?.file = reference.path
        let problems = decoder.diagnostics.diagnostics.map { diagnostic in
            // A list with no rows is reported where `each:` names the file.
            diagnostic.message.hasSuffix("has no rows") ? empty(reference, in: path) : diagnostic
        }
        return (rows, problems)
    }

    /// Rows from CSV: the first record names the columns; every other record must have as many fields.
    private static func csvRows(_ bytes: [UInt8], _ reference: FileReference, in path: String,
                                sources: SourceCache) -> (rows: DataRows?, problems: [Diagnostic]) {
        let text = WideEncoding.displayText(bytes)
        sources.store(text, for: reference.path)
        if let error = bytes.withUnsafeBufferPointer(YAMLError.invalidUTF8) {
            return (nil, [.error(error.message, path: reference.path, at: error.mark, suggestion: error.suggestion)])
        }
        let table: CSVTable
        do {
            table = try CSVTable(text)
        } catch {
            return (nil, [.error("invalid CSV: \(error.message)", path: reference.path, at: error.mark, suggestion: error.suggestion)])
        }
        guard let header = table.records.first, table.records.count > 1 else { return (nil, [empty(reference, in: path)]) }
        var problems: [Diagnostic] = []
        var named: Set<String> = []
        // Each problem of a column name is located at the column.
        for (index, (name, mark)) in zip(header.fields, header.fieldMarks).enumerated() {
            if name.isEmpty {
                problems.append(.error("column \(index + 1) has no name: column names are variable names", path: reference.path,
                                       at: mark, suggestion: "name the column, with letters, digits, '_' and '-', not starting with a digit"))
            } else if !VariablePath.isValidName(name) {
                // One column whose name holds ';' or a tab: most likely another separator than the comma.
                let separator = header.fields.count == 1 ? name.first(where: { CSVTable.separatorHint($0) != nil }) : nil
                problems.append(.error("invalid column name '\(name)': column names are variable names", path: reference.path,
                                       at: mark, suggestion: separator.flatMap(CSVTable.separatorHint)
                                           ?? "use letters, digits, '_' and '-', not starting with a digit"))
            } else if !named.insert(name).inserted {
                problems.append(.error("duplicate column name '\(name)': a row would hold two values for one variable",
                                       path: reference.path, at: mark, suggestion: "give each column its own name"))
            }
        }
        var rows: [[TemplateValue]] = []
        for (index, record) in table.records.dropFirst().enumerated() {
            guard record.fields.count == header.fields.count else {
                let count = record.fields.count == 1 ? "1 field" : "\(record.fields.count) fields"
                problems.append(.error("row \(index + 1) has \(count), but the header has \(header.fields.count)",
                                       path: reference.path, at: record.mark,
                                       suggestion: "quote fields that contain commas or line breaks"))
                continue
            }
            rows.append(zip(record.fields, record.fieldMarks).map { TemplateValue(.string(.literal($0, at: $1)), mark: $1) })
        }
        return (DataRows(columns: header.fields, rows: rows, mark: reference.mark, file: reference.path), problems)
    }

    /// The error for a data file without rows, at the `each:` that names it.
    private static func empty(_ reference: FileReference, in path: String) -> Diagnostic {
        .error("each: file '\(reference.written)' has no rows", path: path, at: reference.mark,
               suggestion: "give it a header and at least one row (CSV), or a list of mappings (JSON, YAML)")
    }
}
