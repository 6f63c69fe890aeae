import Foundation
import FoundationXML
@testable import Reporting
import Running
import CollectionFormat
import YAML
import Testing

/// The reports' fast escaping and formatting write exactly what the slower general ways they replace wrote.
@Suite struct ReportEscapingTests {
    /// Texts with and without markup, quotes, controls, non-ASCII characters and combining marks.
    private static let texts = [
        "", "plain ascii text", "/api/users?page=1&tag=a", "<script>alert('x')</script>", "say \"hi\" & 'bye'",
        "naïve café — 日本語 🙂", "e\u{301}<b>", "tab\tline\nreturn\r", "esc \u{1B}[31m nul \u{0}", "c1 \u{85} \u{9F} \u{FFFE} \u{FFFF}",
    ]

    @Test func theHTMLPageEscapesLikeMustache() {
        let entities: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
        for text in Self.texts {
            let mustache = text.map { entities[$0] ?? String($0) }.joined()
            #expect(HTMLTemplate.Escaping().escapeText(text) == mustache, "\(text.debugDescription)")
        }
    }

    /// The page shows control characters (a name with ESC from a YAML `\e`) as escapes, as the console does.
    @Test func theHTMLPageShowsControlCharactersAsEscapes() {
        let outcome = RequestOutcome(file: "requests/a.yaml", name: "a\u{1B}]0;t\u{7}b", method: "GET", url: "http://127.0.0.1:1/\u{0}",
                                     verdict: .skipped, skipReason: "why\u{1B}[2J")
        let page = HTMLReport.render(RunSummary(outcomes: [outcome], duration: .zero), sources: SourceCache(), redactor: Redactor(secrets: []),
                                     version: "test")
        #expect(!page.unicodeScalars.contains { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }, "\(page)")
        #expect(page.contains(#"a\u{1B}]0;t\u{7}b"#) && page.contains(#"why\u{1B}[2J"#))
    }

    @Test func xmlTextNeedingNoEscapeIsReturnedAsItIsAndTheRestIsEscaped() {
        #expect(XMLText.escape("plain ascii text") == "plain ascii text")
        #expect(XMLText.escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(XMLText.escape("tab\tline\nesc \u{1B} c1 \u{85} naïve") == "tab\tline\nesc " + #"\u{1B} c1 \u{85}"# + " naïve")
        #expect(XMLText.escape("rtl \u{202E}gnp.exe ls\u{2028} \u{FFFE}") == #"rtl \u{202E}gnp.exe ls\u{2028} "# + "\u{FFFD}")
        #expect(XMLText.escape("mark \u{200F}a") == #"mark \u{200F}a"#)
    }

    /// A reader (libxml2, through FoundationXML) reads back every text as escaped, controls aside: line breaks, tabs
    /// and carriage returns survive in attributes (where a raw one becomes a space) and in elements.
    @Test func xmlTextReadsBackAsWrittenInAttributesAndElements() throws {
        for text in Self.texts where !text.unicodeScalars.contains(where: { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }) {
            let xml = "<a name=\"\(XMLText.escape(text, inAttribute: true))\">\(XMLText.escape(text))</a>"
            let element = try #require(try XMLDocument(xmlString: xml).rootElement())
            let expected = text.unicodeScalars.map { scalar in
                if ControlCharacters.isControl(scalar), scalar != "\r" { ControlCharacters.escape(scalar) }
                else if scalar.value == 0xFFFE || scalar.value == 0xFFFF { "\u{FFFD}" }
                else { String(scalar) }
            }.joined()
            #expect(element.attribute(forName: "name")?.stringValue == expected, "\(text.debugDescription)")
            #expect(element.stringValue == expected, "\(text.debugDescription)")
        }
    }

    @Test func junitSecondsAreWhatPercentThreeFWrites() {
        var milliseconds: [Double] = [0, 0.0004, 0.4996, 0.5, 0.5004, 1.5, 2.5, 4.5, 62.5, 999.4999, 999.5, 999.9996, 1234.5, 86_400_000.25]
        var generator = SystemRandomNumberGenerator()
        milliseconds += (0..<2_000).map { _ in Double.random(in: 0..<100_000, using: &generator) }
        milliseconds += (0..<2_000).map { _ in Double(Int.random(in: 0..<10_000_000, using: &generator)) / 1_000 }
        for value in milliseconds {
            let duration = Duration.nanoseconds(Int64((value * 1_000_000).rounded()))
            #expect(JUnitReport.seconds(duration) == String(format: "%.3f", duration.milliseconds / 1000), "\(duration)")
        }
    }

    /// A name holding line breaks (a data row's) is one line in JUnit, as on the console: an attribute's `&#10;` would
    /// give readers the raw break back.
    @Test func junitNamesAreOneLine() throws {
        let outcome = RequestOutcome(file: "requests/a.yaml", name: "flow \r\n#x\u{1B}", method: "GET", url: "http://127.0.0.1:1/",
                                     verdict: .passed)
        let xml = JUnitReport.render(RunSummary(outcomes: [outcome], duration: .zero), sources: SourceCache(), redactor: Redactor(secrets: []))
        let element = try #require(try XMLDocument(xmlString: xml).rootElement()?.elements(forName: "testsuite").first?
                                    .elements(forName: "testcase").first)
        #expect(element.attribute(forName: "name")?.stringValue == "flow  #x\\u{1B}", "\(xml)")
    }

    @Test func junitClassNamesSplitPathsAtSlashesAndDropTheExtension() {
        #expect(JUnitReport.className(of: "requests/users/01-create.yaml") == "requests.users.01-create")
        #expect(JUnitReport.className(of: "/abs//dir/./.hidden") == "abs.dir..hidden")
        #expect(JUnitReport.className(of: "réquêtes/naïve.yaml") == "réquêtes.naïve")
    }
}
