import Testing
import YAML
@testable import CollectionFormat

/// `each:` CSV files are read as RFC 4180 says, with the line of every record for located errors.
@Suite struct CSVTableTests {
    @Test func quotedFieldsKeepCommasLineBreaksAndDoubledQuotes() throws {
        let table = try CSVTable("\u{FEFF}name,note\r\nArthur,plain\r\n\"Ford, Prefect\",\"says \"\"hi\"\"\"\r\nZaphod,\"two\nlines\"\r\n")
        #expect(table.records.map(\.fields) == [["name", "note"], ["Arthur", "plain"], ["Ford, Prefect", #"says "hi""#],
                                                 ["Zaphod", "two\nlines"]])
        #expect(table.records.map(\.mark.line) == [1, 2, 3, 4])
    }

    /// Each field's start (its opening quote when quoted), for errors located at a column.
    @Test func everyFieldHasTheLineAndColumnItStartsAt() throws {
        let table = try CSVTable("\u{FEFF}a,\"b,\nc\",,d\r\nxy,z\n")
        #expect(table.records.map(\.fieldMarks) == [
            [Mark(line: 1, column: 1), Mark(line: 1, column: 3), Mark(line: 2, column: 4), Mark(line: 2, column: 5)],
            [Mark(line: 3, column: 1), Mark(line: 3, column: 4)],
        ])
    }

    /// A blank line holds no record, in a one-column file too, where it would be one empty value nobody wrote; an
    /// empty value is written `""` there.
    @Test func blankLinesAreSkipped() throws {
        #expect(try CSVTable("id\n1\n2\n\n").records.map(\.fields) == [["id"], ["1"], ["2"]])
        #expect(try CSVTable("a,b\r\n\r\n1,2\n\n\n3,4\n").records.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"]])
        #expect(try CSVTable("id\n\"\"\n\n").records.map(\.fields) == [["id"], [""]])
        // A line of spaces and tabs is blank too (spaces as a value are written `"  "`); with a comma it is a record.
        #expect(try CSVTable("id\n1\n  \t\n\"  \"\n \n").records.map(\.fields) == [["id"], ["1"], ["  "]])
        #expect(try CSVTable("a,b\n ,\n").records.map(\.fields) == [["a", "b"], [" ", ""]])
        let records = try CSVTable("a\n\n1\n").records
        #expect(records.last?.mark == Mark(line: 3, column: 1))
    }

    @Test func aLastRecordWithoutALineBreakAndEmptyFieldsCount() throws {
        #expect(try CSVTable("a,b\n,\n\"\",x").records.map(\.fields) == [["a", "b"], ["", ""], ["", "x"]])
        #expect(try CSVTable("").records.isEmpty)
    }

    @Test(arguments: [
        ("a\n\"open", "a quoted field is not closed", 2, 1),
        ("a\nx\"y", "a quote inside a field that does not start with one", 2, 2),
        ("a\n\"x\"y", "text after the closing quote of a field", 2, 4),
    ])
    func malformedTextIsALocatedError(text: String, message: String, line: Int, column: Int) {
        #expect(throws: CSVTable.SyntaxError.self) { try CSVTable(text) }
        do {
            _ = try CSVTable(text)
        } catch {
            #expect(error.message == message)
            #expect(error.mark == Mark(line: line, column: column))
        }
    }
}
