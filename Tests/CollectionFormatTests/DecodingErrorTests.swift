import HTTPCore
import Testing
import YAML
@testable import CollectionFormat

@Suite struct DecodingErrorTests {
    @Test func unknownKeysAtEveryLevelSuggestTheClosest() {
        #expect(problems("""
            reqest: { url: /a }
            """) == [
            "requests/r.yaml:1:1: error: unknown key 'reqest' [help: did you mean 'request'?]",
        ])
        // The key the suggestion names is not also reported missing.
        #expect(problems("request: { ulr: /a }") == [
            "requests/r.yaml:1:12: error: unknown key 'ulr' in 'request' [help: did you mean 'url'?]",
        ])
        // A key of its own written inside `request:` says where it goes.
        #expect(problems("request:\n  url: /a\n  auth: { bearer: x }\n") == [
            "requests/r.yaml:3:3: error: 'auth' does not belong in 'request' [help: 'auth' goes beside 'request', not inside it]",
        ])
        #expect(problems("request: { url: /a }\nexpect:\n  headers: { Content-Type: a, content-type: b }\n") == [
            "requests/r.yaml:3:31: error: 'content-type' names the header 'Content-Type' again (header names are case-insensitive) "
                + "[help: check it once: a mapping of operators holds several checks]",
        ])
        // A key of request:, expect: or options: written beside them says where it goes.
        #expect(problems("request: { url: /a }\nstatus: 200\ntimeout: 5s\nmethod: POST\n") == [
            "requests/r.yaml:2:1: error: 'status' does not belong here [help: 'status' is an expectation: write it under 'expect:']",
            "requests/r.yaml:3:1: error: 'timeout' does not belong here [help: 'timeout' is an option: write it under 'options:']",
            "requests/r.yaml:4:1: error: 'method' does not belong here [help: 'method' belongs to the request: write it under 'request:']",
        ])
        #expect(problems("request: { url: /a, headers: { Accept: a, accept: b } }\n") == [
            "requests/r.yaml:1:43: error: 'accept' names the header 'Accept' again (header names are case-insensitive) "
                + "[help: give it once, several values joined with ', ']",
        ])
        // `expect:` indented under `capture:` says where it goes, not that `status` wants a boolean; a capture named
        // `expect` that is one stays one.
        #expect(problems("request: { url: /a }\ncapture:\n  x: $.url\n  expect: { status: 200 }\n") == [
            "requests/r.yaml:4:3: error: 'expect' is not a capture: it goes beside 'capture', not inside it "
                + "[help: indent 'expect:' as far as 'capture:' (its key 'status' is one of 'expect')]",
        ])
        #expect(problems("request: { url: /a }\ncapture:\n  expect: { status: true }\n  options: $.o\n").isEmpty)
        #expect(problems("request: { url: /a }\ncapture:\n  m: $.method\n  when: { \"{{ m }}\": GET }\n") == [
            "requests/r.yaml:4:3: error: 'when' is not a capture: it goes beside 'capture', not inside it "
                + "[help: indent 'when:' as far as 'capture:' (its conditions are those of 'when')]",
        ])
        // `.inf` and `.nan` are numbers (an expectation may compare with them) that a JSON body cannot send.
        #expect(problems("request:\n  url: /a\n  json: { h: .inf, l: [1, -.inf], n: .nan }\n") == [
            "requests/r.yaml:3:14: error: an infinite number cannot be sent as JSON, which has no such number [help: write a finite number, or write it in quotes to send it as a string]",
            "requests/r.yaml:3:27: error: an infinite number cannot be sent as JSON, which has no such number [help: write a finite number, or write it in quotes to send it as a string]",
            "requests/r.yaml:3:38: error: NaN cannot be sent as JSON, which has no such number [help: write a finite number, or write it in quotes to send it as a string]",
        ])
        #expect(problems("request:\n  url: /a\n  graphql: { query: q, variables: { v: .inf } }\n").count == 1)
        #expect(problems("request: { url: /a }\nexpect:\n  body: { $.a: { lessThan: .inf } }\n").isEmpty)
        #expect(problems("request:\n  url: /a\n  timeout: 5s\n") == [
            "requests/r.yaml:3:3: error: 'timeout' does not belong in 'request' [help: 'timeout' is an option: write it under 'options:']",
        ])
        #expect(problems("request:\n  url: /a\n  status: 200\nexpect:\n  capture: { a: $.a }\n") == [
            "requests/r.yaml:3:3: error: 'status' does not belong in 'request' [help: 'status' is an expectation: write it under 'expect:']",
            "requests/r.yaml:5:3: error: 'capture' does not belong in 'expect' [help: 'capture' goes beside 'expect', not inside it]",
        ])
        #expect(problems("""
            request:
              method: GET
              url: /users
              heders:
                A: b
            """) == ["requests/r.yaml:4:3: error: unknown key 'heders' in 'request' [help: did you mean 'headers'?]"])
        #expect(problems("""
            request: { url: /a }
            options: { timout: 5s, retry: { atempts: 2 } }
            expect: { stauts: 200 }
            capture: { a: { heder: X } }
            auth: { basic: { user: a, password: b } }
            """) == [
            "requests/r.yaml:2:12: error: unknown key 'timout' in 'options' [help: did you mean 'timeout'?]",
            "requests/r.yaml:2:33: error: unknown key 'atempts' in 'options.retry' [help: did you mean 'attempts'?]",
            "requests/r.yaml:3:11: error: unknown key 'stauts' in 'expect' [help: did you mean 'status'?]",
            "requests/r.yaml:4:17: error: unknown key 'heder' in 'capture.a' [help: did you mean 'header'?]",
            "requests/r.yaml:5:18: error: unknown key 'user' in 'auth.basic' [help: did you mean 'username'?]",
        ])
    }

    @Test func wrongTypesNameWhatWasFound() {
        #expect(problems("request:\n  - url: /a\n") == [
            "requests/r.yaml:2:3: error: expected a mapping for 'request', found a list",
        ])
        #expect(problems("request:\n  url: /a\n  headers: [a, b]\n") == [
            "requests/r.yaml:3:12: error: expected a mapping for 'request.headers', found a list",
        ])
        #expect(problems("request: { url: /a }\noptions: { followRedirects: yes, maxRedirects: -1 }\n") == [
            "requests/r.yaml:2:29: error: expected a boolean (true or false) for 'options.followRedirects', found the string 'yes' "
                + "[help: write true: YAML 1.2, which runner reads, takes yes, no, on and off as text]",
            "requests/r.yaml:2:48: error: 'options.maxRedirects' must be at least 0, found -1",
        ])
        #expect(problems("request: { url: /a }\noptions: { cookies: off }\n") == [
            "requests/r.yaml:2:21: error: expected a boolean (true or false) for 'options.cookies', found the string 'off' "
                + "[help: write false: YAML 1.2, which runner reads, takes yes, no, on and off as text]",
        ])
        #expect(problems("request: { url: /a, query: { a: { b: c } } }") == [
            "requests/r.yaml:1:33: error: expected a scalar or a list of scalars for 'request.query.a', found a mapping",
        ])
    }

    /// A number that would not go as written (an integer past 64 bits, a number past a double's range) is an error at it,
    /// not a rounded float or `null` on the wire; a float and `!!float` are kept, and `.inf`, which a JSON body cannot send,
    /// is an error there.
    @Test func numbersThatWouldNotBeSentAsWrittenAreErrors() {
        #expect(problems("request: { url: /a, json: { a: 18446744073709551616, b: -1e400, c: 1.5, d: .inf, e: !!float 99999999999999999999 } }") == [
            "requests/r.yaml:1:32: error: the integer 18446744073709551616 is beyond what a number holds exactly "
                + "(-9223372036854775808 to 9223372036854775807): it would be sent or compared rounded, as 1.8446744073709552e+19 "
                + "[help: write it in quotes to keep it as a string]",
            "requests/r.yaml:1:57: error: the number -1e400 is beyond what a number holds (about ±1.8e308) "
                + "[help: write a smaller number, or write it in quotes to keep it as a string]",
            "requests/r.yaml:1:76: error: an infinite number cannot be sent as JSON, which has no such number "
                + "[help: write a finite number, or write it in quotes to send it as a string]",
        ])
        #expect(problems("request: { url: /a, json: { a: 9223372036854775807, b: \"18446744073709551616\" } }").isEmpty)
        // An integer past a double's range too is past what a number holds at all, not "rounded, as inf".
        #expect(problems("request: { url: /a, json: { a: 1\(String(repeating: "0", count: 400)) } }") == [
            "requests/r.yaml:1:32: error: the number 1\(String(repeating: "0", count: 400)) is beyond what a number holds (about ±1.8e308) "
                + "[help: write a smaller number, or write it in quotes to keep it as a string]",
        ])
    }

    @Test func topLevelShapes() {
        let empty = "requests/r.yaml:1:1: error: empty file: expected a request (keys like 'request', 'expect') or 'steps' "
            + "[help: write a request, such as: request: { url: /health }]"
        #expect(problems("") == [empty])
        #expect(problems("# only a comment\n") == [empty])
        #expect(problems("- a\n- b\n") == [
            "requests/r.yaml:1:1: error: expected a mapping at the top level (keys like 'request', 'expect') or 'steps', found a list",
        ])
        #expect(problems("hello\n") == [
            "requests/r.yaml:1:1: error: expected a mapping at the top level (keys like 'request', 'expect') or 'steps', found the string 'hello'",
        ])
        #expect(problems("request: { method: GET }") == ["requests/r.yaml:1:10: error: missing key 'url' in 'request'"])
    }

    @Test func flowShapes() {
        #expect(problems("""
            request: { url: /a }
            steps:
              - request: { url: /b }
                steps: []
            """) == [
            "requests/r.yaml:1:1: error: 'request' does not belong here [help: in a flow, put it inside a step]",
            "requests/r.yaml:4:5: error: 'steps' does not belong here [help: flows cannot nest: 'steps' is only allowed at the top level]",
        ])
        #expect(problems("steps: []") == ["requests/r.yaml:1:8: error: 'steps' is empty: a flow needs at least one step"])
        // A step written after two dashes is a list.
        #expect(problems("steps:\n  - request: { url: /a }\n  - - request: { url: /b }\n") == [
            "requests/r.yaml:3:5: error: step 2 of 'steps' is a list, not a step [help: a step is one mapping (request:, use:, ...), each after a single '-' of 'steps:', not inside a list of its own]",
        ])
        // A capture beside an expected failure, which gives no response (trial helper-135).
        #expect(problems("request: { url: /a }\nexpect: { error: timeout }\ncapture: { id: $.id }\n") == [
            "requests/r.yaml:3:10: error: 'capture' takes its values from a response, and 'expect.error' expects none [help: remove 'capture', or 'expect.error']",
        ])
        // A dash with nothing after it (trial helper-131: it was 'expected a mapping for steps, found null').
        #expect(problems("steps:\n  - request: { url: /a }\nfinally:\n  -\n") == [
            "requests/r.yaml:4:4: error: step 1 of 'finally' is empty [help: write its keys (request:, use:, ...) after the '-', or on the lines below indented past it; or remove the '-']",
        ])
    }

    /// An OAuth2 token URL written without templates is checked as a request's URL is: its scheme and port.
    @Test func aWrittenTokenURLIsCheckedAsAURL() {
        let auth = { (url: String) in "request: { url: /a }\nauth: { oauth2: { tokenURL: \"\(url)\", clientID: c, clientSecret: s } }\n" }
        #expect(problems(auth("http://127.0.0.1:99999/token")) == [
            "requests/r.yaml:2:29: error: 'auth.oauth2.tokenURL': the port 99999 is not a number from 1 to 65535 [help: write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)]",
        ])
        #expect(problems(auth("ftp://127.0.0.1/token")).first?.contains("unsupported URL scheme 'ftp'") == true)
        #expect(problems(auth("")).first?.contains("'auth.oauth2.tokenURL' is empty") == true)
        #expect(problems(auth("/token")).isEmpty && problems(auth("https://id.example.com:8443/token")).isEmpty)
    }

    @Test func twoBodyKeys() {
        #expect(problems("request:\n  url: /a\n  json: {}\n  text: hi\n") == [
            "requests/r.yaml:4:3: error: more than one body: 'json' and 'text' [help: a request has at most one of json, form, multipart, text, file, graphql]",
        ])
    }

    @Test func graphqlBodies() {
        #expect(problems("""
            request:
              url: /graphql
              json: {}
              graphql: { query: "{ a }" }
            """) == [
            "requests/r.yaml:4:3: error: more than one body: 'json' and 'graphql' [help: a request has at most one of json, form, multipart, text, file, graphql]",
        ])
        #expect(problems("""
            steps:
              - request: { url: /g, graphql: { variables: { id: 1 } } }
              - request: { url: /g, graphql: { query: "{ a }", operation: A } }
              - request: { url: /g, graphql: { query: "{ a }", variables: [1] } }
              - request: { url: /g, graphql: { query: "{ a }", variables: "id {{ x }}" } }
              - request: { url: /g, graphql: { query: " " } }
              - request: { url: /g, graphql: "{ a }" }
            """) == [
            "requests/r.yaml:2:34: error: missing key 'query' in 'request.graphql'",
            "requests/r.yaml:3:52: error: unknown key 'operation' in 'request.graphql' [help: did you mean 'operationName'?]",
            "requests/r.yaml:4:63: error: expected a mapping of variables for 'request.graphql.variables', found a list"
                + " [help: write a mapping such as variables: { id: \"{{ userId }}\" }, or one template holding a mapping]",
            "requests/r.yaml:5:63: error: expected a mapping of variables for 'request.graphql.variables', found the string 'id {{ x }}'"
                + " [help: write a mapping such as variables: { id: \"{{ userId }}\" }, or one template holding a mapping]",
            "requests/r.yaml:6:43: error: 'request.graphql.query' is empty [help: write the GraphQL document, such as '{ users { name } }']",
            "requests/r.yaml:7:34: error: expected a mapping for 'request.graphql', found the string '{ a }'",
        ])
    }

    @Test func xpathExpressionsAndNamespaces() {
        #expect(problems("""
            request: { url: /a }
            expect:
              namespaces: { a: "urn:a", 1x: "urn:x", b: 3, c: "" }
              xpath:
                "count(//a:x": 1
                //a:x/s:y: 1
                "nope(1)": 1
                "concat('a')": 1
                "//b:x": 1
            capture:
              t: { xpath: "//q:t" }
              u: { xpath: "string(//a:t)" }
            """) == [
            "requests/r.yaml:3:29: error: invalid namespace prefix '1x' [help: a prefix is a name of letters, digits, '_', '-' and '.', not starting with a digit, '-' or '.']",
            "requests/r.yaml:3:45: error: expected a namespace URI for 'expect.namespaces.b', found the integer 3"
                + " [help: write the URI the document declares, such as \"http://www.w3.org/2005/Atom\"]",
            "requests/r.yaml:3:51: error: expected a namespace URI for 'expect.namespaces.c', found the string ''"
                + " [help: write the URI the document declares, such as \"http://www.w3.org/2005/Atom\"]",
            "requests/r.yaml:5:11: error: invalid XPath 'count(//a:x': '(' is not closed [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:6:11: error: invalid XPath '//a:x/s:y': undeclared namespace prefix 's' [help: declared prefixes: a]",
            "requests/r.yaml:7:6: error: invalid XPath 'nope(1)': unknown function 'nope()' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:8:5: error: invalid XPath 'concat('a')': invalid number of arguments [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:11:18: error: invalid XPath '//q:t': undeclared namespace prefix 'q' [help: declared prefixes: a]",
        ])
        #expect(problems("""
            request: { url: /a }
            expect: { xpath: { "//s:x": 1 }, namespaces: [a] }
            """) == [
            "requests/r.yaml:2:23: error: invalid XPath '//s:x': undeclared namespace prefix 's'"
                + " [help: declare it beside the request's xpath in 'expect', such as namespaces: { s: \"http://example.com/ns\" }]",
            "requests/r.yaml:2:46: error: expected a mapping for 'expect.namespaces', found a list",
        ])
    }

    /// A file part's `contentType` is its Content-Type header: a line break in it would add a header to the part.
    @Test func aMultipartContentTypeWithALineBreakIsAnError() {
        let found = problems("request:\n  url: /a\n  multipart:\n    - { name: f, file: f.txt, contentType: \"text/plain\\r\\nX-Injected: 1\" }\n")
        #expect(found.contains { $0.hasPrefix("requests/r.yaml:4:") && $0.contains("error: 'contentType' contains a control character") }, "\(found)")
    }

    @Test func multipartParts() {
        #expect(problems("""
            request:
              url: /a
              multipart:
                - { name: a }
                - { name: b, value: x, file: y }
                - { value: x }
                - { name: c, value: x, contentType: text/plain }
                - { name: "{{ d", value: "{{ }}" }
                - { value: "{{ e" }
            """) == [
            "requests/r.yaml:4:7: error: a multipart part needs 'value' or 'file'",
            "requests/r.yaml:5:28: error: a multipart part has either 'value' or 'file', not both [help: keep 'value' to send text, or 'file' to send a file's bytes]",
            "requests/r.yaml:6:7: error: missing key 'name' in 'request.multipart'",
            "requests/r.yaml:7:28: error: 'contentType' applies to file parts only",
            // A broken or missing name does not hide the value's problems.
            "requests/r.yaml:8:16: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
            "requests/r.yaml:8:31: error: empty expression '{{ }}' [help: write a variable name, such as '{{ userId }}']",
            "requests/r.yaml:9:7: error: missing key 'name' in 'request.multipart'",
            "requests/r.yaml:9:17: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
        ])
    }

    @Test(arguments: [
        ("5", "requests/r.yaml:2:21: error: expected a duration like 250ms, 5s or 1m for 'options.timeout', found the integer 5 [help: add a unit, such as '5s' or '5ms']"),
        ("5 s", "requests/r.yaml:2:21: error: expected a duration like 250ms, 5s or 1m for 'options.timeout', found the string '5 s' [help: write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)]"),
        ("-1s", "requests/r.yaml:2:21: error: expected a duration like 250ms, 5s or 1m for 'options.timeout', found the string '-1s' [help: write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)]"),
        // A template: no `--var` gives a duration (trial helper-180).
        ("\"{{ t }}\"", "requests/r.yaml:2:21: error: expected a duration like 250ms, 5s or 1m for 'options.timeout', found the string '{{ t }}' [help: a duration is not a template, fixed when the file is read: write it, such as 5s]"),
    ])
    func badDurations(text: String, message: String) {
        #expect(problems("request: { url: /a }\noptions: { timeout: \(text) }") == [message])
    }

    /// `each:` that is neither a file, a list nor a template says what it takes.
    @Test(arguments: [("null", "null"), ("", "null"), ("true", "the boolean true"), ("{ a: 1 }", "a mapping")])
    func eachOfAnotherKindSaysWhatItTakes(written: String, found: String) {
        let column = written.isEmpty ? 6 : 7
        #expect(problems("each: \(written)\nrequest: { url: /a }") == [
            "requests/r.yaml:1:\(column): error: expected a .csv, .json or .yaml file, a list of mappings or a template naming a list for 'each', found \(found)",
        ])
    }

    /// A timeout under a millisecond is allowed (a duration is non-negative) but can never be met: a warning says so.
    @Test(arguments: ["0s", "0.5ms"])
    func aTimeoutThatCanNeverBeMetIsAWarning(text: String) {
        #expect(problems("request: { url: /a }\noptions: { timeout: \(text) }") == [
            "requests/r.yaml:2:21: warning: 'timeout' under 1ms ends every attempt before an answer can come: the request is an ERROR [help: give the time one attempt may take, such as 5s]",
        ])
        #expect(problems("request: { url: /a }\noptions: { timeout: 1ms }").isEmpty)
        // An environment's is overridden by a request's own.
        #expect(decodeEnvironment("options: { timeout: \(text) }").1.map(\.message) == [
            "'timeout' under 1ms ends every attempt before an answer can come: each request that sets no timeout of its own is an ERROR",
        ])
    }

    @Test(arguments: [
        ("\"2x\"", "requests/r.yaml:3:11: error: invalid status pattern '2x' [help: expected a status code (100-599), a class like \"2xx\", a list of codes, or a matcher]"),
        ("700", "requests/r.yaml:3:11: error: invalid status 700: status codes are between 100 and 599"),
        ("[200, abc]", "requests/r.yaml:3:17: error: invalid status pattern 'abc' [help: expected a status code (100-599), a class like \"2xx\", a list of codes, or a matcher]"),
        ("true", "requests/r.yaml:3:11: error: invalid status: found the boolean true [help: expected a status code (100-599), a class like \"2xx\", a list of codes, or a matcher]"),
        ("\"x{{ n }}\"", "requests/r.yaml:3:11: error: invalid status pattern 'x{{ n }}' [help: a template here must be the whole value: \"{{ code }}\"]"),
        ("{ not: { in: [\"5xx\", 404] } }", "requests/r.yaml:3:25: error: '5xx' is a class of statuses, which a matcher does not read: it "
            + "compares the code as a number [help: write status: \"5xx\", or a list [200, \"5xx\"]; to exclude the class, "
            + "{ not: { greaterThanOrEqual: 500, lessThan: 600 } }]"),
        ("{ not: { in: [500, \"6xx\"] } }", "requests/r.yaml:3:30: error: \"6xx\" is not a status [help: a status is a code from 100 to 599, or (given by a template) a class from \"1xx\" to \"5xx\"]"),
        ("{ notEquals: 600 }", "requests/r.yaml:3:24: error: 600 is not a status [help: a status is a code from 100 to 599, or (given by a template) a class from \"1xx\" to \"5xx\"]"),
        ("{ type: null }", "requests/r.yaml:3:19: error: expected a type name for 'expect.status.type', found null [help: quote it: type: 'null']"),
        ("{ not: { in: [] } }", "requests/r.yaml:3:24: error: 'expect.status.not.in' is an empty list: no value is one of none [help: list at least one value it may be]"),
        ("[\"{{ n }}\", 3xx]", "requests/r.yaml:3:12: error: invalid status pattern '{{ n }}' [help: a list of statuses holds codes and classes, not templates: write { in: [\"{{ code }}\", 204] } for codes from templates]"),
    ])
    func badStatusPatterns(text: String, message: String) {
        #expect(problems("request: { url: /a }\nexpect:\n  status: \(text)") == [message])
    }

    /// Keys YAML tells apart but JSON does not (`1` and `"1"`) are an error at the second: it would replace the first.
    @Test func keysThatAreOneInJSONAreAnError() {
        #expect(problems("request:\n  url: /a\n  json: { 1: x, \"1\": y, true: t, \"true\": u }\n") == [
            "requests/r.yaml:3:17: error: key \"1\" is written twice in this mapping (first on line 3): a JSON object holds one [help: remove one of the two entries or rename this key]",
            "requests/r.yaml:3:34: error: key \"true\" is written twice in this mapping (first on line 3): a JSON object holds one [help: remove one of the two entries or rename this key]",
        ])
    }

    @Test func matcherErrors() {
        #expect(problems("""
            request: { url: /a }
            expect:
              body:
                $.a: { lenght: 3 }
                $.b: { type: strng }
                $.c: { matches: '([a-z' }
                $.d: { exists: maybe }
                $.e: { length: many }
                $.f: {}
                $.g: { name: x }
                $.h: { each: { contans: x } }
                $.i: { lessThan: abc }
                $.j: { id: 1 }
                $.k: { id: 1, nme: x }
              duration: { contains: 5s, lessThan: 5 }
            """) == [
            "requests/r.yaml:4:12: error: unknown matcher operator 'lenght' [help: did you mean 'length'?]",
            "requests/r.yaml:5:18: error: unknown type 'strng': expected one of string, number, integer, boolean, array, object, null [help: did you mean 'string'?]",
            "requests/r.yaml:6:21: error: invalid regular expression '([a-z': expected ']' [help: a regular expression in ICU syntax (much like PCRE): escape a literal '(', '[', '.', '+', '?', '*' with '\\', written '\\\\' in double quotes (or use single quotes)]",
            "requests/r.yaml:7:20: error: expected a boolean (true or false) for 'expect.body.$.d.exists', found the string 'maybe'",
            "requests/r.yaml:8:20: error: expected a non-negative integer or a matcher for 'expect.body.$.e.length', found the string 'many' [help: write a whole number, such as 2, or a matcher, such as { greaterThan: 0 }]",
            "requests/r.yaml:9:10: error: empty matcher for 'expect.body.$.f': expected operators such as equals, contains, exists",
            "requests/r.yaml:10:12: error: unknown matcher operator 'name' [help: to compare with an object, write { equals: { ... } }]",
            "requests/r.yaml:11:20: error: unknown matcher operator 'contans' [help: did you mean 'contains'?]",
            "requests/r.yaml:12:22: error: expected a number for 'expect.body.$.i.lessThan'",
            // An object written as the expected value, whatever its keys are near (trial helper-189: 'did you mean in?').
            "requests/r.yaml:13:12: error: unknown matcher operator 'id' [help: to compare with an object, write { equals: { ... } }]",
            "requests/r.yaml:14:12: error: unknown matcher operator 'id' [help: to compare with an object, write { equals: { ... } }]",
            "requests/r.yaml:14:19: error: unknown matcher operator 'nme' [help: to compare with an object, write { equals: { ... } }]",
            "requests/r.yaml:15:15: error: operator 'contains' does not apply to 'expect.duration' [help: 'expect.duration' allows equals, notEquals, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, in, not]",
        ])
        // A Proxy-Authorization header is the proxy's: not sent, said where it is written (trial helper-202 F2).
        #expect(problems("request: { url: /a, headers: { Proxy-Authorization: \"Basic cDpwdw==\" } }") == [
            "requests/r.yaml:1:32: warning: a Proxy-Authorization header is not sent: no header written here reaches a proxy (its "
                + "tunnel is made before the request), and the server must not get the proxy's credentials [help: give the proxy's "
                + "user and password in its URL (options.proxy or --proxy: http://user:password@host:port), which runner sends to "
                + "the proxy alone]",
        ])
        // An empty pattern says so, without the help on escapes (trial helper-203 F7: "not supported by ICU").
        #expect(problems("request: { url: /a }\nexpect: { body: { $.e: { matches: \"\" } } }") == [
            "requests/r.yaml:2:35: error: invalid regular expression '': it is empty, and would match any text: write the text it must find",
        ])
        // Every operand that is no duration, quoted, with help (trial helper-155: only the first, unquoted).
        #expect(problems("request: { url: /a }\nexpect: { duration: { lessThan: 5, in: [.5s, 1s, 1.s] } }") == [
            "requests/r.yaml:2:33: error: expected a duration like 250ms, 5s or 1m for 'expect.duration', found the integer 5 [help: add a unit, such as '5s' or '5ms']",
            "requests/r.yaml:2:41: error: expected a duration like 250ms, 5s or 1m for 'expect.duration', found the string '.5s' [help: write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)]",
            "requests/r.yaml:2:50: error: expected a duration like 250ms, 5s or 1m for 'expect.duration', found the string '1.s' [help: write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)]",
        ])
        #expect(problems("request: { url: /a }\nexpect: { duration: { in: [true, \"{{ t }}\"] } }") == [
            "requests/r.yaml:2:28: error: expected a duration like 250ms, 5s or 1m for 'expect.duration', found true [help: write a number and a unit: ms, s, m or h (such as 250ms, 5s, 1m)]",
            "requests/r.yaml:2:34: error: expected a duration like 250ms, 5s or 1m for 'expect.duration', found the template '{{ t }}' [help: write the duration itself: an expected duration takes no template]",
        ])
    }

    /// `in` takes a list, or one template that gives it; text around a template gives no list.
    @Test func inTakesAListOrOneTemplate() {
        #expect(problems("""
            request: { url: /a }
            expect:
              body:
                $.a: { in: "{{ ids }}" }
                $.b: { in: "x {{ ids }}" }
                $.c: { in: 3 }
            """) == [
            "requests/r.yaml:5:16: error: 'expect.body.$.b.in' is a template with text around it, which gives no list [help: write one template that gives the list (\"{{ allowed }}\"), or a list of values]",
            "requests/r.yaml:6:16: error: expected a list for 'expect.body.$.c.in', found the integer 3",
        ])
    }

    /// A rate past a number's range says a finite number is wanted, not only one greater than 0 (trial helper-190).
    @Test func aRateBeyondANumbersRangeAsksForAFiniteOne() {
        let problems = decodeEnvironment("options: { throttle: { perSecond: 1e400 } }\n").1.map(\.description)
        #expect(problems.contains { $0.contains("expected a finite number greater than 0 for 'options.throttle.perSecond', found the number 1e400") },
                "\(problems)")
        // Nor one so slow its spacing would pass what a duration holds (trial helper-191: 1e-10 crashed the run).
        let slow = decodeEnvironment("options: { throttle: { perSecond: 1e-10 } }\n").1.map(\.description)
        #expect(slow.contains { $0.contains("'options.throttle.perSecond' is at least 0.0000116 (one a day)") }, "\(slow)")
        #expect(ThrottleRate(perSecond: 1e-300).interval == .seconds(86_400))
    }

    /// A comparison with a query that is no singular query gets the generic help, not brackets around a comparison (trial
    /// helper-189: `$.items[?@['id == @'].tags[*]]`); a name with a '-' gets its brackets.
    @Test func bracketsAreSuggestedForNamesOnly() {
        for query in ["$.items[?@.id == @.tags[*]]", "$.a[?@.b == $.c[*]]"] {
            let offset = ExternalChecks.jsonPathProblem(query)?.offset ?? 0
            #expect(ExternalChecks.bracketedName(in: query, at: offset) == nil, "\(query) at \(offset)")
        }
        #expect(ExternalChecks.bracketedName(in: "$.headers.X-Team", at: 11) == "$.headers['X-Team']")
    }

    /// `count` counts the nodes of an `expect.body` query: a key of its mapping only, with a length's operand; the help
    /// names the other ways to count that apply where it was written. A size is compared with numbers only.
    @Test func countIsAKeyOfABodyQuerysMappingOnly() {
        let help = "[help: write it beside the operators of an expect.body query ($.items[?@.active]: { count: 2 }); for the "
            + "length of this value, use 'length']"
        let xpathHelp = help.dropLast() + "; in XPath, count(): 'count(//item)': 2]"
        #expect(problems("""
            request: { url: /a }
            expect:
              headers: { X-A: { count: 1 } }
              body:
                $.a: { count: 1, lenght: 2, Count: 1 }
                $.b: { not: { count: 1 } }
                $.c: { count: -1 }
                $.e: { count: { not: { each: { type: object } } }, length: { type: string } }
                $.d: { count: { greaterThan: 0 }, each: { type: object } }
                $.f: { count: { equals: "3" }, length: { in: [1, "two"] } }
                $.g: { count: "3", length: { not: { equals: true } } }
                $.h: { length: { in: [2.0, 3.5, -1] } }
              xpath:
                //a: { count: 2 }
            """) == [
            "requests/r.yaml:3:21: error: 'count' does not apply to 'expect.headers.X-A': it counts the nodes a body query selects \(help)",
            "requests/r.yaml:5:22: error: unknown matcher operator 'lenght' [help: did you mean 'length'?]",
            "requests/r.yaml:5:33: error: unknown matcher operator 'Count' [help: did you mean 'count'?]",
            "requests/r.yaml:6:19: error: 'count' does not apply to 'expect.body.$.b.not': it counts the nodes a body query selects \(help)",
            "requests/r.yaml:7:19: error: expected a non-negative integer or a matcher for 'expect.body.$.c.count', found the integer -1 [help: write a whole number, such as 2, or a matcher, such as { greaterThan: 0 }]",
            "requests/r.yaml:8:19: error: 'expect.body.$.e.count' is a number: 'each' never holds on one [help: compare the number: { greaterThan: 0 }, { in: [1, 2] }, { lessThanOrEqual: \"{{ most }}\" }]",
            "requests/r.yaml:8:64: error: 'expect.body.$.e.length' is a number: 'type: string' never holds on one [help: compare the number: { greaterThan: 0 }, { in: [1, 2] }, { lessThanOrEqual: \"{{ most }}\" }]",
            "requests/r.yaml:10:29: error: 'expect.body.$.f.count' is a whole number of 0 or more: the string '3' never equals one [help: write 3 without quotes]",
            "requests/r.yaml:10:54: error: 'expect.body.$.f.length' is a whole number of 0 or more: the string 'two' never equals one [help: compare with a whole number of 0 or more, such as 3]",
            "requests/r.yaml:11:19: error: expected a non-negative integer or a matcher for 'expect.body.$.g.count', found the string '3' [help: write 3 without quotes]",
            "requests/r.yaml:11:49: error: 'expect.body.$.g.length' is a whole number of 0 or more: true never equals one [help: compare with a whole number of 0 or more, such as 3]",
            "requests/r.yaml:12:32: error: 'expect.body.$.h.length' is a whole number of 0 or more: 3.5 never equals one [help: compare with a whole number of 0 or more, such as 3]",
            "requests/r.yaml:14:12: error: 'count' does not apply to 'expect.xpath.//a': it counts the nodes a body query selects \(xpathHelp)",
        ])
    }

    /// A query glued to its expected value is told to add the space, not to bracket a name.
    @Test func aJSONPathGluedToItsValueIsToldTheSpace() {
        #expect(problems("request: { url: /a }\nexpect: { body: { $.n:1 } }\n") == [
            "requests/r.yaml:2:22: error: invalid JSONPath '$.n:1': unexpected ':' [help: a key needs a space after its ':': $.n: 1]",
        ])
    }

    @Test func jsonPathKeysAndCaptures() {
        #expect(problems("""
            request: { url: /a }
            expect: { body: { id: 1, "$.a[": 2 } }
            capture:
              a: id
              b: { regex: 'id=[0-9]+' }
              c: { status: false }
              1x: $.id
              d: { header: A, cookie: B }
            """) == [
            "requests/r.yaml:2:19: error: invalid JSONPath 'id': a JSONPath query must start with '$' [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
            "requests/r.yaml:2:31: error: invalid JSONPath '$.a[': expected a selector [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
            "requests/r.yaml:4:6: error: expected a JSONPath starting with '$' or a mapping with one of header, cookie, regex, xpath, status for 'capture.a', found the string 'id'",
            "requests/r.yaml:5:15: error: the regular expression of 'capture.b.regex' has no capture group [help: wrap the part to capture in parentheses, such as 'id=([0-9]+)']",
            "requests/r.yaml:6:16: error: 'capture.c.status' must be true",
            "requests/r.yaml:7:3: error: invalid capture name '1x': use letters, digits, '_' and '-', not starting with a digit",
            "requests/r.yaml:8:19: error: more than one capture source: 'header' and 'cookie'",
        ])
        // A literal pattern of match() or search() that is no I-Regexp is valid RFC 9535 and matches nothing: a warning
        // (trial helper-137); a valid one is none.
        #expect(problems(#"request: { url: /a }\#nexpect: { body: { "$[?search(@.u, '(?i)x')]": 1, "$[?match(@.v, '[0-9]+')]": 2 } }\#n"#) == [
            "requests/r.yaml:2:19: warning: the pattern '(?i)x' of match() or search() in '$[?search(@.u, '(?i)x')]' is no I-Regexp (RFC 9485): "
                + "it matches nothing [help: write it with the I-Regexp subset: no groups like (?i) or (?:…), no lookarounds, no \\d; [0-9] and \\p{L} instead]",
        ])
    }

    /// An index out of range (the most negative 64-bit one included) is an error without the bracketed-name hint, which
    /// is for member names.
    @Test func aJSONPathIndexOutOfRangeIsAnErrorWithoutANameHint() {
        #expect(problems("""
            request: { url: /a }
            expect: { body: { "$.a[-9223372036854775808]": 1, "$.a[99999999999999999999]": 2 } }
            """) == [
            "requests/r.yaml:2:24: error: invalid JSONPath '$.a[-9223372036854775808]': integer -9223372036854775808 is outside the range ±(2^53 - 1) [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
            "requests/r.yaml:2:56: error: invalid JSONPath '$.a[99999999999999999999]': integer 99999999999999999999 is outside the range ±(2^53 - 1) [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
        ])
    }

    @Test func authAndOptionErrors() {
        #expect(problems("""
            request: { url: /a }
            auth: nonee
            options:
              throttle: { perSecond: 2 }
              retry: { backoff: exponental, on: [timeot, 999] }
            """) == [
            "requests/r.yaml:2:7: error: expected 'none' or a mapping with one of basic, bearer, oauth2 for 'auth', found the string 'nonee' [help: did you mean 'none'?]",
            "requests/r.yaml:4:3: error: 'throttle' does not belong in 'options' [help: 'throttle' is a rate shared by all requests: set it in the environment's options]",
            "requests/r.yaml:5:21: error: unknown backoff 'exponental': expected constant or exponential [help: did you mean 'exponential'?]",
            "requests/r.yaml:5:38: error: unknown retry condition 'timeot': expected a status code, timeout, connection or expectations [help: did you mean 'timeout'?]",
            "requests/r.yaml:5:46: error: 'options.retry.on' must be between 100 and 599, found 999",
        ])
        #expect(problems("request: { url: /a }\nauth: { bearer: a, basic: { username: u, password: p } }") == [
            "requests/r.yaml:2:20: error: more than one auth kind: 'bearer' and 'basic'",
        ])
        #expect(problems("request: { url: /a }\nauth: { token: a }") == [
            "requests/r.yaml:2:9: error: unknown key 'token' in 'auth' [help: allowed keys: basic, bearer, oauth2]",
        ])
        // A key inside auth: that is no word it could mean may be a credential pasted there.
        #expect(problems("request: { url: /a }\nauth:\n  bearer: x\n  Hunter2Secret9:\n") == [
            "requests/r.yaml:4:3: error: unknown key (not shown: it may be a credential) in 'auth' [help: allowed keys: basic, bearer, oauth2]",
        ])
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 3, on: [] } }") == [
            "requests/r.yaml:2:38: warning: 'on: []' retries nothing: no attempt after the first is ever made "
                + "[help: list what to retry, such as on: [503, timeout], or write attempts: 1 to send once]",
        ])
        // Attempts whose waits add up to more than an hour (trial helper-161); exponential waits at their longest.
        let long = "warning: 'attempts: %d' with these delays waits more than an hour in all between its tries: a request whose answer never comes "
            + "right holds the run that long [help: give fewer attempts or a shorter delay (polling usually needs minutes), or a timeout "
            + "for the whole job elsewhere]"
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 1000000, on: [expectations], delay: 2s } }")
                == ["requests/r.yaml:2:31: " + String(format: long, 1000000)])
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 25, backoff: exponential, delay: 1s } }")
                == ["requests/r.yaml:2:31: " + String(format: long, 25)])
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 120, on: [expectations], delay: 30s } }").isEmpty)
        // The largest attempts with no delay is counted at once (it hung validation), a warning of its own (trial helper-179).
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 9223372036854775807, delay: 0s } }") == [
            "requests/r.yaml:2:31: warning: 'attempts: 9223372036854775807' tries that many times: a request whose answer never comes right "
                + "holds the run for as many attempts, each up to its timeout [help: give fewer attempts (polling usually needs tens), with a "
                + "delay between them]",
        ])
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 10000, delay: 0s } }").isEmpty)
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 9223372036854775807, delay: 1ms, backoff: exponential } }")
                == ["requests/r.yaml:2:31: " + long.replacingOccurrences(of: "%d", with: "9223372036854775807")])
    }

    /// `stopWhen` holds expectations, but its problems name `options.retry.stopWhen`, where they are written; `error` is
    /// no key of it.
    @Test func problemsUnderStopWhenNameIt() {
        #expect(problems("""
            request: { url: /a }
            options:
              retry:
                attempts: 5
                on: [expectations]
                stopWhen: { stauts: 500, body: { $.a: { equls: 1 } }, error: timeout, headers: [a] }
            """) == [
            "requests/r.yaml:6:17: error: unknown key 'stauts' in 'options.retry.stopWhen' [help: did you mean 'status'?]",
            "requests/r.yaml:6:45: error: unknown matcher operator 'equls' [help: did you mean 'equals'?]",
            "requests/r.yaml:6:59: error: 'error' does not belong in 'options.retry.stopWhen' [help: a try that fails without a response (a timeout, no connection) ends polling with its error: 'stopWhen' checks responses]",
            "requests/r.yaml:6:84: error: expected a mapping for 'options.retry.stopWhen.headers', found a list",
        ])
    }

    /// `stopWhen` checks a response: `error` is no key of it (a try without a response ends polling with its error), and
    /// one without an expectation would hold at once.
    @Test(arguments: ["{ error: connection }", "{}", "{ namespaces: { a: \"urn:a\" } }", "{ body: {}, headers: {}, xpath: {} }"])
    func aStopWhenThatChecksNoResponseIsAnError(stopWhen: String) {
        let found = problems("request: { url: /a }\noptions: { retry: { attempts: 3, on: [expectations], stopWhen: \(stopWhen) } }")
        #expect(found.count == 1 && found[0].hasPrefix("requests/r.yaml:2:"), "\(found)")
        #expect(found.first?.contains(stopWhen == "{ error: connection }" ? "'error' does not belong in 'options.retry.stopWhen'"
                                      : "'options.retry.stopWhen' holds no expectation") == true, "\(found)")
    }

    /// `attempts: 0` under polling is one error, of the value: `attempts` is written.
    @Test func pollingWithAnInvalidAttemptsIsOneError() {
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 0, on: [expectations] } }") == [
            "requests/r.yaml:2:31: error: 'options.retry.attempts' must be at least 1, found 0",
        ])
    }

    /// An environment file that is not a mapping says what its top level holds.
    @Test func anEnvironmentThatIsAListSaysWhatItsTopLevelHolds() {
        #expect(decodeEnvironment("- a\n- b\n").1.map(\.description) == [
            "environments/qa.yaml:1:1: error: expected a mapping at the top level (keys like 'baseURL', 'variables'), found a list",
        ])
    }

    /// A quoted key's escapes are one character of the query and several of the line: the caret counts them as written.
    @Test func aQuotedKeysEscapesDoNotShiftTheCaret() {
        #expect(problems("""
            request: { url: /a }
            expect:
              xpath: { 'count(//a[@x = ''v'']))': 1, "\\u00e9//a)": 1 }
              body: { '$[''a''][': 2 }
            """) == [
            "requests/r.yaml:3:35: error: invalid XPath 'count(//a[@x = 'v']))': ')' closes no '(' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:3:52: error: invalid XPath 'é//a)': ')' closes no '(' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:4:21: error: invalid JSONPath '$['a'][': expected a selector [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
        ])
    }

    /// A query written over several lines (plain, quoted, an escaped line break, a folded or literal block) is located at
    /// its offending character, on the line it is written on; the message shows its line breaks as `\n`.
    @Test func aQueryOverSeveralLinesIsLocatedAtItsCharacter() {
        #expect(problems("""
            request: { url: /a }
            capture:
              a: $.items[?@.x ==
                 ].y
              b: { xpath: "concat(string(//t),
                           nofunc(1))" }
              c: { xpath: "concat(\\u0073tring(//t), \\
                   nofunc(1))" }
              d:
                xpath: >-
                  concat(string(//t),
                  nofunc(1))
              e:
                xpath: |
                  concat(string(//t),
                    nofunc(1))
            expect:
              body:
                ? "$['ab',
                  'cd'].x[?@.a ==]"
                : 1
            """) == [
            "requests/r.yaml:4:6: error: invalid JSONPath '$.items[?@.x == ].y': expected an expression, found ']' [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
            "requests/r.yaml:6:16: error: invalid XPath 'concat(string(//t), nofunc(1))': unknown function 'nofunc()' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:8:8: error: invalid XPath 'concat(string(//t), nofunc(1))': unknown function 'nofunc()' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:12:7: error: invalid XPath 'concat(string(//t), nofunc(1))': unknown function 'nofunc()' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:16:9: error: invalid XPath 'concat(string(//t),\\n  nofunc(1))\\n': unknown function 'nofunc()' [help: an XPath 1.0 expression, such as //item[1]/@id, /root/name/text() or count(//item)]",
            "requests/r.yaml:20:22: error: invalid JSONPath '$['ab', 'cd'].x[?@.a ==]': expected an expression, found ']' [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
        ])
        #expect(problems("request: { url: /a }\nexpect: { body: { \"$.a[?@.b ==\\t]\": 1 } }\n") == [
            "requests/r.yaml:2:33: error: invalid JSONPath '$.a[?@.b ==\\t]': expected an expression, found ']' [help: a JSONPath query (RFC 9535), such as $.name, $.items[0].id, $['a-b'] or $.items[?@.id == 1]]",
        ])
    }

    /// `stopWhen` knows the prefixes `expect.namespaces` declares, and may declare its own.
    @Test func stopWhenUsesTheRequestsNamespaces() throws {
        let text = """
            request: { url: /a }
            options:
              retry: { attempts: 3, on: [expectations], stopWhen: { namespaces: { b: "urn:b" }, xpath: { "count(//a:x | //b:y)": 2 } } }
            expect: { namespaces: { a: "urn:a" }, xpath: { "count(//a:x)": 3 } }
            """
        #expect(problems(text).isEmpty)
        let stop = try #require(decodeRequest(text)?.options.retry?.stopWhen?.value)
        #expect(stop.namespaces.map(\.prefix) == ["a", "b"])
    }

    @Test func methodsAreTokens() {
        #expect(problems("request: { method: \"GE T\", url: /a }") == [
            "requests/r.yaml:1:20: error: invalid method 'GE T': a method is a token (letters, digits and !#$%&'*+-.^_`|~)",
        ])
        #expect(problems("request: { method: post, url: /a }") == [
            "requests/r.yaml:1:20: warning: method 'post' is sent as written; methods are case-sensitive [help: did you mean 'POST'?]",
        ])
        #expect(problems("request: { method: PROPFIND, url: /a }").isEmpty)
        #expect(problems("request: { method: 5, url: /a }") == [
            "requests/r.yaml:1:20: warning: 'request.method' is the integer 5, sent as the method '5' [help: write a method such as GET or POST, or quote it (\"5\") to send it as written]",
        ])
        #expect(problems("request: { method: true, url: /a }").count == 1)
        #expect(problems("request: { method: \"5\", url: /a }").isEmpty)
    }

    @Test func templateSyntaxErrorsAreLocatedAtTheBraces() {
        #expect(problems("request:\n  url: /users/{{ id\n") == [
            "requests/r.yaml:2:15: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
        ])
        #expect(problems("request:\n  url: \"/a/{{ }}\"\n") == [
            "requests/r.yaml:2:12: error: empty expression '{{ }}' [help: write a variable name, such as '{{ userId }}']",
        ])
    }

    @Test func yamlErrorsBecomeDiagnostics() {
        let tab = problems("request:\n\turl: /a\n")
        #expect(tab.count == 1 && tab[0].hasPrefix("requests/r.yaml:2:"))
        let duplicate = problems("request: { url: /a }\nrequest: { url: /b }\n")
        #expect(duplicate.count == 1 && duplicate[0].hasPrefix("requests/r.yaml:2:1: error:"))
        // A duplicate key does not hide the file's other problems: the first of the two is decoded with the rest.
        let others = problems("expect: { status: twohundred }\nrequest:\n  url: /a\n  method: [GET]\n")
        #expect(others.count == 2, "\(others)")
        #expect(Set(problems("expect: { status: twohundred }\nrequest:\n  url: /a\n  method: [GET]\n  url: /b\n")) == Set(others + [
            "requests/r.yaml:5:3: error: duplicate key \"url\" (first defined on line 3) [help: remove one of the two entries or rename this key]",
        ]))
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(problems(deep).count == 1)
        var bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { bomb += "\(Character(UnicodeScalar(97 + level)!)): &\(Character(UnicodeScalar(97 + level)!)) [" + Array(repeating: "*\(Character(UnicodeScalar(96 + level)!))", count: 10).joined(separator: ", ") + "]\n" }
        #expect(problems(bomb).count == 1)
    }

    @Test func invalidUTF8BytesAreRejected() {
        let document = SourceDocument.parse([0x61, 0x3A, 0x20, 0xFF, 0x0A], path: "requests/r.yaml")
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.mark != nil)
    }
}
