import YAML

/// A CSV text read as RFC 4180 records: fields separated by commas, records by CRLF or LF, fields in double
/// quotes may hold commas, line breaks and doubled quotes; a UTF-8 byte order mark at the start and blank lines (lines
/// of nothing but spaces and tabs too) are skipped.
struct CSVTable {
    /// One record and where it starts.
    struct Record {
        var fields: [String]
        var mark: Mark
        /// Where each field starts (at its opening quote when quoted), in the order of `fields`.
        var fieldMarks: [Mark]
    }

    /// What makes a text not CSV, and where.
    struct SyntaxError: Error {
        var message: String
        var mark: Mark
        var suggestion: String?
    }

    /// What to say of a `;` or a tab where a comma would separate fields (another locale's or tool's CSV); nil for others.
    static func separatorHint(_ character: Character) -> String? {
        switch character {
        case ";": "fields are separated by commas, not ';'"
        case "\t": "fields are separated by commas, not '\\t'"
        default: nil
        }
    }

    /// The records in order; an empty text has none, and a line break at the very end starts no record.
    let records: [Record]

    init(_ text: String) throws(SyntaxError) {
        var records: [Record] = []
        var scalars = Array(text.unicodeScalars)[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var (line, column) = (1, 1)
        var fields: [String] = []
        var fieldMarks: [Mark] = []
        var field = String.UnicodeScalarView()
        var recordMark = Mark(line: 1, column: 1)
        var fieldMark = recordMark
        var quoted = false, wasQuoted = false, quoteMark = recordMark
        var index = scalars.startIndex
        func endField() {
            fields.append(String(field))
            fieldMarks.append(fieldMark)
            field = String.UnicodeScalarView()
            wasQuoted = false
        }
        /// Whether the line so far holds nothing but spaces and tabs.
        var isBlank: Bool { fields.isEmpty && !wasQuoted && field.allSatisfy { $0 == " " || $0 == "\t" } }
        func endRecord() {
            endField()
            records.append(Record(fields: fields, mark: recordMark, fieldMarks: fieldMarks))
            fields = []
            fieldMarks = []
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if quoted {
                if scalar == "\"" {
                    if next < scalars.endIndex, scalars[next] == "\"" {
                        field.append("\"")
                        index = scalars.index(after: next)
                        column += 2
                        continue
                    }
                    quoted = false
                    wasQuoted = true
                } else {
                    field.append(scalar)
                }
                if scalar == "\n" { (line, column) = (line + 1, 1) } else { column += 1 }
                index = next
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                quoteMark = Mark(line: line, column: column)
            case "\"":
                throw SyntaxError(message: "a quote inside a field that does not start with one", mark: Mark(line: line, column: column),
                                  suggestion: "quote the whole field and write the quote twice: \"say \"\"hi\"\"\"")
            case ",":
                endField()
                fieldMark = Mark(line: line, column: column + 1)
            case "\r" where next < scalars.endIndex && scalars[next] == "\n":
                break
            case "\n", "\r":
                // A blank line holds no record (an empty value is written `""`, spaces `"  "`).
                if isBlank { field = String.UnicodeScalarView() } else { endRecord() }
                (line, column) = (line + 1, 0)
                recordMark = Mark(line: line, column: 1)
                fieldMark = recordMark
            default:
                guard !wasQuoted else {
                    throw SyntaxError(message: "text after the closing quote of a field", mark: Mark(line: line, column: column),
                                      suggestion: Self.separatorHint(Character(scalar)))
                }
                field.append(scalar)
            }
            column += 1
            index = next
        }
        if quoted {
            throw SyntaxError(message: "a quoted field is not closed", mark: quoteMark,
                              suggestion: "close it with a quote; a quote inside a quoted field is written twice (\"\")")
        }
        if !isBlank { endRecord() }
        self.records = records
    }
}
