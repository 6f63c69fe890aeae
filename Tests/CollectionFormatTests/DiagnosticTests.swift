import Testing
import YAML
@testable import CollectionFormat

@Suite struct DiagnosticRendererTests {
    let sources: SourceCache = {
        var cache = SourceCache()
        cache.store("request:\n  method: GET\n  url: /users\n  heders:\n    A: b\n", for: "requests/users/create.yaml")
        cache.store(String(repeating: "\n", count: 11) + "\tkey: value\n", for: "tabs.yaml")
        return cache
    }()

    @Test func rendersLocationLineCaretAndHelp() {
        let diagnostic = Diagnostic.error("unknown key 'heders' in 'request'", path: "requests/users/create.yaml",
                                          at: Mark(line: 4, column: 3), suggestion: "did you mean 'headers'?")
        #expect(DiagnosticRenderer.render([diagnostic], sources: sources, color: false) == """
            requests/users/create.yaml:4:3: error: unknown key 'heders' in 'request'
             4 |   heders:
               |   ^
               = help: did you mean 'headers'?

            """)
    }

    /// A long line is redacted whole before it is cut to the window around the column: a secret that the window cuts
    /// in two is hidden too, and the caret stays under the text it points at.
    @Test func aLongLineIsRedactedBeforeItIsCut() {
        let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", count: 4)
        let line = "curl https://api.example.com/x -H 'Authorization: Bearer \(token)' -H 'X-Trace: on' --compressed"
        let cache = SourceCache()
        cache.store(line + "\n", for: "<command>")
        let column = line.distance(from: line.startIndex, to: line.range(of: "-H 'X-Trace")!.lowerBound) + 1
        let diagnostic = Diagnostic.warning("a note", path: "<command>", at: Mark(line: 1, column: column))
        let rendered = DiagnosticRenderer.render(diagnostic, sources: cache, color: false,
                                                 redacting: { $0.replacingOccurrences(of: token, with: "***") })
        #expect(!rendered.contains("QUJDREVG") && !rendered.contains("eyJhbGci"), "\(rendered)")
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        let quoted = lines[1].dropFirst(" 1 | ".count), caret = lines[2].dropFirst("   | ".count)
        #expect(quoted.contains("Bearer ***' -H 'X-Trace: on'"), "\(rendered)")
        #expect(quoted.dropFirst(caret.count - 1).hasPrefix("-H 'X-Trace"), "\(rendered)")
    }

    @Test func gutterWidensWithTheLineNumberAndKeepsTabs() {
        let diagnostic = Diagnostic.warning("odd", path: "tabs.yaml", at: Mark(line: 12, column: 2))
        #expect(DiagnosticRenderer.render([diagnostic], sources: sources, color: false) == """
            tabs.yaml:12:2: warning: odd
             12 | \tkey: value
                | \t^

            """)
    }

    @Test func noGutterWithoutMarkAndNoPathWithoutFile() {
        let missing = Diagnostic.error("no such file or directory", path: "requests/nope", at: nil)
        let global = Diagnostic.error("unknown environment 'qaa'", path: nil, at: nil, suggestion: "did you mean 'qa'?")
        #expect(DiagnosticRenderer.render([missing, global], sources: sources, color: false) == """
            error: unknown environment 'qaa'
               = help: did you mean 'qa'?

            requests/nope: error: no such file or directory

            """)
    }

    @Test func colorWrapsSeverityInAnsiCodes() {
        let diagnostic = Diagnostic.error("bad", path: "a.yaml", at: nil)
        let rendered = DiagnosticRenderer.render([diagnostic], sources: sources, color: true)
        #expect(rendered.contains("\u{1B}[1;31merror\u{1B}[0m"))
    }

    @Test func bagSortsByPathThenMarkAndDropsDuplicates() {
        var bag = DiagnosticBag()
        bag.add(.error("b2", path: "b.yaml", at: Mark(line: 2, column: 1)))
        bag.add(.error("a9", path: "a.yaml", at: Mark(line: 9, column: 1)))
        bag.add(.error("b1", path: "b.yaml", at: Mark(line: 1, column: 5)))
        bag.add(.error("b1", path: "b.yaml", at: Mark(line: 1, column: 5)))
        bag.add(.warning("a1", path: "a.yaml", at: Mark(line: 1, column: 1)))
        #expect(bag.sorted.map(\.message) == ["a1", "a9", "b1", "b2"])
        #expect(bag.hasErrors)
    }

    @Test func suggestionsPickTheClosestKnownWord() {
        #expect(Suggestions.closest(to: "heders", among: ["headers", "query", "url"]) == "headers")
        #expect(Suggestions.closest(to: "lenght", among: ["length", "type"]) == "length")
        #expect(Suggestions.closest(to: "zzzzzz", among: ["headers", "url"]) == nil)
        // Of two candidates as far, the one that begins alike (trial helper-188 F7: proxies suggested cookies).
        #expect(Suggestions.closest(to: "proxies", among: ["cookies", "proxy"]) == "proxy")
    }
}
