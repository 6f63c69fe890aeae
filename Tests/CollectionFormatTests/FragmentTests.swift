import Foundation
import Testing
@testable import CollectionFormat

/// Files a flow brings in with `use:`: what they may hold, and problems in them that the `use:` can fix.
@Suite struct FragmentTests {
    /// Reads `requests/` of a project holding these files (paths under `requests/`).
    private func readCollection(of files: KeyValuePairs<String, String>) async -> LoadedCollection {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for (path, text) in files { scratch.write("requests/" + path, text) }
        return await scratch.readCollection(["requests"])
    }

    /// The rendered form of every diagnostic: location, message, notes and help.
    private func rendered(_ collection: LoadedCollection) -> [String] {
        collection.diagnostics.map { diagnostic in
            ([diagnostic.description] + diagnostic.notes + (diagnostic.suggestion.map { ["help: \($0)"] } ?? []))
                .joined(separator: "\n")
        }
    }

    /// `each:` in a used file would be dropped (its steps run once, where used): it is refused at `each:`, inline or
    /// naming a file, with the `use:` noted and the flow suggested as its place.
    @Test(arguments: ["each: [{ id: 1 }, { id: 2 }]", "each: _rows.csv"])
    func eachInAUsedFileIsRefusedAtEach(_ each: String) async {
        let collection = await readCollection(of: [
            "_rows.csv": "id\n1\n2\n",
            "_fetch.yaml": "\(each)\nrequest: { url: 'http://127.0.0.1:1/{{ id }}' }\n",
            "flow.yaml": "steps:\n  - use: _fetch.yaml\n",
        ])
        let problems = rendered(collection)
        #expect(problems.first == """
            requests/_fetch.yaml:1:7: error: 'each' cannot be used in a file that a flow uses: its steps run once, where they are used
            note: requests/flow.yaml:2:10: used here
            help: move 'each:' to the top of the flow that uses this file (requests/flow.yaml); the used steps see the variables of its rows
            """)
        #expect(collection.hasErrors)
    }

    /// With `each:` at the top of the flow, as the refusal suggests, the used steps see the row variables.
    @Test func eachOnTheUsingFlowGivesItsRowsToTheUsedSteps() async {
        let collection = await readCollection(of: [
            "_fetch.yaml": "request: { url: 'http://127.0.0.1:1/{{ id }}' }\n",
            "flow.yaml": "each: [{ id: 1 }, { id: 2 }]\nsteps:\n  - use: _fetch.yaml\n",
        ])
        #expect(collection.diagnostics.isEmpty, "\(rendered(collection))")
        #expect(collection.requestCount() == 2)
    }

    /// A step without `name:` is named by its place in the flow once the used steps are in, so no two share a name
    /// (each was `step N` of its own file, and a single-request file's step was named after its path); written names stay.
    @Test func unnamedStepsAreNumberedByTheirPlaceInTheFlow() async throws {
        let collection = await readCollection(of: [
            "_two.yaml": "steps:\n  - request: { url: 'http://127.0.0.1:1/a' }\n  - name: named\n    request: { url: 'http://127.0.0.1:1/b' }\n",
            "_one.yaml": "request: { url: 'http://127.0.0.1:1/one' }\n",
            "flow.yaml": """
                steps:
                  - use: _two.yaml
                  - use: _one.yaml
                  - use: _one.yaml
                  - request: { url: 'http://127.0.0.1:1/c' }
                finally:
                  - use: _two.yaml
                """,
        ])
        #expect(collection.diagnostics.isEmpty, "\(rendered(collection))")
        let flow = try #require(collection.files.first { $0.path == "requests/flow.yaml" })
        #expect(flow.steps.map(\.name) == ["step 1", "named", "step 3", "step 4", "step 5", "cleanup 1", "named"])
    }

    /// An undefined variable in a used file names the `use:` that gave it no `with:` value, once per `use:`, and
    /// suggests giving it there; a `use:` that gives it is not named.
    @Test func anUndefinedVariableInAUsedFileNamesEachUseWithoutAValue() async {
        let collection = await readCollection(of: [
            "_fetch.yaml": "request: { url: 'http://127.0.0.1:1/{{ userId }}' }\n",
            "a.yaml": "steps:\n  - use: _fetch.yaml\n",
            "b.yaml": "steps:\n  - use: _fetch.yaml\n    with: { userId: 7 }\n",
            "c.yaml": "steps:\n  - name: first\n    request: { url: 'http://127.0.0.1:1/' }\n  - use: _fetch.yaml\n",
        ])
        #expect(rendered(collection) == [undefinedUserId(notingUsesAt: ["a.yaml:2:10", "c.yaml:4:10"])])
    }

    /// A `with:` value is checked in the file that writes it: an undefined variable there is placed in the flow, and a
    /// value with an error (reported at it) still gives its variable, so the used file does not also miss it.
    @Test func aWithValueIsCheckedWhereItIsWritten() async {
        let collection = await readCollection(of: [
            "_fetch.yaml": "request: { url: 'http://127.0.0.1:1/{{ userId }}', json: { o: '{{ obj }}' } }\n",
            "flow.yaml": "steps:\n  - use: _fetch.yaml\n    with: { userId: '{{ nowhere }}', obj: { 1: a, '1': b } }\n",
        ])
        #expect(rendered(collection).map { $0.components(separatedBy: "\n")[0] } == [
            "requests/flow.yaml:3:22: error: undefined variable 'nowhere'",
            "requests/flow.yaml:3:51: error: key \"1\" is written twice in this mapping (first on line 3): a JSON object holds one",
        ], "\(rendered(collection))")
    }

    /// Through a used file that uses another, both `use:` steps are named, the nearest first.
    @Test func aVariableUndefinedTwoUsesDeepNamesBothUses() async {
        let collection = await readCollection(of: [
            "_fetch.yaml": "request: { url: 'http://127.0.0.1:1/{{ userId }}' }\n",
            "_outer.yaml": "steps:\n  - use: _fetch.yaml\n",
            "flow.yaml": "steps:\n  - use: _outer.yaml\n",
        ])
        #expect(rendered(collection) == [undefinedUserId(notingUsesAt: ["_outer.yaml:2:10", "flow.yaml:2:10"])])
    }

    /// A `with:` value written in a used file reads what a `use:` of that file could give: an undefined variable in it
    /// names that `use:`; given there, it is no error.
    @Test func aWithValueInAUsedFileNamesTheUseThatCouldGiveItsVariable() async {
        let inner = "request: { url: 'http://127.0.0.1:1/{{ deep }}' }\n"
        let mid = "steps:\n  - use: _inner.yaml\n    with: { deep: 'fin-{{ finVar }}' }\n"
        let missing = await readCollection(of: ["_inner.yaml": inner, "_mid.yaml": mid,
                                                "flow.yaml": "steps:\n  - use: _mid.yaml\n    with: { deep: x }\n"])
        #expect(rendered(missing) == [[
            "requests/_mid.yaml:3:24: error: undefined variable 'finVar'",
            "note: requests/flow.yaml:2:10: this 'use:' gives no 'with:' value for 'finVar'",
            "help: add 'with: { finVar: ... }' to a 'use:' noted above, or define 'finVar' in the using flow's scope",
        ].joined(separator: "\n")], "\(rendered(missing))")
        let given = await readCollection(of: ["_inner.yaml": inner, "_mid.yaml": mid,
                                              "flow.yaml": "steps:\n  - use: _mid.yaml\n    with: { finVar: x }\n"])
        #expect(rendered(given).isEmpty, "\(rendered(given))")
    }

    /// A `with:` key close to the variable the used file reads (a typo on either side) is named at the `use:` that gives
    /// it, also when another `use:` of the file is reported with it; the key, which the used file reads nowhere, is a
    /// warning at the `with:`.
    @Test func aWithKeyCloseToAnUndefinedVariableIsNamedAtItsUse() async {
        let collection = await readCollection(of: [
            "_fetch.yaml": "request: { url: 'http://127.0.0.1:1/{{ thing }}/{{ othr }}' }\n",
            "flow.yaml": "steps:\n  - use: _fetch.yaml\n    with: { thing: a }\n  - use: _fetch.yaml\n    with: { thing: b, other: c }\n",
        ])
        #expect(rendered(collection) == [[
            "requests/_fetch.yaml:1:49: error: undefined variable 'othr'",
            "note: requests/flow.yaml:2:10: this 'use:' gives no 'with:' value for 'othr'",
            "note: requests/flow.yaml:4:10: this 'use:' gives no 'with:' value for 'othr' (did you mean 'other'?)",
            "help: add 'with: { othr: ... }' to a 'use:' noted above, or define 'othr' in the using flow's scope",
        ].joined(separator: "\n"),
        // The key the used file reads nowhere, at the `with:` (trial helper-185).
        "requests/flow.yaml:5:23: warning: 'other' is given to requests/_fetch.yaml, which reads it nowhere: it gives nothing its value\n"
            + "help: did you mean 'othr'?"], "\(rendered(collection))")
    }

    /// A mistyped `with:` key: its warning says the name likely meant; the used file's undefined variable is not told to
    /// take the typo's name (trial helper-189: "or did you mean 'cdoe'?").
    @Test func aMistypedWithKeyIsTheOneToRename() async {
        let collection = await readCollection(of: [
            "_d.yaml": "request: { url: 'http://127.0.0.1:1/{{ code }}' }\n",
            "flow.yaml": "steps:\n  - use: _d.yaml\n    with: { cdoe: 500 }\n",
        ])
        let shown = rendered(collection)
        #expect(shown.contains { $0.contains("warning: 'cdoe' is given to requests/_d.yaml") && $0.contains("did you mean 'code'?") }, "\(shown)")
        let helps = shown.flatMap { $0.split(separator: "\n") }.filter { $0.hasPrefix("help:") }
        #expect(!helps.contains { $0.contains("cdoe") }, "\(shown)")
    }

    /// The error for `userId` undefined in `requests/_fetch.yaml`, with a note at each `use:` (under `requests/`).
    private func undefinedUserId(notingUsesAt uses: [String]) -> String {
        (["requests/_fetch.yaml:1:37: error: undefined variable 'userId'"]
            + uses.map { "note: requests/\($0): this 'use:' gives no 'with:' value for 'userId'" }
            + ["help: add 'with: { userId: ... }' to a 'use:' noted above, or define 'userId' in the using flow's scope"])
            .joined(separator: "\n")
    }
}
