import Testing
@testable import CollectionFormat

/// Warnings for values that are valid but probably mean something else.
@Suite struct LikelyMistakeTests {
    /// The one-line forms and help of an environment's diagnostics.
    private func environmentProblems(_ yaml: String) -> [String] {
        decodeEnvironment(yaml).1.map { $0.description + ($0.suggestion.map { " [help: \($0)]" } ?? "") }
    }

    @Test func aBareDurationInExpectWarnsThatItMeansEquals() {
        #expect(problems("request: { url: /a }\nexpect:\n  duration: 2s\n") == [
            "requests/r.yaml:3:13: warning: 'expect.duration: 2s' expects the request to take exactly 2s "
                + "[help: for an upper bound write 'duration: { lessThan: 2s }']",
        ])
        #expect(problems("request: { url: /a }\nexpect:\n  duration: { lessThan: 2s }\n").isEmpty)
        #expect(problems("request: { url: /a }\nexpect:\n  duration: { equals: 2s }\n").isEmpty, "written out, equals is meant")
    }

    /// A YAML 1.1 boolean word where a boolean goes, and a letter typed for a digit in a status, get the value meant
    /// (trial helper-193 F13).
    @Test func aYAML11BooleanWordAndALetterInAStatusAreHelped() {
        #expect(problems("request: { url: /a }\noptions: { followRedirects: yes }\n") == [
            "requests/r.yaml:2:29: error: expected a boolean (true or false) for 'options.followRedirects', found the string 'yes' "
                + "[help: write true: YAML 1.2, which runner reads, takes yes, no, on and off as text]",
        ])
        #expect(problems("request: { url: /a }\noptions: { followRedirects: 'no' }\n").first?.contains("help") == false)
        #expect(problems("request: { url: /a }\nexpect: { status: 4O4 }\n").first?.contains("[help: did you mean 404? (expected") == true)
    }

    /// A block mapping's entry glued to its value (`page:2` under `query:`) is one text, not a mapping: said so, with
    /// its first word only, and a credential's value not shown.
    @Test func aGluedEntryUnderABlockKeyIsToldToAddASpace() {
        #expect(problems("request:\n  url: /a\n  query:\n    page:2\n") == [
            "requests/r.yaml:4:5: error: expected a mapping for 'request.query', found 'page:2', one text: a ':' ends a key only before a space [help: write a space after the ':' of 'page:']",
        ])
        #expect(problems("request:\n  url: /a\n  headers:\n    Authorization:Bearer-Tok12345\n    Accept:text/html\n") == [
            "requests/r.yaml:4:5: error: expected a mapping for 'request.headers', found 'Authorization:(not shown) …', one text: a ':' ends a key only before a space [help: write a space after the ':' of 'Authorization:']",
        ])
        #expect(problems("request:\n  url: /a\n  headers:\n    Accept:text/html\n    Authorization:Bearer-Tok12345\n").allSatisfy { !$0.contains("Tok12345") })
        // A JSON body may be a text: a warning.
        #expect(problems("request:\n  url: /a\n  json:\n    name:x\n") == [
            "requests/r.yaml:4:5: warning: the JSON body is the text 'name:x': a ':' ends a key only before a space [help: for an object, write a space after the ':' of 'name:'; for the text, quote it]",
        ])
        #expect(problems("request:\n  url: /a\n  json: \"name:x\"\n").isEmpty)
        // A JSON body with nothing after it would send null: the body was forgotten or not indented under it.
        #expect(problems("request:\n  method: POST\n  url: /a\n  json:\nexpect: { status: 201 }\n") == [
            "requests/r.yaml:4:3: error: 'json:' has no value [help: write the body after it or indented under it; to send the JSON null, write json: null]",
        ])
        #expect(problems("request:\n  url: /a\n  json: null\n").isEmpty && problems("request:\n  url: /a\n  json: ~\n").isEmpty)
        // Nor in any other message that quotes a text, in any case; a text written as auth: is not shown at all.
        for yaml in ["auth:\n  bearer:Tok12345\n", "auth: bearer:Tok12345\n", "auth:\n  x: 1\n  y: z Authorization:Bearer-Tok12345 w\n",
                     "auth: BEARER:Tok12345\n", "auth: { BEARER:Tok12345 }\n", "auth: { basic: PASSWORD:Tok12345 }\n",
                     "auth: { basic: { username: u, Password:Tok12345 } }\n", "auth: \"bearer:Tok12345\"\n", "auth: bearer Tok12345\n",
                     "auth: bearer=Tok12345\n", "auth: { oauth2: { CLIENTSECRET:Tok12345 } }\n"] {
            let shown = problems("request: { url: /a }\n" + yaml)
            #expect(!shown.isEmpty && shown.allSatisfy { !$0.contains("Tok12345") }, "\(shown)")
        }
        #expect(problems("password:Tok12345\n") == [
            "requests/r.yaml:1:1: error: expected a mapping at the top level (keys like 'request', 'expect') or 'steps', found the string 'password:(not shown)'",
        ])
        // A URL is no glued key.
        #expect(problems("request:\n  url: /a\n  query: http://127.0.0.1:1/\n") == [
            "requests/r.yaml:3:10: error: expected a mapping for 'request.query', found the string 'http://127.0.0.1:1/'",
        ])
    }

    /// A query or form parameter without a value (`b:`, `b: ~`, a key alone on the next line of a `{ }` mapping) is an
    /// error: it would be sent as the word null.
    @Test func aParameterWithoutAValueIsAnError() {
        let help = { (name: String) in "[help: write \(name): \"\" to send it empty, or \(name): \"null\" for the word]" }
        #expect(problems("request:\n  url: /a\n  query: { a: x,\n    b }\n") == [
            "requests/r.yaml:4:5: error: expected a value for 'request.query.b', found null \(help("b"))",
        ])
        #expect(problems("request:\n  url: /a\n  form:\n    c: ~\n    d:\n    e: [1, null]\n    f: \"null\"\n    g: \"\"\n") == [
            "requests/r.yaml:4:8: error: expected a value for 'request.form.c', found null \(help("c"))",
            "requests/r.yaml:5:5: error: expected a value for 'request.form.d', found null \(help("d"))",
            "requests/r.yaml:6:12: error: expected a value for 'request.form.e', found null [help: write \"\" for an empty item, \"null\" for the word, or remove it]",
        ])
        #expect(environmentProblems("baseURL: http://127.0.0.1:1\nquery: { lang: }\n") == [
            "environments/qa.yaml:2:10: error: expected a value for 'query.lang', found null \(help("lang"))",
        ])
    }

    /// A comma in a plain value of a `{ }` mapping ends the value: what follows reads as a key without a value, which is
    /// one error saying so (not an unknown key, a bad header name or a query parameter sent as `b=null`), and not named
    /// when it may be part of a credential.
    @Test func aCommaInAPlainFlowValueIsToldToQuoteIt() {
        let help = "[help: in a { } mapping a comma ends a value: quote a value that holds one, or write several values as a list ([a, b])]"
        #expect(problems("request: { url: /status/200,503 }\n") == [
            "requests/r.yaml:1:29: error: '503' in the value of 'url' reads as a key \(help)",
        ])
        #expect(problems("request: { url: /a, query: { tags: a,b }, headers: { Accept: text/html,application/json } }\n") == [
            "requests/r.yaml:1:38: error: 'b' in the value of 'tags' reads as a key \(help)",
            "requests/r.yaml:1:72: error: 'application/json' in the value of 'Accept' reads as a key \(help)",
        ])
        #expect(problems("request: { url: /a }\nauth: { basic: { username: u, password: Hunter2Secret,xyz99 } }\n") == [
            "requests/r.yaml:2:55: error: what follows a comma (not shown: it may be part of the value) in the value of 'password' "
                + "reads as a key \(help)",
        ])
        // In a JSON body and a matcher too, once (no second error at the key); a URL a comma cut is not checked further
        // (its password would show as a port), and a key written right after the comma counts even with a value.
        #expect(problems("request: { url: /a, json: { name: Smith,John, age: 3 } }\nexpect: { body: { $.a: { equals: x,y } } }\n") == [
            "requests/r.yaml:1:41: error: 'John' in the value of 'name' reads as a key \(help)",
            "requests/r.yaml:2:36: error: 'y' in the value of 'equals' reads as a key \(help)",
        ])
        #expect(problems("request: { url: http://u:Hunter2Secret,xyz99@127.0.0.1:1/get }\n") == [
            "requests/r.yaml:1:40: error: what follows a comma (not shown: it may be part of the value) in the value of 'url' reads as a key \(help)",
        ])
        #expect(problems("request: { url: /a }\nauth: { bearer: Tok12345,xyz99: 1 }\n") == [
            "requests/r.yaml:2:26: error: what follows a comma (not shown: it may be part of the value) in the value of 'bearer' "
                + "reads as a key \(help)",
        ])
        // A URL's user information cut by a comma is not named (its `:` is no glued key), a second comma after a
        // credential is the same one, and `in:` cut by a comma is one error.
        #expect(problems("request: { url: http://u:Hunter2Secret,page:2@127.0.0.1:1/get }\n") == [
            "requests/r.yaml:1:40: error: what follows a comma (not shown: it may be part of the value) in the value of 'url' reads as a key \(help)",
        ])
        #expect(problems("request: { url: /a }\nauth: { bearer: Tok12345,xyz99,more77 }\n").count == 2)
        #expect(problems("request: { url: /a }\nauth: { bearer: Tok12345,xyz99,more77 }\n").allSatisfy { !$0.contains("more77") && !$0.contains("xyz99") })
        // A line of many commas (up to the node limit) is one pass over its keys, each looking only at the one before it.
        let many = (0..<9_000).map { "k\($0)" }.joined(separator: ",")
        #expect(problems("request: { url: /a, query: { q: \(many) } }\n").count == 8_999)
        #expect(problems("request: { url: /a }\nexpect: { headers: { Content-Type: { in: application/json,text/html } } }\n") == [
            "requests/r.yaml:2:59: error: 'text/html' in the value of 'in' reads as a key \(help)",
        ])
        // A credential glued to its key is not shown.
        for file in ["request: { url: /a, headers: { Authorization:Bearer-Tok12345 } }\n", "request: { url: /a }\nauth: { bearer:Tok12345 }\n",
                     "request: { url: /a, query: { token:Tok12345 } }\n"] {
            let found = problems(file)
            #expect(!found.isEmpty && found.allSatisfy { !$0.contains("Tok12345") }, "\(found)")
        }
        // A key glued to its value where any key goes is one key without a value, and says so.
        #expect(problems("request: { url: /a, query: { page:2 } }\n") == [
            "requests/r.yaml:1:30: error: 'page:2' is one key without a value: a ':' ends a key only before a space "
                + "[help: write a space after the ':' of 'page:']",
        ])
        // On lines of their own, an unknown key without a value is not taken for a split value; a list or quotes are fine.
        #expect(problems("request:\n  url: /a\n  503:\n") == [
            "requests/r.yaml:3:3: error: unknown key '503' in 'request' "
                + "[help: allowed keys: method, url, query, headers, json, form, multipart, text, file, graphql]",
        ])
        #expect(problems("request: { url: \"/a,b\", query: { tags: [a,b] } }\nexpect: { status: [200,201] }\n").isEmpty)
        // A compact mapping (no space after its commas) is one, but after a credential.
        #expect(problems("request: {url: /a,method: GET, json: {a: 1,b: 2}}\n").isEmpty)
    }

    /// A template written without quotes is a YAML mapping with a mapping as its key: the help says to quote it.
    @Test func anUnquotedTemplateIsToldToBeQuoted() {
        let help = "[help: a template written without quotes reads as a YAML mapping ({ { ... } }): write it in quotes, as \"{{ name }}\"]"
        #expect(problems("request:\n  url: {{ u }}/x\n") == ["requests/r.yaml:2:9: error: a mapping cannot be used as a mapping key \(help)"])
        #expect(problems("request:\n  url: { { u: 1 }: 2 }\n").allSatisfy { !$0.contains(help) })
        // As a `when:` key, where keys are templates (trial helper-185).
        #expect(problems("when:\n  {{ x }}: { exists: true }\nrequest: { url: /a }\n")
                    == ["requests/r.yaml:2:3: error: a mapping cannot be used as a mapping key \(help)"])
    }

    /// A name is a template only in an `each:` file: elsewhere its braces are shown as written, which a warning says.
    @Test func aTemplateInTheNameOfAFileWithoutEachWarns() {
        #expect(problems("name: \"Uses {{ v }}\"\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:7: warning: 'name' is a template only in an each: file: here '{{' is shown as written "
                + "[help: write the name without '{{ }}', or loop over rows with each:]",
        ])
        #expect(problems("name: \"Row {{ v }}\"\neach: [{ v: 1 }]\nrequest: { url: /a }\n").isEmpty)
        #expect(problems("steps:\n  - name: \"step {{ item }}\"\n    request: { url: /a }\n") == [
            "requests/r.yaml:2:11: warning: a step's 'name' is not a template: here '{{' is shown as written "
                + "[help: write the name without '{{ }}'; a flow's name in an each: file is one]",
        ])
    }

    /// An expected header whose name is not a token is an error, as in `request.headers`: no header could match it.
    @Test func anExpectedHeaderNameThatIsNotATokenIsAnError() {
        #expect(problems("request: { url: /a }\nexpect:\n  headers: { \"Bad Header\": x }\n") == [
            "requests/r.yaml:3:14: error: invalid header name 'Bad Header' [help: header names are tokens: letters, digits and !#$%&'*+-.^_`|~]",
        ])
        #expect(problems("request: { url: /a }\ncapture: { ct: { header: \"Content Type\" } }\n") == [
            "requests/r.yaml:2:26: error: invalid header name 'Content Type' [help: header names are tokens: letters, digits and !#$%&'*+-.^_`|~]",
        ])
    }

    /// A captured cookie's name that no `Set-Cookie` could give (empty, or holding a space, `=` or `;`) is an error.
    @Test func aCookieNameNoSetCookieCouldGiveIsAnError() {
        #expect(problems("request: { url: /a }\ncapture: { d: { cookie: \"\" }, e: { cookie: \"a b;c\" }, f: { cookie: session-id } }\n") == [
            "requests/r.yaml:2:25: error: invalid cookie name '' [help: write the name a Set-Cookie header gives before its '=', without spaces, '=' or ';']",
            "requests/r.yaml:2:44: error: invalid cookie name 'a b;c' [help: write the name a Set-Cookie header gives before its '=', without spaces, '=' or ';']",
        ])
    }

    /// A quoted status code in `retry.on`, an abbreviated type name and a YAML merge key say what to write instead.
    @Test func commonSlipsSayWhatToWrite() {
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 2, on: [429, \"503\"] } }\nexpect: { body: { $.a: { type: str } } }\n") == [
            "requests/r.yaml:2:44: error: unknown retry condition '503': expected a status code, timeout, connection or expectations [help: write the status code as a number, without quotes: 503]",
            "requests/r.yaml:3:32: error: unknown type 'str': expected one of string, number, integer, boolean, array, object, null [help: did you mean 'string'?]",
        ])
        // Other languages' type names and status classes say what this format calls them.
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 2, on: [5xx] } }\nexpect: { body: { $.a: { type: dict }, $.b: { type: None } } }\n") == [
            "requests/r.yaml:2:39: error: unknown retry condition '5xx': expected a status code, timeout, connection or expectations [help: retry.on lists status codes one by one, not classes or ranges, such as [502, 503, 504]]",
            "requests/r.yaml:3:32: error: unknown type 'dict': expected one of string, number, integer, boolean, array, object, null [help: did you mean 'object'?]",
            "requests/r.yaml:3:53: error: unknown type 'None': expected one of string, number, integer, boolean, array, object, null [help: did you mean 'null'?]",
        ])
        #expect(problems("request: { url: /a }\noptions: { retry: { attempts: 2, on: [4xx, 500-599] } }\n") == [
            "requests/r.yaml:2:39: error: unknown retry condition '4xx': expected a status code, timeout, connection or expectations [help: retry.on lists status codes one by one, not classes or ranges, such as [408, 429]]",
            "requests/r.yaml:2:44: error: unknown retry condition '500-599': expected a status code, timeout, connection or expectations [help: retry.on lists status codes one by one, not classes or ranges, such as [502, 503, 504]]",
        ])
        // Other tools' names for a request's body say which key sends one.
        #expect(problems("request: { url: /a, method: POST, body: hello }\n") == [
            "requests/r.yaml:1:35: error: 'body' does not belong in 'request' [help: a request's body is written with json:, text:, form:, multipart:, file: or graphql: ('body' under 'expect:' checks the response's)]",
        ])
        #expect(problems("swagger: '2.0'\ninfo: { title: t, version: '1' }\npaths: {}\n").first?
            .hasPrefix("requests/r.yaml:1:1: error: this is a Swagger 2.0 document, not a request file (expect.openapi reads OpenAPI 3: convert it)") == true)
        #expect(problems("request: { url: /a }\nexpect: { body: { $.a: { re: '^a' }, $.b: { has: x } } }\n") == [
            "requests/r.yaml:2:26: error: unknown matcher operator 're' [help: did you mean 'matches'?]",
            "requests/r.yaml:2:45: error: unknown matcher operator 'has' [help: did you mean 'contains'?]",
        ])
        // A short word is not taken for another with half its letters changed.
        #expect(problems("base: 1\nrequest: { url: /a }\n").first?.contains("did you mean") == false)
        // An OpenAPI document kept among the request files is one problem, saying where to keep it.
        #expect(problems("openapi: 3.0.0\ninfo: { title: t, version: '1' }\npaths: {}\n") == [
            "requests/r.yaml:1:1: error: this is an OpenAPI document, not a request file [help: keep it where request files are not looked for: in a folder whose name starts with '_' (such as '_specs/'), or outside the folders run; 'expect: { openapi: PATH }' names it wherever it is]",
        ])
        // A typo of a key that goes elsewhere is told where that one goes.
        #expect(problems("retries: 3\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:1: error: unknown key 'retries' [help: did you mean 'retry'? 'retry' is an option: write it under 'options:']",
        ])
        #expect(problems("vars: { a: 1 }\nrequest: { url: /a }\n") == [
            "requests/r.yaml:1:1: error: unknown key 'vars' [help: variables come from an environment file's variables:, --var, a data file (each:) or a capture]",
        ])
        #expect(problems("steps:\n  - request: { url: /a }\ncleanup: []\n") == [
            "requests/r.yaml:3:1: error: unknown key 'cleanup' [help: cleanup steps go under a flow's finally:]",
        ])
        #expect(problems("steps:\n  - <<: { request: { url: /a } }\n    name: one\n") == [
            "requests/r.yaml:2:5: error: unknown key '<<' [help: '<<' is an ordinary key here, not a YAML merge: write the keys out, or share them with use: (a step) or an environment (options, headers)]",
        ])
        // In a value (a JSON body, variables), where any key goes: a warning, as it is sent as a member '<<' (trial helper-181).
        #expect(problems("request:\n  url: /a\n  json:\n    <<: { x: 1 }\n    z: 3\n") == [
            "requests/r.yaml:4:5: warning: '<<' is an ordinary key here, not a YAML merge: it is a member named '<<' holding the other mapping [help: write the keys out (an anchor and alias can repeat a whole value: key: *base)]",
        ])
        #expect(problems("request:\n  url: /a\n  json: { \"<<\": 1 }\n").isEmpty, "a quoted key is meant")
    }

    @Test func aShellReferenceAsACredentialWarnsWithTheSecretToWrite() {
        let warnings = problems("""
            request: { url: /a }
            auth: { bearer: $API_TOKEN }
            options:
              clientCert: { cert: c.pem, key: k.pem, password: "${KEY_PASSWORD}" }
            """)
        #expect(warnings.contains(
            "requests/r.yaml:2:17: warning: 'auth.bearer' is '$API_TOKEN', which is sent as written: runner does not expand "
                + "shell variables [help: read it from the process environment with a secret, hidden in every output: 'secrets: "
                + "{ API_TOKEN: { env: API_TOKEN } }' in the environment and \"{{ API_TOKEN }}\" here (\"{{ $env.API_TOKEN }}\" reads "
                + "it too, but is not hidden)]"), "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("requests/r.yaml:4:52: warning: 'options.clientCert.password' is '${KEY_PASSWORD}'") },
                "\(warnings)")
    }

    @Test func environmentCredentialsAndVariablesNamedLikeThemWarn() {
        let warnings = environmentProblems("""
            variables:
              dbPassword: $DB_PASSWORD
              API_Token: ${API_TOKEN}
              clientSecretValue: $CLIENT_SECRET
              price: $PRICE
              secretNote: costs $5
            auth: { oauth2: { tokenURL: $TOKEN_URL, clientID: app, clientSecret: $CLIENT_SECRET } }
            """).map { String($0.prefix { $0 != "[" }) }
        #expect(warnings == [
            "environments/qa.yaml:2:15: warning: 'variables.dbPassword' is '$DB_PASSWORD', which is sent as written: runner does not expand shell variables ",
            "environments/qa.yaml:3:14: warning: 'variables.API_Token' is '${API_TOKEN}', which is sent as written: runner does not expand shell variables ",
            "environments/qa.yaml:4:22: warning: 'variables.clientSecretValue' is '$CLIENT_SECRET', which is sent as written: runner does not expand shell variables ",
            "environments/qa.yaml:7:70: warning: 'auth.oauth2.clientSecret' is '$CLIENT_SECRET', which is sent as written: runner does not expand shell variables ",
        ])
    }

    @Test func onlyAWholeReferenceWarns() {
        for value in ["$", "${}", "${A", "$1A", "$A-B", "x$A", "{{ $env.A }}", "pa$$word"] {
            #expect(problems("request: { url: /a }\nauth: { basic: { username: u, password: '\(value)' } }\n").isEmpty, "\(value)")
        }
    }
}
