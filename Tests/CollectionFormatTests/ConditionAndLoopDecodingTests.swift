import Testing
import YAML
@testable import CollectionFormat
import CollectionReading

/// `when:`, `finally:` and `each:` over a template: how they are read, and each bad input as a located error.
@Suite struct ConditionAndLoopDecodingTests {
    @Test func aFlowKeepsItsConditionsItsCleanupStepsAndItsLoops() throws {
        let (file, diagnostics) = decodeRequestFile("""
            when: { "{{ region }}": { in: [eu, us] } }
            steps:
              - request: { url: /a }
                capture: { ids: "$.ids" }
              - each: "{{ ids }}"
                when: { "{{ token }}": { exists: false } }
                request: { url: "/a/{{ item }}" }
            finally:
              - request: { method: DELETE, url: /a }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(file.isFlow)
        #expect(file.conditions.map(\.subject.source) == ["{{ region }}"])
        #expect(file.steps.map(\.isCleanup) == [false, false, true])
        #expect(file.steps.map(\.name) == ["step 1", "step 2", "cleanup 1"])
        #expect(file.steps[1].loop?.source == "{{ ids }}")
        #expect(file.steps[1].conditions.map(\.subject.source) == ["{{ token }}"])
        guard case .exists(false)? = file.steps[1].conditions.first?.matcher else {
            Issue.record("expected exists: false")
            return
        }
    }

    @Test func aRequestFileLoopsOverATemplateOrReadsAFile() {
        let (looping, problems) = decodeRequestFile("each: \"{{ users }}\"\nrequest: { url: \"/u/{{ id }}\" }\n")
        #expect(problems.isEmpty)
        #expect(looping.rowsTemplate?.source == "{{ users }}")
        #expect(looping.rowsFile == nil)
        let (reading, _) = decodeRequestFile("each: rows.csv\nrequest: { url: /u }\n")
        #expect(reading.rowsFile?.written == "rows.csv")
        #expect(reading.rowsTemplate == nil)
    }

    @Test func badConditionsAndLoopsAreLocated() {
        #expect(problems("when: { region: eu }\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:9: error: the 'when' key 'region' is not a template: it would never change [help: write the value to check as a template, such as \"{{ region }}\"]",
        ])
        #expect(problems("when: { \"{{ region }}\": { among: [eu] } }\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:27: error: unknown matcher operator 'among' [help: to compare with an object, write { equals: { ... } }]",
        ])
        // Another tool's name for an operator is a typo of this one's.
        #expect(problems("when: { \"{{ mode }}\": { oneOf: [a, b] } }\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:25: error: unknown matcher operator 'oneOf' [help: did you mean 'in'?]",
        ])
        #expect(problems("when: {}\nrequest: { url: /a }\n") == ["requests/r.yaml:1:7: error: 'when' is empty: give at least one condition"])
        #expect(problems("request: { url: /a }\nfinally:\n  - request: { url: /b }\n") == [
            "requests/r.yaml:2:1: error: 'finally' does not belong here [help: cleanup steps belong to a flow: put the request under 'steps:' and the cleanup under 'finally:']",
        ])
        // A flow's keys misspelt in what reads as a single-request file, and `use` in a step, are suggested.
        #expect(problems("request: { url: /a }\nfinaly:\n  - request: { url: /b }\n") == [
            "requests/r.yaml:2:1: error: unknown key 'finaly' [help: did you mean 'finally'? (cleanup steps belong to a flow: put the request under 'steps:' and the cleanup under 'finally:')]",
        ])
        #expect(problems("step:\n  - request: { url: /a }\n").first
                == "requests/r.yaml:1:1: error: unknown key 'step' [help: did you mean 'steps'? (a flow: its requests go under 'steps:')]")
        #expect(problems("steps:\n  - uses: other.yaml\n").first
                == "requests/r.yaml:2:5: error: unknown key 'uses' [help: did you mean 'use'? (a step that takes the steps of another file)]")
        #expect(problems("steps:\n  - uses: other.yaml\n    with: { a: 1 }\n").last
                == "requests/r.yaml:3:5: error: 'with' does not belong here [help: 'with' gives a 'use:' step's file its variables, beside 'use']")
        // A `use:` (with its `with:`, or misspelt) at the top level says where it goes, not that 'request' is missing.
        #expect(problems("use: other.yaml\n")
                == ["requests/r.yaml:1:1: error: 'use' does not belong here [help: 'use' is a step of a flow: write it under 'steps:']"])
        #expect(problems("use: other.yaml\nwith: { id: 3 }\n") == [
            "requests/r.yaml:1:1: error: 'use' does not belong here [help: 'use' is a step of a flow: write it under 'steps:']",
            "requests/r.yaml:2:1: error: 'with' does not belong here [help: 'with' goes beside 'use' in a step of a flow: write both under 'steps:']",
        ])
        #expect(problems("uses: other.yaml\n")
                == ["requests/r.yaml:1:1: error: unknown key 'uses' [help: did you mean 'use'? ('use' is a step of a flow: write it under 'steps:')]"])
        #expect(problems("steps:\n  - uses: other.yaml\n").count == 1, "a misspelt 'use' in a step is one problem")
        // A misspelt request key says what it was taken for, and the request is not also reported missing.
        #expect(problems("requets: { url: /a }\n") == ["requests/r.yaml:1:1: error: unknown key 'requets' [help: did you mean 'request'?]"])
        // `when` is allowed beside `use`: a misspelling of it is only that.
        #expect(problems("steps:\n  - use: other.yaml\n    When: { \"{{ a }}\": 1 }\n").first
                == "requests/r.yaml:3:5: error: unknown key 'When' in 'use' [help: did you mean 'when'?]")
        #expect(problems("steps:\n  - request: { url: /a }\nfinally: []\n") == [
            "requests/r.yaml:3:10: error: 'finally' is empty: give at least one cleanup step, or remove it",
        ])
        #expect(problems("steps:\n  - each: \"ids: {{ ids }}\"\n    request: { url: /a }\n") == [
            "requests/r.yaml:2:11: error: 'each' must be one template naming a list, such as \"{{ ids }}\", found 'ids: {{ ids }}' [help: capture or define a list, and write its name alone between '{{' and '}}']",
        ])
        #expect(problems("steps:\n  - each: [1, 2]\n    request: { url: /a }\n") == [
            "requests/r.yaml:2:11: error: expected a lone template such as \"{{ ids }}\" whose value is a list for 'each', found a list",
        ])
        #expect(problems("request: { url: \"/a/{{ $randomInt(5, 1) }}\" }\n") == [
            "requests/r.yaml:1:21: error: '$randomInt(5, 1)': MIN (5) is greater than MAX (1) [help: write $randomInt(1, 5)]",
        ])
        #expect(problems("request: { url: \"/a/{{ $randomString }}\" }\n") == [
            "requests/r.yaml:1:21: error: '$randomString' needs a length [help: write $randomString(N), such as $randomString(12)]",
        ])
        // Every expression of a template is checked, not only up to the first problem.
        #expect(problems("request: { url: \"/a/{{ $randomInt(5, 1) }}/{{ ok }}/{{ $randomString(0) }}/{{ $nope }}\" }\n") == [
            "requests/r.yaml:1:21: error: '$randomInt(5, 1)': MIN (5) is greater than MAX (1) [help: write $randomInt(1, 5)]",
            "requests/r.yaml:1:53: error: '$randomString(0)': the length must be from 1 to 10000",
            "requests/r.yaml:1:76: error: unknown built-in '$nope' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
        ])
    }

    /// A template with a syntax error still has its other expressions checked: an undefined variable or an unset
    /// `$env` beside an unknown built-in is reported too.
    @Test func aSyntaxErrorInATemplateHidesNoOtherProblemOfIt() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write([
            "environments/qa.yaml": "baseURL: http://127.0.0.1:1\nvariables:\n  userName: bob\n",
            "requests/1.yaml": """
                request:
                  url: "/a/{{ $uid }}/{{ usrName }}"
                  headers:
                    X-B: "{{ $uid }} {{ nope }} {{ $env.RUNNER_TEST_UNSET_HOEM }} {{ userName }}"
                """,
            // A bad operand or credential leaves out its matcher or auth, whose other templates are still checked; a
            // `length` template with a syntax error is that one problem.
            "requests/2.yaml": """
                request: { url: /a }
                auth: { basic: { username: "{{ $uidd }}", password: "{{ ap }}" } }
                expect:
                  body:
                    $.a: { in: ["{{ e5 }}", "{{ $bar }}"] }
                    $.b: { length: "{{ $x3 }}" }
                """,
            // So are a `when:` operand's, in the step's scope; the key's undefined variable is absent, not an error.
            "requests/3.yaml": """
                when: { "{{ region }}": { in: ["{{ e6 }}", "{{ $bad }}", "{{ userName }}"] } }
                request: { url: /a }
                """,
            // And a flow's own `when:`.
            "requests/4.yaml": """
                when: { "{{ region }}": { in: ["{{ e7 }}", "{{ $bad }}", "{{ userName }}"] } }
                steps:
                  - request: { url: /a }
                """,
        ])
        let loaded = await scratch.readCollection(["requests"], env: "qa")
        let help = "[help: did you mean '$uuid'?]"
        #expect(problems(of: loaded) == [
            "requests/1.yaml:2:12: error: unknown built-in '$uid' \(help)",
            "requests/1.yaml:2:23: error: undefined variable 'usrName' [help: did you mean 'userName'?]",
            "requests/1.yaml:4:11: error: unknown built-in '$uid' \(help)",
            "requests/1.yaml:4:22: error: undefined variable 'nope' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var nope=VALUE]",
            "requests/1.yaml:4:33: error: environment variable 'RUNNER_TEST_UNSET_HOEM' is not set (used as '$env.RUNNER_TEST_UNSET_HOEM')",
            "requests/2.yaml:2:29: error: unknown built-in '$uidd' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
            "requests/2.yaml:2:54: error: undefined variable 'ap' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var ap=VALUE]",
            "requests/2.yaml:5:18: error: undefined variable 'e5' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var e5=VALUE]",
            "requests/2.yaml:5:30: error: unknown built-in '$bar' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
            "requests/2.yaml:6:21: error: unknown built-in '$x3' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
            "requests/3.yaml:1:33: error: undefined variable 'e6' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var e6=VALUE]",
            "requests/3.yaml:1:45: error: unknown built-in '$bad' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
            "requests/4.yaml:1:33: error: undefined variable 'e7' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var e7=VALUE]",
            "requests/4.yaml:1:45: error: unknown built-in '$bad' [help: built-ins are $uuid, $timestamp, $isoDate, $isoTimestamp, $randomInt, $randomString, $randomEmail, $randomName, $env]",
        ])
    }

    @Test func validationKnowsTheVariablesOfLoopsAndConditions() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write([
            "environments/qa.yaml": "baseURL: http://127.0.0.1:1\nvariables:\n  regions: [{ code: eu, name: Europe }]\n  count: 3\n  none: []\n",
            "requests/2.yaml": "each: \"{{ count }}\"\nrequest: { url: \"/n/{{ name }}\" }\n",
            // An empty list (in this environment) has no fields to know: one SKIP at run time, not an error.
            "requests/6.yaml": "each: \"{{ none }}\"\nrequest: { url: \"/e/{{ email }}\" }\n",
            "requests/3.yaml": "each: ids\nrequest: { url: /n }\n",
            "requests/9.yaml": "each: 5\nrequest: { url: /n }\n",
            // A step's each: naming a data file: told where rows go, and its request's variables are not reported.
            "requests/91.yaml": "steps:\n  - each: rows.csv\n    request: { url: \"/r/{{ a }}\" }\n",
            // An each: of another kind is the one error: its request's variables are not reported.
            "requests/92.yaml": "each:\nrequest: { url: \"/r/{{ item }}/{{ id }}\" }\n",
            "requests/4.yaml": "each: \"{{ regions }} and more\"\nrequest: { url: \"/r/{{ item }}/{{ index }}\" }\n",
            "requests/5.yaml": "steps:\n  - each: \"ids: {{ regions }}\"\n    request: { url: \"/r/{{ item.code }}\" }\n",
            // A path into an element of a known list is checked against its first element, in a file and in a step.
            "requests/7.yaml": "each: \"{{ regions }}\"\nrequest: { url: \"/r/{{ item.code }}/{{ item.nmae }}/{{ xyzzy }}/{{ nonee }}\" }\n",
            "requests/8.yaml": """
                steps:
                  - each: "{{ regions }}"
                    when: { "{{ code }}": eu, "{{ item.code }}": eu }
                    request: { url: "/r/{{ item.code.x }}" }
                """,
            "requests/1.yaml": """
                steps:
                  - request: { url: /ids }
                    capture: { ids: $.ids }
                  - each: "{{ ids }}"
                    request: { url: "/ids/{{ item }}/{{ index }}/{{ anyField }}" }
                  - each: "{{ regions }}"
                    request: { url: "/regions/{{ code }}/{{ nmae }}" }
                  - when: { "{{ adminToken }}": { exists: true }, "{{ region }}": eu }
                    request: { url: "/admin", headers: { X-Token: "{{ adminToken }}" } }
                finally:
                  - request: { method: DELETE, url: "/ids/{{ ids }}/{{ item }}" }
                """,
        ])
        let loaded = await scratch.readCollection(["requests"], env: "qa")
        // Over a captured list the elements' fields cannot be known; over a variable they can; `item` belongs to its
        // step; a `when:` that requires a variable defines it for its step.
        #expect(problems(of: loaded) == [
            "requests/1.yaml:7:42: error: undefined variable 'nmae' [help: did you mean 'name'?]",
            // Absent, as documented, but named like a defined variable: a likely typo.
            "requests/1.yaml:8:52: warning: 'region' is not defined here, so this condition finds it absent [help: did you mean 'regions'?]",
            "requests/1.yaml:11:53: error: undefined variable 'item' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var item=VALUE]",
            "requests/2.yaml:1:7: error: each: '{{ count }}' is a number, not a list [help: loop over a list, such as a variable holding [a, b]]",
            "requests/3.yaml:1:7: error: each: file 'ids' does not exist (looked for 'requests/ids') [help: to loop over the list in a variable, write each: \"{{ ids }}\"]",
            // A refused `each:` is the one error: its requests may still use `item` and `index`.
            "requests/4.yaml:1:7: error: 'each' must be one template naming a list, such as \"{{ ids }}\", found '{{ regions }} and more' [help: capture or define a list, and write its name alone between '{{' and '}}']",
            "requests/5.yaml:2:11: error: 'each' must be one template naming a list, such as \"{{ ids }}\", found 'ids: {{ regions }}' [help: capture or define a list, and write its name alone between '{{' and '}}']",
            "requests/7.yaml:2:37: error: 'item' has no key 'nmae' (in 'item.nmae') [help: did you mean 'name'?]",
            // A variable named like no field of the elements is said to be none of them.
            "requests/7.yaml:2:53: error: undefined variable 'xyzzy' [help: the first element of each: '{{ regions }}' has no field 'xyzzy' (its fields: code, name)]",
            "requests/7.yaml:2:65: error: undefined variable 'nonee' [help: did you mean 'none'? Or: the first element of each: '{{ regions }}' has no field 'nonee' (its fields: code, name)]",
            // The step's `when:` sees the element's fields (no warning for `code`).
            "requests/8.yaml:4:25: error: 'item.code' is a string, not an object (in 'item.code.x')",
            // A number is no file's name (trial helper-174).
            "requests/9.yaml:1:7: error: expected a .csv, .json or .yaml file, a list of mappings or a template naming a list for 'each', found the integer 5",
            "requests/91.yaml:2:11: error: 'each' must be one template naming a list, such as \"{{ ids }}\", found 'rows.csv' [help: a step loops over a list only; a data file's rows go in the each: at the top of the file, for every step]",
            "requests/92.yaml:1:6: error: expected a .csv, .json or .yaml file, a list of mappings or a template naming a list for 'each', found null",
        ])
    }

    /// A `when:` testing a variable that a later request captures always finds it absent: a warning names the capturer
    /// (trial helper-161); one defined nowhere is absent as documented, and one captured earlier is no problem.
    @Test func aConditionOnAVariableALaterRequestCapturesIsAWarning() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(["requests/1.yaml": """
            steps:
              - when: { "{{ laterId }}": { exists: true } }
                request: { url: "http://127.0.0.1:1/a" }
              - name: Captures later
                request: { url: "http://127.0.0.1:1/b" }
                capture: { laterId: $.id }
              - when: { "{{ featureFlag }}": true, "{{ laterId }}": { exists: true } }
                request: { url: "http://127.0.0.1:1/c" }
            """, "requests/2.yaml": """
            when: { "{{ fromThree }}": ok }
            request: { url: "http://127.0.0.1:1/d" }
            """, "requests/3.yaml": """
            request: { url: "http://127.0.0.1:1/e" }
            capture: { fromThree: $.x }
            """, "requests/4.yaml": """
            steps:
              - when: { "{{ x }}": 1 }
                request: { url: "http://127.0.0.1:1/f" }
              - name: Captures x
                request: { url: "http://127.0.0.1:1/g" }
                capture: { x: $.x }
            """, "environments/e.yaml": "variables: { d: 1 }\n"])
        // `x` is one typo from `d`: captured later all the same, which the warning says (trial helper-162).
        let loaded = await scratch.readCollection(["requests"], env: "e")
        #expect(problems(of: loaded) == [
            "requests/1.yaml:2:14: warning: 'laterId' is captured by step 'Captures later' of requests/1.yaml, which runs after this "
                + "condition: the condition always finds it absent [help: capture it in an earlier request, or test it in a request "
                + "that runs after step 'Captures later' of requests/1.yaml]",
            "requests/2.yaml:1:10: warning: 'fromThree' is captured by requests/3.yaml, which runs after this condition: the condition "
                + "always finds it absent [help: capture it in an earlier request, or test it in a request that runs after requests/3.yaml]",
            "requests/4.yaml:2:14: warning: 'x' is captured by step 'Captures x' of requests/4.yaml, which runs after this condition: "
                + "the condition always finds it absent [help: capture it in an earlier request, or test it in a request that runs after "
                + "step 'Captures x' of requests/4.yaml]",
        ])
    }

    /// A `when:` asking whether a variable exists, whose name is a typo of a captured one, gets a warning: the cleanup it
    /// guards would never run (trial helper-169). A name close to no captured one may come from a `--var`: no warning.
    @Test func anExistsConditionOnATypoOfACapturedNameIsAWarning() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(["requests/1.yaml": """
            steps:
              - request: { method: POST, url: "http://127.0.0.1:1/things" }
                capture: { createdId: $.id }
            finally:
              - when: { "{{ createdid }}": { exists: true } }
                request: { method: DELETE, url: "http://127.0.0.1:1/things/1" }
              - when: { "{{ debugMode }}": { exists: true }, "{{ mode }}": { exists: true } }
                request: { url: "http://127.0.0.1:1/debug" }
            """, "environments/e.yaml": "variables: { node: 1 }\n"])
        let loaded = await scratch.readCollection(["requests"], env: "e")
        #expect(problems(of: loaded) == [
            "requests/1.yaml:5:14: warning: 'createdid' is not defined here, so this condition finds it absent [help: did you mean 'createdId'?]",
        ])
    }
}
