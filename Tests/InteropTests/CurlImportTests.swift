import CollectionFormat
import Foundation
import HTTPCore
import Interop
import Testing

/// `runner import curl`: commands as browsers and docs write them, read into request files.
@Suite struct CurlImportTests {
    /// The fixture of "copy as cURL" commands, read once.
    static let fixture: CurlImport.Result = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/copy-as-curl.sh")
        return CurlImport.read((try? String(contentsOf: url, encoding: .utf8)) ?? "")
    }()

    /// The request of the fixture's command `number`.
    static func request(_ number: Int) throws -> RequestDocument {
        try #require(fixture.requests.first { $0.command == number }).document
    }

    /// A value of a document's headers, by name in any case.
    static func header(_ name: String, of document: RequestDocument) -> String? {
        document.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test func everyFixtureCommandTranslatesAndDecodesAsARequestFileWithoutProblems() throws {
        #expect(Self.fixture.errors.isEmpty, "\(Self.fixture.errors)")
        #expect(Self.fixture.requests.map(\.command) == Array(1...14))
        for imported in Self.fixture.requests {
            let decoded = FileDecoding.requestFile(Array(imported.document.yaml.utf8), path: "imported.yaml",
                                                   absolutePath: "/tmp/imported.yaml", defaultName: "imported")
            let errors = decoded.diagnostics.filter { $0.severity == .error }
            #expect(errors.isEmpty, "command \(imported.command):\n\(imported.document.yaml)\n\(errors)")
        }
    }

    @Test func chromeJSONPostBecomesJSONWithBearerAuthQueryAndCookies() throws {
        let document = try Self.request(1)
        #expect(document.method == "POST")
        #expect(document.url == "https://app.example.com/api/v1/users")
        #expect(document.query.map(\.name) == ["page", "tag"] && document.query[1].values == ["a", "b"])
        guard case .json(let value)? = document.body else { Issue.record("not json: \(document.yaml)"); return }
        #expect(value == (try JSONValue.parse(#"{"name":"Arthur","quota":10,"admin":false,"tags":["a","b"],"manager":null}"#)))
        guard case .bearer(let token)? = document.auth else { Issue.record("no bearer auth"); return }
        #expect(token == "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbg")
        #expect(Self.header("content-type", of: document) == nil)
        #expect(Self.header("authorization", of: document) == nil)
        #expect(Self.header("cookie", of: document) == "session=abc123; theme=dark")
        #expect(Self.header("sec-ch-ua", of: document) == #""Chromium";v="122", "Not(A:Brand";v="24", "Google Chrome";v="122""#)
        #expect(document.yaml.contains("quota: 10\n") && document.yaml.contains("admin: false\n"))
        let warnings = Self.fixture.warnings.filter { $0.command == 1 }.map(\.message)
        #expect(warnings.contains { $0.contains("bearer token") } && warnings.contains { $0.contains("Cookie") })
    }

    @Test func ansiCQuotingKeepsQuotesEscapesAndUnicode() throws {
        guard case .json(let value)? = try Self.request(2).body else { Issue.record("not json"); return }
        #expect(value == .object(JSONObject([("text", .string("it's done\nreally")), ("emoji", .string("é"))])))
    }

    /// `\xHH` and `\NNN` in `$'…'` are bytes, as bash passes them: together they are UTF-8 text.
    @Test func ansiCByteEscapesAreReadAsUTF8() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:48010/x --data-raw $'{"s":"\xc3\xa9","o":"\303\251","a":"\x41\101"}' -H $'X-N: \xc3\xa9\u00e9'"#)
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.requests.first?.document)
        guard case .json(let value)? = document.body else { Issue.record("not json: \(document.yaml)"); return }
        #expect(value == .object(JSONObject([("s", .string("é")), ("o", .string("é")), ("a", .string("AA"))])))
        #expect(Self.header("x-n", of: document) == "éé")
    }

    /// Bytes that are not UTF-8 cannot be text in a request file: a located error, not a replaced character.
    @Test(arguments: [(#"curl http://127.0.0.1:1/x -d $'a\xff'"#, 33, "'\\xff'"), (#"curl http://127.0.0.1:1/x -d $'\303\050b'"#, 32, "'\\xc3\\x28'")])
    func ansiCByteEscapesThatAreNotUTF8AreALocatedError(text: String, column: Int, shown: String) throws {
        let result = CurlImport.read(text)
        let error = try #require(result.errors.first)
        #expect(error.message.contains("the bytes \(shown) of $'…' escapes are not UTF-8"), "\(error)")
        #expect((error.mark.line, error.mark.column) == (1, column))
        #expect(result.requests.isEmpty)
    }

    /// A command whose request `validate` would refuse (a method that is no token, a port out of range, a host that is
    /// no name) is an error at the word it comes from, not a file written.
    @Test(arguments: [("curl -X 'GET POST' http://127.0.0.1:1/x", 9, "invalid method 'GET POST'"),
                      ("curl http://127.0.0.1:99999/x", 6, "'request.url': the port 99999 is not a number from 1 to 65535"),
                      ("curl -s 'http://h..x/'", 9, "'request.url': its host has an empty label"),
                      // A line break in the method is shown escaped, on the message's one line.
                      ("curl -X $'GE\\nT' http://127.0.0.1:1/x", 9, "invalid method 'GE\\u{A}T'"),
                      // A host that is no name and a port out of range: the host, without the port's help.
                      ("curl 'http://exa mple.com:99999/a'", 6, "'request.url': its host is not a host name")])
    func aRequestValidateWouldRefuseIsALocatedError(text: String, column: Int, message: String) throws {
        let result = CurlImport.read(text)
        let error = try #require(result.errors.first)
        #expect(error.message.hasPrefix("the request would not be valid: " + message) && (error.mark.line, error.mark.column) == (1, column),
                "\(error)")
        #expect((error.suggestion == URLComponents.portSuggestion) == message.contains("port"), "\(error)")
        #expect(result.requests.isEmpty)
    }

    /// A lone surrogate or a code point past U+10FFFF in `$'…'` is no character: said so, at its escape.
    @Test(arguments: [(#"curl http://127.0.0.1:1/x -d $'a\uD83D'"#, "'\\uD83D' in $'…' is a lone surrogate, not a character"),
                      (#"curl http://127.0.0.1:1/x -d $'a\U00110000'"#, "'\\U00110000' in $'…' is past U+10FFFF")])
    func ansiCEscapesOfNoCharacterAreALocatedError(text: String, message: String) throws {
        let result = CurlImport.read(text)
        let error = try #require(result.errors.first)
        #expect(error.message.hasPrefix(message) && (error.mark.line, error.mark.column) == (1, 33), "\(error)")
        #expect(result.requests.isEmpty)
    }

    /// bash ends a `$'…'` text at a NUL character, so curl gets what comes before it: so does the request, with a warning.
    @Test func aNulCharacterInANSICQuotingEndsTheQuotedTextWithAWarning() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:1/x -d $'a\0b=1'"#)
        let document = try #require(result.requests.first?.document)
        guard case .text(let text)? = document.body else { Issue.record("not text: \(document.yaml)"); return }
        #expect(text == "a")
        let warning = try #require(result.warnings.first { $0.message.contains("NUL") })
        #expect(warning.message.hasPrefix("'\\0' is a NUL character, where bash ends the text of $'…'") && warning.mark.column == 33)
    }

    /// A shell variable outside single quotes (`"Bearer $TOKEN"`, `${USER}`) is sent as written, with a warning naming
    /// `{{ $env.NAME }}`; one in single quotes, `\$` and a lone `$` are no variable (trial helper-132).
    @Test func aShellVariableOutsideSingleQuotesIsWarnedOf() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:1/x -H "Authorization: Bearer $TOKEN" -u ${USER}:pw -d '$KEPT' -d "a=\$b&c=$""#)
        let warnings = result.warnings.map(\.message)
        #expect(warnings.contains("'$TOKEN' is a shell variable, which runner does not expand: it is sent as the text '$TOKEN'"),
                "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("'${USER}' is a shell variable") } && !warnings.contains { $0.contains("KEPT") || $0.contains("'$b'") },
                "\(warnings)")
        let token = try #require(result.warnings.first { $0.message.hasPrefix("'$TOKEN'") })
        #expect(token.suggestion?.hasPrefix("write {{ $env.TOKEN }} to read it from the process environment") == true && token.mark.column == 53)
        // The variable's name is no credential: shown as written where a message quotes it (trial helper-193 F9: `'***' is a
        // shell variable`).
        #expect(InteropProblem.redacted(token.message, hiding: result.warnings, also: result.credentials) == token.message)
        #expect(InteropProblem.redacted("-u ${USER}:pw", hiding: [], also: ["${USER}", "pw-long-secret"]) == "-u ${USER}:pw")
        // Other expansions the shell does there (trial helper-137).
        let others = CurlImport.read(#"curl http://127.0.0.1:1/x -H "X-T: ${TOK:-dflt}" -H "X-U: $(whoami)" -H "X-V: `id`" -H "X-W: $1""#)
        let messages = others.warnings.map(\.message)
        for written in ["'${TOK:-dflt}' is a shell variable", "'$(…)' is a shell expansion", "'`…`' is a shell expansion", "'$1' is a shell expansion"] {
            #expect(messages.contains { $0.hasPrefix(written) }, "\(written) in \(messages)")
        }
        // A pair of backquotes is one expansion; the shell's special parameters are expansions too (trial helper-140).
        #expect(messages.count { $0.hasPrefix("'`…`'") } == 1, "\(messages)")
        let special = CurlImport.read(#"curl http://127.0.0.1:1/x -d "a=$@ b=$? c=$$ d=$""#).warnings.map(\.message)
        #expect(["'$@'", "'$?'", "'$$'"].allSatisfy { written in special.contains { $0.hasPrefix(written) } } && special.count == 3, "\(special)")
    }

    @Test func firefoxLoginFormBecomesAFormWithDecodedValues() throws {
        let document = try Self.request(3)
        #expect(document.method == "POST")
        guard case .form(let fields)? = document.body else { Issue.record("not a form: \(document.yaml)"); return }
        #expect(fields.map(\.name) == ["username", "password", "remember"])
        #expect(fields[1].values == ["p@ss word"])
        #expect(Self.header("content-type", of: document) == nil)
        #expect(Self.fixture.warnings.contains { $0.command == 3 && $0.message.contains("'password'") })
    }

    @Test func queryValuesAreDecodedAndNumbersStayStrings() throws {
        let document = try Self.request(4)
        #expect(document.method == "GET" && document.body == nil)
        #expect(document.query.map(\.values) == [["hello world"], ["10"]])
        #expect(document.yaml.contains("limit: \"10\""))
    }

    @Test func docsStyleUserAndDataBecomeBasicAuthAndAForm() throws {
        let document = try Self.request(5)
        guard case .basic(let username, let password)? = document.auth else { Issue.record("no basic auth"); return }
        #expect(username == "sk_test_4eC39HqLyjWDarjtT1zdp7dc" && password == "")
        guard case .form(let fields)? = document.body else { Issue.record("not a form"); return }
        #expect(fields.last?.values == ["My First Test Charge (created for API docs)"])
    }

    @Test func locationBecomesFollowRedirectsAndTheURLMayComeLast() throws {
        let document = try Self.request(6)
        #expect(document.url == "https://api.github.com/repos/OWNER/REPO/issues")
        #expect(document.options.map(\.key) == ["followRedirects"])
        #expect(Self.header("accept", of: document) == "application/vnd.github+json")
    }

    @Test func formPartsBecomeMultipartWithFilesAndLiteralValues() throws {
        guard case .multipart(let parts)? = try Self.request(7).body else { Issue.record("not multipart"); return }
        #expect(parts.map(\.name) == ["avatar", "note", "raw"])
        #expect(parts[0].file == "photo.png" && parts[0].contentType == "image/png")
        #expect(parts[1].value == "hello there" && parts[2].value == "@not-a-file")
    }

    @Test func jsonOptionSendsJSONAndAcceptsIt() throws {
        let document = try Self.request(8)
        #expect(document.method == "POST")
        guard case .json(let value)? = document.body else { Issue.record("not json"); return }
        #expect(value == .object(JSONObject([("event", .string("deploy")), ("ok", .bool(true))])))
        #expect(Self.header("accept", of: document) == "application/json")
    }

    @Test func getPutsTheDataIntoTheQuery() throws {
        let document = try Self.request(9)
        #expect(document.method == "GET" && document.body == nil)
        #expect(document.query.map(\.name) == ["q", "limit"] && document.query[0].values == ["café & bar"])
    }

    @Test func groupedShortOptionsGiveHeadInsecureTimeoutAndProxy() throws {
        let document = try Self.request(10)
        #expect(document.method == "HEAD")
        #expect(document.yaml.contains("timeout: 2.5s") && document.yaml.contains("insecure: true"))
        #expect(document.yaml.contains("proxy: http://proxy.internal:3128"))
        #expect(Self.fixture.warnings.contains { $0.command == 10 && $0.message.contains("'-s'") })
    }

    @Test func otherContentTypesAreTextWithTheirHeader() throws {
        let document = try Self.request(11)
        #expect(document.method == "PUT")
        guard case .text(let text)? = document.body else { Issue.record("not text"); return }
        #expect(text == "<item><name>Lamp</name></item>" && Self.header("content-type", of: document) == "application/xml")
    }

    @Test func windowsContinuationsUrlUserAgentAndReferer() throws {
        let document = try Self.request(12)
        #expect(document.url == "https://api.example.com/v1/ping")
        #expect(Self.header("user-agent", of: document) == "runner-import-test")
        #expect(Self.header("referer", of: document) == "https://docs.example.com/")
    }

    @Test func optionsWithoutEquivalentAreListedWithTheirPlace() throws {
        guard case .json? = try Self.request(13).body else { Issue.record("a JSON list without a content type is json"); return }
        let listed = Self.fixture.warnings.filter { $0.command == 13 && $0.message.contains("no equivalent") }
        #expect(listed.map(\.message).map { $0.components(separatedBy: "'")[1] } == ["-o out.json", "--limit-rate 100K", "-w %{http_code}"])
        #expect(listed.allSatisfy { $0.mark.line == 64 })
        #expect(listed.first?.mark.column == 65)
    }

    @Test func basicAuthorizationHeaderIsDecoded() throws {
        guard case .basic(let username, let password)? = try Self.request(14).auth else { Issue.record("no basic auth"); return }
        #expect(username == "aladdin" && password == "opensesame")
    }

    @Test(arguments: [
        ("curl 'https://x.example.com -H a", 1, 6, "unbalanced quote"),
        ("curl https://x.example.com --frobnicate", 1, 28, "unknown curl option '--frobnicate'"),
        ("curl -H 'A: b'", 1, 1, "no URL"),
        ("wget https://x.example.com", 1, 1, "not a curl command"),
        ("curl https://a.example.com\ncurl https://b.example.com -X", 2, 28, "'-X' needs a value"),
        ("curl https://a.example.com https://b.example.com", 1, 28, "a second URL"),
        ("curl ftp://a.example.com", 1, 6, "not an http or https URL"),
        ("curl https://a.example.com -H 'bad name: x'", 1, 31, "not a header name"),
        ("curl https://a.example.com \\\n  --data-raw $'\\uDC00'", 2, 16, "lone surrogate"),
    ])
    func badCommandsAreLocatedErrors(text: String, line: Int, column: Int, message: String) throws {
        let result = CurlImport.read(text)
        let error = try #require(result.errors.first)
        #expect(error.locatedMessage.contains(message), "\(error)")
        #expect((error.mark.line, error.mark.column) == (line, column), "\(error)")
        #expect(error.command == text.components(separatedBy: "\n").prefix(line).filter { $0.hasPrefix("curl") || $0.hasPrefix("wget") }.count)
    }

    /// A command a shell cannot read (a bad escape, a quote left open) is left out and the others are read on: every
    /// command's problems are listed at once, in the order of the text, each command keeping its number (trial helper-193
    /// F16: the first such error hid all the others).
    @Test func everyCommandsProblemsAreListedAtOnce() throws {
        let text = """
            curl http://127.0.0.1:1/get -H 'Authorization Bearer NoColonTok123'
            curl http://127.0.0.1:1/post --data-raw $'a\\0b' \\
              -H 'X: y'
            curl http://127.0.0.1:1/post -d $'\\uD83D'
            curl http://127.0.0.1:1/ok
            curl 'http://127.0.0.1:1/post' --data-raw '{"password": "unclosed
            """
        let result = CurlImport.read(text)
        #expect(result.errors.map(\.command) == [1, 3, 5], "\(result.errors)")
        #expect(result.errors.map(\.mark.line) == [1, 4, 6], "\(result.errors)")
        #expect(result.errors[1].locatedMessage.contains("lone surrogate") && result.errors[2].locatedMessage.contains("unbalanced quote"))
        #expect(result.warnings.contains { $0.command == 2 }, "\(result.warnings)")
        #expect(result.requests.map(\.command) == [2, 4])
        // The password after the open quote is hidden where a message quotes the line.
        #expect(result.credentials.contains { $0.hasPrefix("unclosed") }, "\(result.credentials)")
    }

    /// A quote left open that a later quote closes, over lines that look like other commands, is named beside the
    /// unbalanced quote it leaves (trial helper-194 K5: only the later, well-formed line was shown).
    @Test func aQuoteRunningOverOtherCommandsIsNamedWithTheUnbalancedOne() throws {
        let text = "curl http://127.0.0.1:1/post -d \"abc\ncurl http://127.0.0.1:1/get --frobnicate\ncurl http://127.0.0.1:1/get -H \"X-Key: v\""
        let error = try #require(CurlImport.read(text).errors.first)
        #expect(error.message == "unbalanced quote: the \" here is never closed (the quote at 1:33 runs to 3:32, over lines that "
                + "look like other curl commands: it may be the one left open)", "\(error.message)")
        #expect((error.mark.line, error.mark.column) == (3, 41))
        // The first such quote is named, not a later one it made read wrongly (trial helper-196 M2).
        let four = "curl http://127.0.0.1:1/post -d \"abc\ncurl http://127.0.0.1:1/get\ncurl http://127.0.0.1:1/post --data-raw '{\"a\": 1}'\n"
            + "curl http://127.0.0.1:1/get -H \"X-Key: 1\""
        #expect(try #require(CurlImport.read(four).errors.first).message.contains("(the quote at 1:33 runs to 3:43,"),
                "\(CurlImport.read(four).errors)")
    }

    @Test func aSuggestionNamesTheClosestOption() throws {
        let error = try #require(CurlImport.read("curl https://a.example.com --heder 'A: b'").errors.first)
        #expect(error.suggestion == "did you mean '--header'?")
    }

    @Test func commandsAreSeparatedByLinesSemicolonsAndAndAndPipesAreIgnored() throws {
        let result = CurlImport.read("curl https://a.example.com/1 ; curl https://a.example.com/2 && curl https://a.example.com/3 | jq .\n$ curl https://a.example.com/4")
        #expect(result.errors.isEmpty)
        #expect(result.requests.map(\.document.url) == (1...4).map { "https://a.example.com/\($0)" })
        #expect(result.warnings.contains { $0.message.contains("'| jq .'") && $0.command == 3 })
    }

    @Test func fileNamesComeFromTheMethodAndPath() throws {
        #expect(try Self.request(1).suggestedFileName == "post-api-v1-users.yaml")
        #expect(try Self.request(12).suggestedFileName == "get-v1-ping.yaml")
        #expect(RequestDocument(name: "x", method: "GET", url: "https://example.com/").suggestedFileName == "get-example-com.yaml")
    }

    @Test func aQueryWithAnInvalidEscapeStaysInTheURLWithAWarning() throws {
        let result = CurlImport.read("curl 'http://a.example.com/x?x=%ZZ&y=%41'")
        let document = try #require(result.requests.first?.document)
        #expect(document.query.isEmpty)
        #expect(document.url == "http://a.example.com/x?x=%25ZZ&y=%41")
        #expect(result.warnings.contains { $0.message.contains("'%ZZ' is not a percent-escape") })
        #expect(result.warnings.contains { $0.message.contains("the query string is kept in the URL") })
    }

    /// Data that `--json` (or a JSON Content-Type) sends but is not JSON stays text, as curl sends it, with a warning.
    @Test(arguments: ["curl http://a.example.com/x --json '{bad'", "curl http://a.example.com/x --json 'name=x'",
                      "curl http://a.example.com/x -H 'Content-Type: application/problem+json' -d '{bad'"])
    func dataSentAsJSONThatIsNotJSONIsKeptAsTextWithAWarning(command: String) throws {
        let result = CurlImport.read(command)
        let document = try #require(result.requests.first?.document)
        guard case .text(let text) = document.body else { Issue.record("\(String(describing: document.body))"); return }
        #expect(text == "{bad" || text == "name=x")
        #expect(document.headers.contains { $0.name == "Content-Type" && $0.value.hasSuffix("json") })
        let warning = try #require(result.warnings.first { $0.message.hasPrefix("the data is not JSON (") })
        #expect(warning.message.hasSuffix("): it is kept as text:, sent as written"))
        #expect(CurlImport.read("curl http://a.example.com/x -d 'a=1'").warnings.isEmpty)
    }

    @Test func templatesInTheURLStayTemplatesWithAWarning() throws {
        let result = CurlImport.read(#"curl "http://x.example.com/users/{{ id }}?q={{ term }}&page=2""#)
        let document = try #require(result.requests.first?.document)
        #expect(document.url == "http://x.example.com/users/{{ id }}")
        #expect(document.name == "GET /users/{{ id }}")
        #expect(document.query.map(\.name) == ["q", "page"] && document.query[0].values == ["{{ term }}"])
        let warning = try #require(result.warnings.first { $0.message.contains("'{{' in the command starts a template") })
        #expect((warning.mark.line, warning.mark.column) == (1, 34))
        let continued = CurlImport.read("curl -s \\\n  -H 'X-Id: {{ id }}' http://x.example.com/")
        #expect(continued.warnings.first { $0.message.contains("'{{' in the command") }.map { [$0.mark.line, $0.mark.column] } == [2, 13])
    }

    @Test func windowsCmdQuotingIsALocatedError() throws {
        let error = try #require(CurlImport.read(#"curl "http://a.example.com/" --data-raw "^{^\^"a^\^":1^}""#).errors.first)
        #expect(error.message.contains("quoted for Windows' cmd"), "\(error)")
        #expect(error.mark.column == 41)
        #expect(error.suggestion?.contains("cURL (bash)") == true)
        // Its credentials stand between carets: the quoted line hides them all the same (trial helper-154).
        let windows = #"curl ^"http://127.0.0.1:1/a^" -H ^"authorization: Bearer winTOKEN12345^" -H ^"cookie: sid=winCookie777^""#
        #expect(CurlImport.read(windows).redacted(windows)
                == #"curl ^"http://127.0.0.1:1/a^" -H ^"authorization: Bearer ***^" -H ^"cookie: sid=***^""#)
        // A value holding one `"` (`^\^\^\^"`), which a shell reads as an unclosed quote: refused as cmd's all the same,
        // every credential hidden (trial helper-158).
        let odd = #"curl ^"https://h.example/login^" -H ^"authorization: Bearer abcdTOKEN99^" -H ^"x: a^\^"b^" "#
            + #"--data-raw ^"^{^\^"item^\^":^\^"5^\^\^\^" monitor^\^",^\^"password^\^":^\^"Sup3rSecret^!^\^"^}^""#
        let refused = CurlImport.read(odd)
        #expect(refused.errors.map(\.message) == ["the command is quoted for Windows' cmd (^\"…^\"), which runner does not read"])
        #expect(!refused.redacted(odd).contains("abcdTOKEN99") && !refused.redacted(odd).contains("Sup3rSecret"), "\(refused.redacted(odd))")
        // cmd's escapes inside: a JSON body (`^\^"`), a token holding `^&`, a line going on after `^` (trial helper-156).
        for (command, secret) in [(#"curl https://a.example.com/x --data-raw ^"^{^\^"password^\^":^\^"PWJSON1^\^"^}^""#, "PWJSON1"),
                                  (#"curl https://a.example.com/x -H ^"Authorization: Bearer PLAIN^&TOK77^""#, "TOK77"),
                                  ("curl \"https://a.example.com/x\" ^\n  -H ^\"Authorization: Bearer LINE2TOK^&Z^\"", "LINE2TOK")] {
            let result = CurlImport.read(command)
            let message = InteropProblem.redacted(result.errors.first?.message ?? "", hiding: result.errors, also: result.credentials)
            #expect(!result.redacted(command).contains(secret) && !message.contains(secret) && result.redacted(command).contains("***"),
                    "\(result.redacted(command)) \(message)")
        }
        // A JSON string holding an escape, as browsers write it for cmd: `\"` as `^\^\^\^"`, `\\` as `^\^\^\^\`, `\u00e9`
        // as `^\^\u00e9`; `&`, `%` and `-` as they write them (trial helper-160).
        for value in [#"Hunter^\^\^\^"2024xyz"#, #"PW^\^\^\^\sekritval"#, #"PW^\^\u00e9sekritval"#, "PW-a^&b^%^PATH^%^x", "PW5^%", "Zx%^7qLm"] {
            let command = "curl https://api.example.com/login ^\n  --data-raw ^\"^{^\\^\"token^\\^\":^\\^\"\(value)^\\^\"^}^\" ^\n  --compressed"
            let result = CurlImport.read(command)
            #expect(result.redacted(command).contains(#"^\^"token^\^":^\^"***^\^"^}"#), "\(value): \(result.redacted(command))")
            #expect(result.errors.map(\.locatedMessage) == ["command 1: the command is quoted for Windows' cmd (^\"…^\"), which runner does not read"])
        }
        // Credentials of 3 characters or fewer, hidden where they stand whole, as in a command quoted for bash.
        let short = #"curl ^"https://api.example.com/x^" -H ^"Authorization: Bearer abc^" -H ^"Cookie: s=ab^" "#
            + #"--data-raw ^"^{^\^"token^\^":^\^"ab^\^",^\^"pin^\^":12^}^""#
        #expect(CurlImport.read(short).redacted(short) == #"curl ^"https://api.example.com/x^" -H ^"Authorization: Bearer ***^" "#
                + #"-H ^"Cookie: s=***^" --data-raw ^"^{^\^"token^\^":^\^"***^\^",^\^"pin^\^":***^}^""#)
    }

    /// A text copied for cmd is read as cmd reads it (trial helper-169): a `;` inside `^"…^"` ends no command, so no
    /// second "command" quotes a password's end; a quote never closed still hides the token before it; commands joined
    /// by `&` and CRLF line breaks are refused each at its place.
    @Test func aTextCopiedForCmdIsReadAsCmdReadsIt() throws {
        let semicolon = #"curl ^"https://api.example.com/login^" --data-raw ^"^{^\^"user^\^":^\^"bob^\^",^\^"password^\^":^\^"hun;ter2SECRET^\^"^}^""#
        let read = CurlImport.read(semicolon)
        #expect(read.errors.map(\.locatedMessage) == ["command 1: the command is quoted for Windows' cmd (^\"…^\"), which runner does not read"])
        #expect(!read.redacted(semicolon).contains("SECRET"), "\(read.redacted(semicolon))")
        for unclosed in [#"curl ^"https://api.example.com/login^" -H ^"Authorization: Bearer chUnclosedSECRET"#,
                         #"curl ^"https://h.example/x^" -H ^"Authorization: Bearer unclosedTokSECRET ^" -H ^"x: 1"#,
                         #"curl ^"https://h.example/x^" --data-raw ^"^{^\^"password^\^":^\^"openPwSECRET"#,
                         // A later `^"` pairing with the one left open runs the value into the words after it (helper-172).
                         #"curl ^"http://h.example/me^" -H ^"Authorization: Bearer eyJSECRETTOKEN123 -H ^"accept: */*^""#,
                         #"curl ^"http://h.example/me^" --data-raw ^"^{^\^"token^\^":^\^"TOKSECRET1234 -H ^"x: y^""#] {
            let result = CurlImport.read(unclosed)
            #expect(result.errors.count == 1 && !result.redacted(unclosed).contains("SECRET"), "\(result.redacted(unclosed))")
        }
        // A cookie without a name beside named ones is a value; `-b` without any `=` names a file.
        let cookie = #"curl ^"https://h.example/x^" -b ^"sid=chSid;NamelessSECRET^""#
        #expect(CurlImport.read(cookie).redacted(cookie).hasSuffix(#"-b ^"sid=***;***""#), "\(CurlImport.read(cookie).redacted(cookie))")
        #expect(CurlImport.read("curl https://h.example/x -b cookies.txt").errors.isEmpty)
        let two = "curl ^\"https://h.example/a^\" -H ^\"X-Api-Key: keyOneSECRET^\" &\r\ncurl ^\"https://h.example/b^\" -u ^\"bob:pwTwoSECRET^\""
        let both = CurlImport.read(two)
        #expect(both.errors.map { [$0.mark.line, $0.mark.column] } == [[1, 6], [2, 6]])
        #expect(both.errors.map(\.locatedMessage).map { $0.prefix(9) } == ["command 1", "command 2"])
        #expect(!both.redacted(two).contains("SECRET"), "\(both.redacted(two))")
    }

    /// Credentials after a value whose quote is left open, which shifts every word a shell reads after it, are hidden all
    /// the same: each option is read again as written (trial helper-175), in bash, cmd and Firefox's Windows quoting, on
    /// the same line or the next.
    @Test func credentialsAfterAQuoteLeftOpenAreHidden() {
        for text in [
            "curl 'https://a.example.com/w' -H 'accept: */* -u 'bob:SPASSAAA111' -H 'x: y'",
            "curl 'https://a.example.com/w' -H \"accept: */* -H 'Authorization: Bearer APASS333SECRET' --compressed",
            "curl \"https://a.example.com/w\" -H \"accept: */* -H \"Cookie: sid=SCOOKCCC333\" --compressed",
            "curl 'https://a.example.com/w' -H 'accept: */*\ncurl 'https://a.example.com/v?token=QTOKLLL222&x=1' -b 'sid=BCOOK444SECRET'",
            "curl 'https://a.example.com/w' -H 'Authorization: Bearer BTOKFFF666 --frob\ncurl 'https://a.example.com/v' -H 'Cookie: sid=BCOOKGGG777",
            #"curl ^"https://a.example.com/w^" -H ^"accept: */* -u ^"bob:CPASSFFF666^" -H ^"Authorization: Bearer CTOKGGG777^""#,
            #"curl "https://a.example.com/w" -H "accept: */* -H "Authorization: Bearer FTOKCCC333" --data-raw "{""password"":""FPASSDDD444""}""#,
            // cmd's quotes around a body whose own quotes are plain or doubled (trial helper-178).
            #"curl ^"http://h/a^" --data-raw ^"{"password":"CPASSFFF666"}^""#,
            #"curl ^"http://h/a^" --data-raw ^"{""password"":""CPASSFFF666""}^""#,
        ] {
            let result = CurlImport.read(text)
            let shown = text.split(separator: "\n").map { result.redacted(String($0)) }.joined(separator: "\n")
                + result.errors.map { InteropProblem.redacted($0.message, hiding: result.errors, also: result.credentials) }.joined()
            #expect(!result.errors.isEmpty, "\(text)")
            for secret in ["SPASSAAA111", "APASS333SECRET", "SCOOKCCC333", "QTOKLLL222", "BCOOK444SECRET", "BTOKFFF666", "BCOOKGGG777",
                           "CPASSFFF666", "CTOKGGG777", "FTOKCCC333", "FPASSDDD444"] {
                #expect(!shown.contains(secret), "\(secret) in \(shown)")
            }
        }
    }

    /// A command Firefox copied as cURL (Windows), a value's `"` doubled inside `"…"` and a `%` as `"%"`, which a shell reads
    /// as other text, is refused, its credentials hidden as Windows reads them (trial helper-162: its JSON body was written
    /// as `{password:Zx%7q}`, without a word); a shell's empty string at a word's end is no such quoting.
    @Test func aCommandQuotedForWindowsByFirefoxIsRefused() throws {
        let command = #"curl "https://api.example.com/login" -H "Authorization: Bearer TOK-abc-123456" "#
            + #"--data-raw "{""user"":""bob"",""password"":""Zx"%"7qLm""}""#
        let result = CurlImport.read(command)
        #expect(result.errors.map(\.locatedMessage) == ["command 1: the command is quoted for Windows (\"\" inside \"…\"), which runner does "
                                                        + "not read: a shell would read other text than the request's"])
        #expect(result.requests.isEmpty)
        let shown = result.redacted(command)
        #expect(!shown.contains("TOK-abc") && !shown.contains("7qLm") && shown.contains(#"""password"":""***""}"#), "\(shown)")
        #expect(CurlImport.read(#"curl https://x.example.com -H "X: """"#).errors.isEmpty)
        // A value holding `\"`, which a shell then reads as an unclosed quote; a bash command whose JSON body's quote never
        // closes (trial helper-166).
        for (unclosed, secret) in [(#"curl "http://127.0.0.1:1/x" --data-raw "{""password"":""ab\""cdEFG""}""#, "cdEFG"),
                                   (#"curl "http://127.0.0.1:1/x" --data-raw "{""user"":{""api_key"":""KKab\""cdEFG""}}""#, "cdEFG"),
                                   (#"curl http://127.0.0.1:1/x --data-raw '{"password":"pw12345"#, "pw12345"),
                                   // Firefox doubles a `\` too: a JSON `\"` is `\\""` (trial helper-168).
                                   (#"curl "http://127.0.0.1:1/x" --data-raw "{""password"":""Xy\\""Q9zSECRET""}""#, "Q9zSEC"),
                                   (#"curl "http://127.0.0.1:1/x" --data-raw "{""password"":""Ab\\""Q9zSEC"#, "Q9zSEC")] {
            let read = CurlImport.read(unclosed)
            #expect(!read.errors.isEmpty && !read.redacted(unclosed).contains(secret), "\(read.redacted(unclosed))")
        }
    }

    /// A query item named like a credential is written as given, with a warning naming it, its value hidden (trial
    /// helper-178: written without a word); another item is not.
    @Test func aQueryItemNamedLikeACredentialIsNamed() {
        let command = "curl 'http://h.example/x?token=QSECRET5&page=2'"
        let result = CurlImport.read(command)
        #expect(result.warnings.map(\.message) == ["the query item 'token' is written as it was"])
        #expect(result.redacted(command) == "curl 'http://h.example/x?token=***&page=2'")
        #expect(result.requests.first?.document.yaml.contains("token: QSECRET5") == true)
    }

    /// Every problem a request file would have is an error at the word of the command that wrote it, not at `curl`,
    /// each of them (trial helper-182: the first alone, at column 1).
    @Test func requestFileProblemsAreEachAtTheWordThatWroteThem() {
        let command = "curl 'http://127.0.0.1:1/x' -H 'X-Id: {{ $randomColor }}' -d 'a={{$guid}}'"
        let result = CurlImport.read(command)
        #expect(result.errors.map(\.locatedMessage) == [
            "command 1: the request would not be valid: unknown built-in '$randomColor'",
            "command 1: the request would not be valid: unknown built-in '$guid'",
        ])
        #expect(result.errors.map(\.mark.column) == [32, 62])
    }

    /// A short number named as a credential is hidden where it stands whole, at the end of a JSON object too; another
    /// member's number shows (trial helper-182: the reverse).
    @Test func aShortNumericCredentialIsHiddenAndOtherNumbersShow() {
        let command = #"curl http://127.0.0.1:1/x --json '{"a":5,"password":131}'"#
        #expect(CurlImport.read(command).redacted(command) == #"curl http://127.0.0.1:1/x --json '{"a":5,"password":***}'"#)
        // Nor inside another number of another command (trial helper-183: 12345 cut out of 12345678901234567890).
        let two = "curl http://127.0.0.1:1/y --json '{\"big\":12345678901234567890}'\ncurl http://127.0.0.1:1/w --json '{\"api_key\":12345}'"
        let read = CurlImport.read(two)
        #expect(read.redacted("{\"big\":12345678901234567890}") == "{\"big\":12345678901234567890}")
        #expect(read.redacted("{\"api_key\":12345}") == "{\"api_key\":***}")
    }

    /// One long word (a body or header value copied whole) is read in time linear in its length: credential names
    /// were tried from every place of it, and 40 KB took minutes (trial helper-182). A ceiling far above what it takes,
    /// far below what it took.
    @Test func aLongWordIsReadInLinearTime() {
        let word = String(repeating: "y", count: 60_000)
        let command = "curl http://127.0.0.1:1/x -H 'X-Long: \(word)' --data-raw '\(word)'"
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(CurlImport.read(command).requests.count == 1) }
        #expect(elapsed < .seconds(60), "\(elapsed)")
    }

    /// Asked to, credentials are written as references to secrets, without warnings; a body kept as text keeps its
    /// credentials as written, with their warnings; a URL's credentials become Basic auth; a member that is a number
    /// stays one (a secret is text).
    @Test func credentialsAreWrittenAsSecretsWhenAsked() throws {
        let command = "curl 'https://u:Up4ssw0rd@h.example/x' -H 'Cookie: sid=S1d2c3d4; lang=en' -H 'Authorization: Token aUtH12345' "
            + #"--json '{"a":1,"password":"Jp4ss0001","pin":{"apiKey":"Ak12345678"},"pwd":123456}'"#
        let result = CurlImport.read(command, writingSecrets: true)
        #expect(result.errors.isEmpty)
        #expect(result.warnings.map(\.message) == ["the JSON member 'pwd' is written as it was"])
        let yaml = try #require(result.requests.first?.document.yaml)
        for value in ["Up4ssw0rd", "S1d2c3d4", "aUtH12345", "Jp4ss0001", "Ak12345678"] { #expect(!yaml.contains(value), "\(yaml)") }
        #expect(yaml.contains("url: https://h.example/x\n") && yaml.contains("Cookie: \"{{ cookie }}\"")
                && yaml.contains("Authorization: \"Token {{ authorization }}\"") && yaml.contains("apiKey: \"{{ apiKey }}\"")
                && yaml.contains("pwd: 123456") && yaml.contains("username: u\n    password: \"{{ password2 }}\""), "\(yaml)")
        #expect(result.secrets?.environmentEntries == """
            secrets:
              cookie: { env: COOKIE }
              password: { env: API_PASSWORD }
              apiKey: { env: API_KEY }
              authorization: { env: AUTHORIZATION }
              password2: { env: API_PASSWORD_2 }

            """)
        // Still hidden where a message quotes the command.
        #expect(!["Up4ssw0rd", "S1d2c3d4", "aUtH12345", "Jp4ss0001", "Ak12345678"].contains { result.redacted(command).contains($0) })
        // A body kept as text (a number JSON would change) is written as it is: its credentials too, each with its warning.
        let text = #"curl https://h.example/x --json '{"password":"Jp4ss0001","n":12345678901234567890}'"#
        let kept = CurlImport.read(text, writingSecrets: true)
        #expect(kept.warnings.first?.message == "the JSON member 'password' is written as it was")
        #expect(kept.secrets?.secrets.isEmpty == true)
        // A name no variable can have is written by its words.
        let odd = "curl https://h.example/x -d 'user[password]=Fp4ss0001'"
        #expect(CurlImport.read(odd, writingSecrets: true).requests.first?.document.yaml.contains(#""user[password]": "{{ userPassword }}""#) == true)
        // Two names reading one variable each get their own; a name starting with a digit starts with '_' (trial helper-183).
        let twins = CurlImport.read("curl https://h.example/x -d 'token=Tk1234567&_token=Tk7654321&2fa-token=Tf1234567'", writingSecrets: true)
        #expect(twins.secrets?.environmentEntries == "secrets:\n  token: { env: API_TOKEN }\n  _token: { env: API_TOKEN_2 }\n"
                    + "  _2faToken: { env: _2FA_TOKEN }\n", "\(twins.errors)")
        // An empty credential (a secret cannot be empty) and the command's own template stay as written, needing no secret.
        let asWritten = CurlImport.read("curl https://h.example/x -u bob: -H 'X-Api-Key: {{ k }}'", writingSecrets: true)
        let yaml2 = asWritten.requests.first?.document.yaml ?? ""
        #expect(asWritten.secrets?.secrets.isEmpty == true)
        #expect(yaml2.contains("X-Api-Key: \"{{ k }}\"") && yaml2.contains("password: \"\""), "\(yaml2)")
        // `-u` beside a URL's credentials: curl sends `-u`'s, the URL's are left out and need no secret.
        let both = "curl -u bob:Up4ss1112 'https://carol:Up4ss3334@h.example/x'"
        let read = CurlImport.read(both, writingSecrets: true)
        #expect(read.secrets?.environmentEntries == "secrets:\n  password: { env: API_PASSWORD }\n")
        #expect(read.warnings.map(\.message) == ["the URL's credentials are left out: curl sends those of -u or the bearer token instead"])
        #expect(!read.redacted(both).contains("Up4ss3334") && read.requests.first?.document.yaml.contains("username: bob") == true)
    }

    /// The command's templates in a URL's credentials stay as written, with no secret and no warning; an Authorization
    /// or Proxy-Authorization header of a scheme alone (its credential empty) needs no secret; a credential query item
    /// that is a template hides nothing of runner's own words (trial helper-184).
    @Test func templatesAndEmptyCredentialsNeedNoSecret() throws {
        for (command, url) in [("curl 'http://{{ u }}:{{ p }}@h.example/a'", "http://{{ u }}:{{ p }}@h.example/a"),
                               ("curl 'http://bob:{{ p }}@h.example/a'", "http://bob:{{ p }}@h.example/a")] {
            for secrets in [true, false] {
                let result = CurlImport.read(command, writingSecrets: secrets)
                let yaml = try #require(result.requests.first?.document.yaml)
                #expect(yaml.contains("url: \"\(url)\"") && !yaml.contains("runnertemplate") && !yaml.contains("basic"), "\(yaml)")
                #expect(result.secrets?.secrets.isEmpty ?? true)
                #expect(!result.warnings.contains { $0.message.contains("password") }, "\(result.warnings)")
            }
        }
        let user = CurlImport.read("curl 'http://{{ u }}:pw12345678@h.example/a'", writingSecrets: true)
        let userYAML = try #require(user.requests.first?.document.yaml)
        #expect(userYAML.contains("username: \"{{ u }}\"") && userYAML.contains("password: \"{{ password }}\""), "\(userYAML)")
        for header in ["Authorization: Bearer ", "Authorization: Bearer", "Authorization: Token ", "Proxy-Authorization: Basic "] {
            let result = CurlImport.read("curl -H '\(header)' http://h.example/a", writingSecrets: true)
            #expect(result.secrets?.secrets.isEmpty == true, "\(header)")
            #expect(result.requests.first?.document.yaml.contains("{{") == false, "\(header)")
        }
        let proxy = CurlImport.read("curl -H 'Proxy-Authorization: Basic cHJveHk6cGFzcw==' http://h.example/a", writingSecrets: true)
        #expect(proxy.requests.first?.document.yaml.contains("Proxy-Authorization: \"Basic {{ proxyAuthorization }}\"") == true)
        let query = CurlImport.read("curl 'http://h.example/a?api_key={{ k }}'", writingSecrets: true)
        #expect(query.warnings.allSatisfy { !query.redacted($0.message).contains("***") }, "\(query.warnings.map(\.message))")
        // Nor in the quoted line of the command, where a template shows as written (trial helper-187: `{{ ***`).
        for command in ["curl 'http://bob:{{ pw }}@h.example/x'", "curl -H 'X-Api-Key: {{ k }}' http://h.example/x",
                        "curl -u 'bob:{{ p }}' http://h.example/x", "curl -d 'password={{ p }}' http://h.example/x",
                        "curl 'http://h.example/a?api_key={{ k }}'"] {
            #expect(CurlImport.read(command, writingSecrets: true).redacted(command) == command)
        }
    }

    /// A JSON body's member whose name says it holds a credential is written as given, with a warning naming it, its
    /// value hidden (trial helper-154: it was written without a word).
    @Test func aJSONBodysSecretMemberIsNamed() throws {
        let command = #"curl http://127.0.0.1:1/login --json '{"user":"bob","password":"hunter2-pass","deep":[{"apiKey":"k-123456"}]}'"#
        let result = CurlImport.read(command)
        #expect(result.warnings.map(\.message) == ["the JSON member 'password' is written as it was", "the JSON member 'apiKey' is written as it was"])
        #expect(result.redacted(command).contains(#""password":"***""#) && !result.redacted(command).contains("k-123456"))
        // A number in a command refused for another reason is hidden in its quoted line too (trial helper-158).
        let stopped = "curl https://h.example/x --json '{\"password\":123456,\"pwd\":777888}' --frob"
        #expect(CurlImport.read(stopped).redacted(stopped) == "curl https://h.example/x --json '{\"password\":***,\"pwd\":***}' --frob")
        // A number, as written (trial helper-156), also one a json: body would change.
        for number in ["123456789", "12345678901234567890"] {
            let numeric = "curl http://127.0.0.1:1/login --json '{\"password\": \(number)}'"
            let read = CurlImport.read(numeric)
            #expect(read.warnings.first?.message == "the JSON member 'password' is written as it was", "\(read.warnings)")
            #expect(!read.redacted(numeric).contains(number)
                    && read.warnings.allSatisfy { !InteropProblem.redacted($0.message, hiding: read.warnings).contains(number) })
        }
        // The hint's variable in upper snake case, `API_` written once (trial helper-154: `API_APIKEY`), words split where
        // a capital starts one (trial helper-156: `APIKey`, a header `ApiKey`).
        #expect(result.warnings.last?.suggestion?.contains("`apiKey: { env: API_KEY }`") == true, "\(result.warnings)")
        for (name, hint) in [("APIKey", "`APIKey: { env: API_KEY }`"), ("X-Api-Key", "`xApiKey: { env: X_API_KEY }`"),
                             ("ApiKey", "`apiKey: { env: API_KEY }`")] {
            let command = name == "APIKey" ? "curl http://127.0.0.1:1/ --json '{\"APIKey\":\"AK1234567\"}'" : "curl http://127.0.0.1:1/ -H '\(name): AK1234567'"
            #expect(CurlImport.read(command).warnings.first?.suggestion?.contains(hint) == true, "\(name): \(CurlImport.read(command).warnings)")
        }
    }

    @Test func secretHeaderHintsAreNamedAfterTheHeader() throws {
        let result = CurlImport.read("curl http://a.example.com/ -H 'X-Api-Key: k1' -b 'sid=1'")
        let hints = result.warnings.compactMap(\.suggestion)
        #expect(hints.contains { $0.contains("`xApiKey: { env: X_API_KEY }`") && $0.contains("{{ xApiKey }}") }, "\(hints)")
        #expect(hints.contains { $0.contains("`cookie: { env: COOKIE }`") }, "\(hints)")
    }

    @Test(arguments: [
        ("curl http://127.0.0.1:1/get 2>/dev/null", ["2>/dev/null"]),
        ("curl http://127.0.0.1:1/get -o out.json > x.txt 2>&1", ["> x.txt", "2>&1"]),
        ("curl -s http://127.0.0.1:1/get &", ["&"]),
        ("curl http://127.0.0.1:1/get &> all.log", ["&> all.log"]),
        ("curl http://127.0.0.1:1/get 2>>err.log <in.txt", ["2>>err.log", "<in.txt"]),
    ])
    func redirectionsAndABackgroundAmpersandAreEachOneWarning(text: String, ignored: [String]) throws {
        let result = CurlImport.read(text)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.requests.map(\.document.url) == ["http://127.0.0.1:1/get"])
        #expect(result.warnings.filter { $0.message.hasSuffix("is not part of the request: ignored") }.map(\.message)
            == ignored.map { "'\($0)' is not part of the request: ignored" })
    }

    @Test func anAmpersandBetweenCommandsEndsTheFirst() throws {
        let result = CurlImport.read("curl http://127.0.0.1:1/a & curl http://127.0.0.1:1/b")
        #expect(result.requests.map(\.document.url) == ["http://127.0.0.1:1/a", "http://127.0.0.1:1/b"])
        #expect(result.warnings.map(\.command) == [1])
    }

    @Test(arguments: ["curl http://127.0.0.1:1/a -o out.json http://127.0.0.1:1/b", "curl http://127.0.0.1:1/a -o out.json --frob"])
    func warningsBeforeAnErrorAreStillListed(text: String) throws {
        let result = CurlImport.read(text)
        #expect(result.errors.count == 1)
        #expect(result.warnings.map(\.message) == ["'-o out.json' has no equivalent in a request file: it is not translated"])
        #expect(result.warnings.map(\.command) == [1])
    }

    /// curl's own options are known: those runner has no equivalent for are listed, their values read as curl reads them
    /// (the URL after them is still the URL), and the ones that change the request say how.
    @Test func curlsOtherOptionsAreListedNotUnknown() throws {
        let result = CurlImport.read("""
            curl -0 -C 100 -z 'Sat, 01 Jan 2000 00:00:00 GMT' --post301 --unix-socket /tmp/s --request-target '*' --proto =https \\
              --local-port 4000-4100 --hsts h.txt --alt-svc a.txt --etag-save e.txt --xattr --libcurl out.c --ciphers ECDHE \\
              --sasl-ir --delegation none --expect100-timeout 2 --trace-time -Y 100 -y 10 --remote-name-all \\
              --disallow-username-in-url --mail-from a@b.c --happy-eyeballs-timeout-ms 100 --compressed-ssh http://127.0.0.1:1/x
            """)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.requests.first?.document.url == "http://127.0.0.1:1/x")
        #expect(result.warnings.count == 25)
        #expect(result.warnings.allSatisfy { $0.message.contains("has no equivalent in a request file: it is not translated") })
        #expect(result.warnings.first?.message == "'-0' has no equivalent in a request file: it is not translated (curl would send the request as HTTP/1.0)")
        #expect(result.warnings.contains { $0.message == "'-C 100' has no equivalent in a request file: it is not translated "
            + "(curl would ask for the rest of the resource with a Range header)" })
    }

    /// Older names curl still accepts (7.88) are options it knows, with their values, not unknown ones.
    @Test func curlsOlderOptionNamesAreListedNotUnknown() throws {
        let result = CurlImport.read("curl --ftp-ssl --ftp-ssl-reqd --krb4 private http://127.0.0.1:1/x")
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.requests.first?.document.url == "http://127.0.0.1:1/x")
        #expect(result.warnings.map(\.message) == ["'--ftp-ssl'", "'--ftp-ssl-reqd'", "'--krb4 private'"].map {
            $0 + " has no equivalent in a request file: it is not translated"
        })
    }

    /// `--no-` before an on/off option switches it off, as curl reads it (the last of `-L` and `--no-location` wins);
    /// curl refuses it before an option that takes a value or chooses something (`--http2`), and so does import.
    @Test func noBeforeASwitchTurnsItOffAsCurlReadsIt() throws {
        let off = CurlImport.read("curl -L -k -G -g --compressed --ntlm --digest -u bob:pw --no-location --no-insecure --no-get "
            + "--no-globoff --no-compressed --no-digest --no-progress-meter --progress-meter -N -d a=1 'http://127.0.0.1:1/{x,y}'")
        #expect(off.errors.isEmpty, "\(off.errors)")
        #expect(off.requests.map(\.document.url) == ["http://127.0.0.1:1/x", "http://127.0.0.1:1/y"])
        let document = try #require(off.requests.first?.document)
        #expect(document.method == "POST" && document.auth == nil, "\(document.yaml)")
        #expect(document.options.map(\.key) == ["followRedirects"] && document.yaml.contains("followRedirects: false"), "\(document.yaml)")
        guard case .form(let fields)? = document.body else { Issue.record("not a form: \(document.yaml)"); return }
        #expect(fields.map(\.name) == ["a"])
        #expect(off.warnings.map(\.message).filter { $0.contains("has no equivalent") }
                == ["'--no-progress-meter'", "'--progress-meter'", "'-N'"].map { $0 + " has no equivalent in a request file: it is not translated" })
        #expect(off.warnings.contains { $0.message.hasPrefix("'-u' is not translated: with --ntlm") })
        #expect(CurlImport.read("curl --no-locaton http://127.0.0.1:1/").errors.first?.suggestion == "did you mean '--no-location'?")
        let hidden = "curl --no-location http://bob:S3cretNoLoc@127.0.0.1:1/ --bogus"
        #expect(!CurlImport.read(hidden).redacted(hidden).contains("S3cretNoLoc"))
        let followed = try #require(CurlImport.read("curl --no-location -L http://127.0.0.1:1/").requests.first?.document)
        #expect(followed.yaml.contains("followRedirects: true"))
        // --location-trusted switched off by --no-location no longer follows: nothing is said of the credentials.
        let trusted = CurlImport.read("curl --location-trusted --no-location -u bob:pw http://127.0.0.1:1/")
        #expect(trusted.requests.first?.document.yaml.contains("followRedirects: false") == true)
        #expect(!trusted.warnings.contains { $0.message.contains("--location-trusted") })
        let basic = try #require(CurlImport.read("curl --digest --no-digest -u bob:pw http://127.0.0.1:1/").requests.first?.document)
        guard case .basic(let username, _)? = basic.auth else { Issue.record("not basic: \(basic.yaml)"); return }
        #expect(username == "bob")
        for (command, column) in [("curl --no-request GET http://127.0.0.1:1/", 6), ("curl http://127.0.0.1:1/ --no-http2", 26)] {
            let error = try #require(CurlImport.read(command).errors.first)
            #expect(error.message.hasSuffix("curl reads '--no-' only before an on/off option, and '--\(command.contains("http2") ? "http2" : "request")' is not one"),
                    "\(error)")
            #expect((error.mark.line, error.mark.column) == (1, column))
        }
    }

    /// curl reads `--no-head` as asking for GET: alone it is a GET request; beside `-I`, `-T`, `-F` or data sent as a
    /// body, curl refuses it, and import says so at it.
    @Test func noHeadAsksForGetAndCurlRefusesItBesideAnotherMethod() throws {
        #expect(CurlImport.read("curl --no-head http://127.0.0.1:1/").requests.first?.document.method == "GET")
        let query = try #require(CurlImport.read("curl -G --no-head -d a=1 http://127.0.0.1:1/").requests.first?.document)
        #expect(query.method == "GET" && query.query.map(\.name) == ["a"])
        for (command, other) in [("curl -I --no-head http://127.0.0.1:1/", "-I asks for HEAD"), ("curl --no-head -I http://127.0.0.1:1/", "-I asks for HEAD"),
                                 ("curl --no-head -d a=1 http://127.0.0.1:1/", "the data asks for POST"),
                                 ("curl --no-head -T f.txt http://127.0.0.1:1/", "-T asks for PUT")] {
            let result = CurlImport.read(command)
            let error = try #require(result.errors.first)
            #expect(result.requests.isEmpty && error.message == "'--no-head' asks for a GET request, and \(other): curl refuses the two together",
                    "\(error)")
            #expect(error.mark.column == (command.hasPrefix("curl -I") ? 9 : 6))
        }
    }

    /// `--pubkey` (an SSH public key file, for SFTP and SCP) is curl's own option, which it ignores for HTTP: listed as not
    /// translated. A mistyped `--api-key`, which reads as a typo of it, still hides its value.
    @Test func pubkeyIsListedAndAnAPIKeyCloseToItStaysHidden() throws {
        let result = CurlImport.read("curl --pubkey id.pub http://127.0.0.1:1/")
        #expect(result.errors.isEmpty && result.requests.first?.document.url == "http://127.0.0.1:1/", "\(result.errors)")
        #expect(result.warnings.map(\.message) == ["'--pubkey id.pub' has no equivalent in a request file: it is not translated"])
        for command in ["curl http://127.0.0.1:1/ --api-key=K3yN3arPub", "curl http://127.0.0.1:1/ --api-key K3yN3arPub"] {
            let typo = CurlImport.read(command)
            let error = try #require(typo.errors.first)
            #expect(error.suggestion?.contains("--pubkey") == true, "\(error)")
            #expect(!typo.redacted(command).contains("K3yN3arPub") && !typo.redacted(error.message + " " + (error.suggestion ?? "")).contains("K3yN3arPub"),
                    "\(typo.redacted(command))")
        }
    }

    /// `-T` uploads the file with PUT (its name added to a URL ending in `/`), `-r` asks for a range.
    @Test func uploadFileAndRangeAreTranslated() throws {
        let upload = try #require(CurlImport.read("curl -T 'dir/report 1.csv' http://127.0.0.1:1/up/").requests.first?.document)
        #expect(upload.method == "PUT" && upload.url == "http://127.0.0.1:1/up/report%201.csv")
        guard case .file(let path)? = upload.body else { Issue.record("not a file: \(upload.yaml)"); return }
        #expect(path == "dir/report 1.csv")
        let range = try #require(CurlImport.read("curl -r 0-499 http://127.0.0.1:1/big").requests.first?.document)
        #expect(range.method == "GET" && Self.header("range", of: range) == "bytes=0-499")
        let written = try #require(CurlImport.read("curl -r 0-1 -H 'Range: bytes=5-' http://127.0.0.1:1/big").requests.first?.document)
        #expect(Self.header("range", of: written) == "bytes=5-")
        #expect(CurlImport.read("curl -T - http://127.0.0.1:1/up").errors.first?.message.contains("uploads standard input") == true)
        #expect(CurlImport.read("curl -T a.txt -d x=1 http://127.0.0.1:1/up").errors.first?.message.contains("a request file sends one body") == true)
    }

    /// curl sends a `-T` file without a Content-Type, which a `file:` body cannot (it sends application/octet-stream
    /// unless a header gives one): said at the file; a Content-Type the command gives is kept, without a warning.
    @Test func anUploadWithoutAContentTypeSaysTheFileBodySendsOne() throws {
        let result = CurlImport.read("curl -T up.bin http://127.0.0.1:1/up")
        let document = try #require(result.requests.first?.document)
        #expect(Self.header("content-type", of: document) == nil)
        let warning = try #require(result.warnings.first)
        #expect(result.warnings.count == 1 && warning.message == "'-T up.bin' sends the file without a Content-Type; the request file's "
            + "file: body sends Content-Type: application/octet-stream (a request file cannot send none)")
        #expect((warning.mark.line, warning.mark.column) == (1, 9))
        let typed = CurlImport.read("curl -T up.csv -H 'Content-Type: text/csv' http://127.0.0.1:1/up")
        #expect(typed.warnings.isEmpty, "\(typed.warnings)")
        #expect(typed.requests.first.map { Self.header("content-type", of: $0.document) } == "text/csv")
    }

    /// `-T` with `-G` still uploads the file with PUT, as curl does; `-G`'s data beside it is an error, as to curl.
    @Test func uploadFileWithGetKeepsTheFileAndItsDataIsAnError() throws {
        let upload = try #require(CurlImport.read("curl -G -T up.txt http://127.0.0.1:1/x").requests.first?.document)
        #expect(upload.method == "PUT" && upload.url == "http://127.0.0.1:1/x" && upload.query.isEmpty)
        guard case .file(let path)? = upload.body else { Issue.record("not a file: \(upload.yaml)"); return }
        #expect(path == "up.txt")
        let refused = CurlImport.read("curl -T up.txt -G -d a=1 http://127.0.0.1:1/x")
        #expect(refused.requests.isEmpty)
        let error = try #require(refused.errors.first)
        #expect(error.message.contains("a request file sends one body") && (error.mark.line, error.mark.column) == (1, 22), "\(error)")
        // A HEAD request has no body: curl refuses -I beside -T.
        let head = CurlImport.read("curl -I -T up.txt http://127.0.0.1:1/x")
        #expect(head.requests.isEmpty && head.errors.first?.message.contains("-I sends a HEAD request") == true, "\(head.errors)")
    }

    /// With `--digest`, `--ntlm`, `--negotiate` or `--anyauth`, curl never sends `-u`'s password as Basic: no auth is
    /// written, and the password is hidden; a later `--basic` makes it Basic again.
    @Test(arguments: ["--digest", "--ntlm", "--negotiate", "--anyauth"])
    func credentialsCurlSendsByAnotherSchemeAreNotWrittenAsBasicAuth(scheme: String) throws {
        let result = CurlImport.read("curl \(scheme) -u bob:s3cretpw http://127.0.0.1:1/private")
        let document = try #require(result.requests.first?.document)
        #expect(document.auth == nil && !document.yaml.contains("s3cretpw"), "\(document.yaml)")
        #expect(result.warnings.map(\.message) == ["'-u' is not translated: with \(scheme) curl sends the credentials by a scheme runner "
            + "does not have, never as Basic auth, which would send the password in the clear"])
        #expect(result.warnings.first?.hidden == ["s3cretpw"])
        let basic = try #require(CurlImport.read("curl \(scheme) --basic -u bob:pw http://127.0.0.1:1/private").requests.first?.document)
        guard case .basic(let username, _)? = basic.auth else { Issue.record("not basic: \(basic.yaml)"); return }
        #expect(username == "bob")
        #expect(CurlImport.read("curl \(scheme) http://127.0.0.1:1/").warnings.map(\.message)
            == ["'\(scheme)' has no equivalent in a request file: it is not translated"])
    }

    /// A URL pattern gives a request per URL, as curl sends them, the last pattern varying fastest.
    @Test func aURLPatternGivesARequestPerURL() throws {
        let result = CurlImport.read(#"curl -H 'X-Api-Key: k1' 'http://127.0.0.1:1/{a,b}/[08-10:2]?c=[x-y]&t={{ t }}'"#)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.requests.map(\.document.url) == ["a/08", "a/08", "a/10", "a/10", "b/08", "b/08", "b/10", "b/10"].map { "http://127.0.0.1:1/" + $0 })
        #expect(result.requests.map { $0.document.query[0].values[0] } == ["x", "y", "x", "y", "x", "y", "x", "y"])
        #expect(result.requests.allSatisfy { $0.command == 1 && $0.document.query[1].values == ["{{ t }}"] })
        #expect(result.warnings.filter { $0.message.contains("X-Api-Key") }.count == 1)
    }

    /// With -g (what runner always does), an IPv6 address, `[]` or an escaped bracket, the URL is one, its brackets and
    /// braces (not an IPv6 address's) listed as sent percent-encoded; one giving too many URLs is an error.
    @Test func aURLWithoutAPatternIsOneRequest() throws {
        let literal = CurlImport.read(#"curl -g 'http://127.0.0.1:1/a?f[name]={x,y}' ; curl 'http://[::1]:1/x' ; curl 'http://127.0.0.1:1/\[1-2\]' ; curl 'http://127.0.0.1:1/[]'"#)
        #expect(literal.errors.isEmpty, "\(literal.errors)")
        #expect(literal.warnings.map(\.command) == [1, 3, 4] && literal.warnings.allSatisfy { $0.message.hasSuffix("curl sends them as written") },
                "\(literal.warnings)")
        #expect(literal.requests.map(\.document.url) == ["http://127.0.0.1:1/a", "http://[::1]:1/x", "http://127.0.0.1:1/%5B1-2%5D", "http://127.0.0.1:1/%5B%5D"])
        #expect(literal.requests.first?.document.query.first.map { [$0.name] + $0.values } == ["f[name]", "{x,y}"])
        #expect(CurlImport.read("curl 'http://127.0.0.1:1/[1-1000]'").errors.first?.message.contains("giving 1000 URLs") == true)
        #expect(CurlImport.read("curl 'http://127.0.0.1:1/[1-99999999999999999]'").errors.first?.message.contains("giving 99999999999999999 URLs") == true)
    }

    /// A pattern curl refuses without -g (it exits with "bad range", "unmatched brace", …, sending nothing) is an error at
    /// the URL, in curl's words; with -g its braces and brackets are sent as written.
    @Test(arguments: [("/a]b", "]", "unmatched close brace/bracket"), ("/x?a=}", "}", "unmatched close brace/bracket"),
                      ("/a[b", "[b", "bad range"), ("/a?filter[name]=x", "[name]", "bad range"), ("/[3-1]", "[3-1]", "bad range"),
                      ("/[1-3:5]", "[1-3:5]", "bad range"), ("/[A-z]", "[A-z]", "bad range"), ("/a{b", "{b", "unmatched brace"),
                      ("/{}", "{}", "empty string within braces"), ("/{a[1-2]}", "{a[1-2]}", "nested brace"),
                      ("/{a]}", "{a]}", "unexpected close bracket"), ("/{a,b}}", "}", "unmatched close brace/bracket")])
    func aURLPatternCurlRefusesIsAnErrorAtTheURL(path: String, pattern: String, reason: String) throws {
        let url = "http://127.0.0.1:1" + path
        let refused = CurlImport.read("curl -s '\(url)'")
        let error = try #require(refused.errors.first)
        #expect(refused.requests.isEmpty && error.message == "'\(url)' has '\(pattern)', which curl reads as a URL pattern and "
            + "refuses (\(reason)): it sends no request", "\(error)")
        #expect((error.mark.line, error.mark.column) == (1, 9) && error.suggestion?.hasPrefix("add -g (--globoff)") == true)
        let literal = CurlImport.read("curl -g '\(url)'")
        #expect(literal.errors.isEmpty && literal.requests.count == 1, "\(literal.errors)")
    }

    /// Patterns read as curl reads them: an empty set item, a `\\` in a set, a step, letters past `Z`, padded numbers.
    @Test func aURLPatternGivesTheURLsCurlSends() throws {
        for (path, sent) in [("/{a,}", ["/a", "/"]), (#"/{a\,b,c}"#, ["/a,b", "/c"]), ("/[1-5:2]", ["/1", "/3", "/5"]),
                             ("/[a-e:2]", ["/a", "/c", "/e"]), ("/[X-a]", ["/X", "/Y", "/Z", "/%5B", "/%5C", "/%5D", "/%5E", "/_", "/%60", "/a"]),
                             ("/[001-3]", ["/001", "/002", "/003"]), ("/[1-1]", ["/1"])] {
            let result = CurlImport.read("curl 'http://127.0.0.1:1\(path)'")
            #expect(result.errors.isEmpty, "\(path): \(result.errors)")
            #expect(result.requests.map(\.document.url) == sent.map { "http://127.0.0.1:1" + $0 }, "\(path)")
        }
    }

    /// `-H 'Name:'` removes a header: one curl adds by itself is said to be removed, another is said to be sent not at all.
    @Test func anEmptyHeaderSaysWhetherCurlWouldHaveSentIt() throws {
        let result = CurlImport.read("curl -H 'User-Agent:' -H 'X-Empty:' http://127.0.0.1:1/")
        let document = try #require(result.requests.first?.document)
        #expect(document.headers.isEmpty)
        #expect(result.warnings.map(\.message) == ["'User-Agent:' removes a header curl adds by itself; runner has no equivalent: not translated",
                                                  "'X-Empty:' sends no X-Empty header (curl removes a header given without a value): not translated"])
    }

    /// `--location-trusted` follows redirects, and is listed: runner does not send the credentials to another host.
    @Test func locationTrustedFollowsRedirectsAndSaysCredentialsStayOnTheHost() throws {
        let result = CurlImport.read("curl --location-trusted -u bob:pw http://127.0.0.1:1/")
        #expect(result.requests.first?.document.yaml.contains("followRedirects: true") == true)
        #expect(result.warnings.map(\.message).contains("'--location-trusted' is translated as followRedirects: true, which does not send "
            + "the credentials to another host a redirect leads to, as curl does with it"))
    }

    @Test func aPipeIsOneWarning() throws {
        let result = CurlImport.read("curl http://a.example.com/ | jq . > out.json")
        #expect(result.warnings.map(\.message) == ["'| jq .' is not part of the request: ignored", "'> out.json' is not part of the request: ignored"])
    }
}

/// Data options read as curl sends them.
@Suite struct CurlDataTests {
    /// The request of a one-command text.
    static func document(_ command: String) throws -> RequestDocument {
        let result = CurlImport.read(command)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return try #require(result.requests.first?.document)
    }

    /// curl encodes a space as `+` (7.88.1 sends `hello+world%26x`), and so does the text body.
    @Test(arguments: [("'hello world&x'", "hello+world%26x"), ("'=a b&c'", "a+b%26c"), ("'a=1' --data-urlencode 'x y'", "a=1&x+y"),
                      ("'~*._-!é'", "~%2A._-%21%C3%A9")])
    func dataURLEncodeWithoutANameIsTheEncodedContent(data: String, sent: String) throws {
        let document = try Self.document("curl http://127.0.0.1:1/post --data-urlencode " + data)
        guard case .text(let text)? = document.body else { Issue.record("not text: \(document.yaml)"); return }
        #expect(text == sent)
        #expect(CurlImportTests.header("content-type", of: document) == "application/x-www-form-urlencoded")
    }

    /// An empty data piece keeps the `&` curl sends (`-d a=1 -d ''` sends `a=1&`), which `form:` and `query:` would leave
    /// out: the body is text with the form's Content-Type, and with `-G` the query stays in the URL.
    @Test(arguments: [("-d a=1 -d ''", "a=1&"), ("-d '' -d a=1", "&a=1"), ("-d 'a=1&&b=2'", "a=1&&b=2")])
    func anEmptyDataPieceIsSentAsCurlSendsIt(data: String, sent: String) throws {
        let document = try Self.document("curl http://127.0.0.1:1/post " + data)
        guard case .text(let text)? = document.body else { Issue.record("not text: \(document.yaml)"); return }
        #expect(text == sent)
        #expect(CurlImportTests.header("content-type", of: document) == "application/x-www-form-urlencoded")
        let query = try Self.document("curl -G http://127.0.0.1:1/get " + data)
        #expect(query.url == "http://127.0.0.1:1/get?" + sent && query.query.isEmpty && query.body == nil, "\(query.yaml)")
    }

    /// A file's data gets the Content-Type curl sends with it: JSON (and Accept) for --json, a form's for -d and
    /// --data-binary; a Content-Type the command gives wins.
    @Test(arguments: [("--json @b.json", "application/json", "application/json"), ("-d @b.txt", "application/x-www-form-urlencoded", nil),
                      ("--data-binary @b.bin -H 'Content-Type: image/png'", "image/png", nil)])
    func aFileBodyHasTheContentTypeCurlSends(data: String, contentType: String, accept: String?) throws {
        let document = try Self.document("curl http://127.0.0.1:1/post " + data)
        guard case .file? = document.body else { Issue.record("not a file: \(document.yaml)"); return }
        #expect(CurlImportTests.header("content-type", of: document) == contentType)
        #expect(CurlImportTests.header("accept", of: document) == accept)
    }

    /// A file part without `;type=` has the type curl guesses from the file's extension, when curl knows it.
    @Test func aFilePartHasTheTypeCurlGuesses() throws {
        let document = try Self.document("curl http://127.0.0.1:1/post -F 'notes=@notes.txt' -F 'pic=@a.PNG' -F 'blob=@x.bin' -F 'd=@d.txt;type=text/csv'")
        guard case .multipart(let parts)? = document.body else { Issue.record("not multipart: \(document.yaml)"); return }
        #expect(parts.map(\.contentType) == ["text/plain", "image/png", nil, "text/csv"])
    }

    /// A value part's `;type=` cannot be written (a request file types file parts only): the value is kept, the type listed.
    @Test func aValuePartsTypeIsListedAsNotTranslated() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:1/post -F 'meta={"a":1};type=application/json' -F 'n=1'"#)
        let document = try #require(result.requests.first?.document)
        guard case .multipart(let parts)? = document.body else { Issue.record("not multipart: \(document.yaml)"); return }
        #expect(parts.map(\.value) == [#"{"a":1}"#, "1"])
        #expect(result.warnings.map(\.message) == ["';type=application/json' of the value part 'meta' is not translated: a request file gives "
            + "a type to file parts only (curl sends this part with Content-Type: application/json, runner with none)"])
    }

    /// Each attribute of a file part that is not translated is listed with its own reason.
    @Test func aFilePartsOtherAttributesAreListedEachWithItsReason() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:1/post -F 'x=@f.bin;headers="X-Foo: bar";filename=y.bin;type=a/b'"#)
        #expect(result.warnings.map(\.message) == [
            "';headers=X-Foo: bar' in a form part has no equivalent (a request file sets no headers of a part): not translated",
            "';filename=y.bin' in a form part has no equivalent (the part's filename is the file's name): not translated",
        ])
    }

    /// A part's word is read as curl reads it: double quotes (as Postman's "Code > cURL" writes every field) are not part
    /// of it, `\"` and `\\` are escapes in them, and a word curl does not know after a `;` is left out, as curl leaves it.
    @Test func aFormPartIsReadAsCurlReadsIt() throws {
        let command = #"curl http://127.0.0.1:1/up --form 'title="hello world"' -F 'b="q;uo\"ted\\in"' -F 'a=x;y' "#
            + #"-F ' c = spaced ' --form 'file=@"../pm/a b;1.png"' -F 'e="x" trailing' -F 'f="unclosed'"#
        let result = CurlImport.read(command)
        let document = try #require(result.requests.first?.document)
        guard case .multipart(let parts)? = document.body else { Issue.record("not multipart: \(document.yaml)"); return }
        #expect(parts.map(\.value) == ["hello world", #"q;uo"ted\in"#, "x", "spaced", nil, "x", #""unclosed"#])
        #expect(parts.map(\.name) == ["title", "b", "a", " c ", "file", "e", "f"])
        #expect(parts[4].file == "../pm/a b;1.png" && parts[4].contentType == "image/png")
        #expect(result.warnings.map(\.message) == [
            "';y' in a form part has no equivalent (curl itself skips an attribute it does not know): not translated",
            "text after the closing quote of 'e' is left out, as curl leaves it out",
        ])
    }

    /// A form's Content-Type with parameters (a browser's `; charset=UTF-8`) is kept beside `form:`, which sends it as
    /// written; the bare type is dropped, as `form:` sends it anyway.
    @Test(arguments: [("application/x-www-form-urlencoded; charset=UTF-8", "application/x-www-form-urlencoded; charset=UTF-8"),
                      ("application/x-www-form-urlencoded", nil)])
    func aFormsContentTypeWithParametersIsKept(written: String, kept: String?) throws {
        let document = try Self.document("curl http://127.0.0.1:1/post -H 'Content-Type: \(written)' --data-raw 'a=1&b=2'")
        guard case .form(let fields)? = document.body else { Issue.record("not a form: \(document.yaml)"); return }
        #expect(fields.map(\.name) == ["a", "b"] && CurlImportTests.header("content-type", of: document) == kept, "\(document.yaml)")
    }

    /// After `type=`, a word curl does not know is a parameter of the type, as curl sends it; several files of one part
    /// (`@a,b`) are listed, the first kept.
    @Test func typeParametersAndSeveralFilesOfAPartAreReadAsCurlReadsThem() throws {
        let result = CurlImport.read(#"curl http://127.0.0.1:1/up -F 'a=@q.txt;type=text/plain; charset=utf-8;filename=x' "#
            + #"-F 'b=@"q.txt","x.txt"' -F 'c=@q.txt,x.txt;type=a/b'"#)
        let document = try #require(result.requests.first?.document)
        guard case .multipart(let parts)? = document.body else { Issue.record("not multipart: \(document.yaml)"); return }
        #expect(parts.map(\.contentType) == ["text/plain; charset=utf-8", "text/plain", "text/plain"])
        #expect(parts.map(\.file) == ["q.txt", "q.txt", "q.txt"])
        let messages = result.warnings.map(\.message)
        #expect(messages.contains("';filename=x' in a form part has no equivalent (the part's filename is the file's name): not translated"))
        #expect(messages.filter { $0.contains("names several files for the part") }.count == 2, "\(messages)")
        #expect(!messages.contains { $0.contains("charset") || $0.contains("left out, as curl leaves it out") }, "\(messages)")
    }

    /// Beside a Cookie header written with -H, curl sends that header alone: the -b cookies are left out, listed.
    @Test func cookiesBesideACookieHeaderAreLeftOutAsCurlLeavesThem() throws {
        let result = CurlImport.read("curl -b 'session=abc123' -H 'Cookie: extra=1' http://127.0.0.1:1/cookies")
        let document = try #require(result.requests.first?.document)
        #expect(CurlImportTests.header("cookie", of: document) == "extra=1")
        #expect(result.warnings.contains { $0.message.hasPrefix("'-b' cookies are not sent beside a Cookie header") })
    }

    @Test func dataURLEncodeSendsItsNameAsWritten() throws {
        let document = try Self.document("curl http://127.0.0.1:1/post --data-urlencode 'a%20b=c d'")
        guard case .form(let fields)? = document.body else { Issue.record("not a form: \(document.yaml)"); return }
        #expect(fields.map(\.name) == ["a b"] && fields[0].values == ["c d"])
    }

    @Test(arguments: [#"{"a": 1e400, "c": 0.1}"#, #"{"b": 12345678901234567890}"#, #"[0.10000000000000000001]"#, #"{"d": -1e-400}"#])
    func aJSONNumberTheValueModelWouldChangeKeepsTheBodyAsWritten(json: String) throws {
        let result = CurlImport.read("curl http://127.0.0.1:1/post -H 'Content-Type: application/json' -d '\(json)'")
        let document = try #require(result.requests.first?.document)
        guard case .text(let text)? = document.body else { Issue.record("not text: \(document.yaml)"); return }
        #expect(text == json && CurlImportTests.header("content-type", of: document) == "application/json")
        let warning = try #require(result.warnings.first { $0.message.contains("would change in a json: body") })
        #expect((warning.mark.line, warning.mark.column) == (1, 69))
    }

    @Test func jsonNumbersThatStayTheSameNumberKeepTheirTypes() throws {
        let document = try Self.document(#"curl http://127.0.0.1:1/post -d '{"a": 1.50, "b": 9223372036854775807, "c": 1E2, "d": -0, "e": 1e-7}'"#)
        guard case .json(let value)? = document.body else { Issue.record("not json: \(document.yaml)"); return }
        #expect(value == (try JSONValue.parse(#"{"a": 1.5, "b": 9223372036854775807, "c": 100.0, "d": 0, "e": 1e-7}"#)))
    }

    @Test func aQueryItemWithoutAnEqualsSignStaysInTheURLAsCurlSendsIt() throws {
        let document = try Self.document("curl 'http://127.0.0.1:1/anything?flag&a=1'")
        #expect(document.url == "http://127.0.0.1:1/anything?flag&a=1" && document.query.isEmpty)
    }

    @Test func getPutsDataThatIsNotFieldsIntoTheURLAsWrittenAndWarnsAboutTheContentType() throws {
        let result = CurlImport.read(#"curl -G -H 'Content-Type: application/json' -d '{"a":1}' http://127.0.0.1:1/anything"#)
        let document = try #require(result.requests.first?.document)
        #expect(document.url == "http://127.0.0.1:1/anything?%7B%22a%22:1%7D" && document.query.isEmpty && document.body == nil)
        #expect(document.suggestedFileName == "get-anything.yaml")
        #expect(CurlImportTests.header("content-type", of: document) == "application/json")
        let warning = try #require(result.warnings.first { $0.message.contains("Content-Type") })
        #expect(warning.mark.column == 12)
    }

    /// `-G` puts `--json`'s data into the query, and curl still sends the JSON Content-Type and Accept headers.
    @Test func getKeepsTheHeadersJSONSends() throws {
        let document = try Self.document("curl -G --json x=1 http://127.0.0.1:1/a")
        #expect(document.query.map(\.name) == ["x"] && document.body == nil)
        #expect(CurlImportTests.header("content-type", of: document) == "application/json")
        #expect(CurlImportTests.header("accept", of: document) == "application/json")
        // Headers given are kept as given.
        let given = try Self.document("curl -G -H 'Accept: text/plain' --json x=1 http://127.0.0.1:1/a")
        #expect(CurlImportTests.header("accept", of: given) == "text/plain")
        #expect(CurlImportTests.header("content-type", of: try Self.document("curl -G -d x=1 http://127.0.0.1:1/a")) == nil)
    }

    @Test func getAddsFieldsToTheURLsQueryBeforeItsFragment() throws {
        let fields = try Self.document("curl -G 'http://127.0.0.1:1/s?x=1#top' -d 'q=a+b' --data-urlencode 'v=c&d'")
        #expect(fields.url == "http://127.0.0.1:1/s" && fields.query.map(\.name) == ["x", "q", "v"])
        #expect(fields.query.map(\.values) == [["1"], ["a b"], ["c&d"]])
        let flag = try Self.document("curl -G 'http://127.0.0.1:1/s#top' --data-urlencode 'a b'")
        #expect(flag.url == "http://127.0.0.1:1/s?a+b" && flag.query.isEmpty)
    }

    @Test func credentialsAreHiddenInTheLinesDiagnosticsQuote() throws {
        let command = "curl 'http://user:urlPass99@127.0.0.1:1/x' -H 'Authorization: Bearer s3cr3tT0kenXYZ' -H 'X-Api-Key: k3yV4lue77' "
            + "-H 'Cookie: sid=c00kieV4l' -u admin:hunter2hunter -d 'user=a&password=p%40ssw0rdZ'"
        let result = CurlImport.read(command)
        let redacted = result.redacted(command)
        for secret in ["urlPass99", "s3cr3tT0kenXYZ", "k3yV4lue77", "c00kieV4l", "hunter2hunter", "p%40ssw0rdZ"] {
            #expect(!redacted.contains(secret), "\(redacted)")
        }
        #expect(redacted.contains("Authorization: Bearer ***") && redacted.contains("-u admin:***") && redacted.contains("password=***"))
        #expect(result.warnings.allSatisfy { !$0.message.contains("s3cr3t") })
        // A cookie's value of a few characters is no credential: hidden, it would hide those characters elsewhere.
        let short = "curl 'http://127.0.0.1:1/x?a=1&y=1' -b 'a=1; sid=c00kieV4l' -H 'Cookie: lang=en'"
        #expect(CurlImport.read(short).redacted(short) == "curl 'http://127.0.0.1:1/x?a=1&y=1' -b '***' -H 'Cookie: ***'")
        let basic = "curl http://127.0.0.1:1/ -H 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l'"
        #expect(CurlImport.read(basic).redacted(basic) == "curl http://127.0.0.1:1/ -H 'Authorization: Basic ***'")
        // Proxy and certificate passwords, and secret -F fields, in the messages as in the quoted lines.
        let proxy = "curl http://127.0.0.1:1/x -U pu:pr0xyS3cret -x http://u2:pr0xyPass2@127.0.0.1:3128 --pass k3yPass -E c.pem:certPass9 "
            + "-F api_key=k3yV4lue99"
        let proxied = CurlImport.read(proxy)
        #expect(proxied.redacted(proxy)
                == "curl http://127.0.0.1:1/x -U pu:*** -x http://u2:***@127.0.0.1:3128 --pass *** -E c.pem:*** -F api_key=***")
        for secret in ["pr0xyS3cret", "pr0xyPass2", "k3yPass", "certPass9", "k3yV4lue99"] {
            #expect(proxied.warnings.allSatisfy { !$0.message.contains(secret) }, "\(proxied.warnings.map(\.message))")
        }
        #expect(proxied.warnings.contains { $0.message == "the proxy's password is written as it was" })
        #expect(proxied.warnings.contains { $0.message == "the form field 'api_key' is written as it was" })
        // `--pass=secret` is an unknown option (curl takes the value as the next word): its value is hidden there too.
        for (command, shown) in [("curl http://127.0.0.1:1/ --pass=k3ySecret99", "--pass=***"),
                                 ("curl http://127.0.0.1:1/ --oauth2-bearer=t0kenABC123", "--oauth2-bearer=***")] {
            let result = CurlImport.read(command)
            let error = try #require(result.errors.first)
            #expect(error.message.contains("unknown curl option '\(shown)'") && error.suggestion?.contains("***") == true, "\(error)")
            #expect(!result.redacted(command).contains("k3ySecret99") && !result.redacted(command).contains("t0kenABC123"))
        }
    }

    @Test func aCommandStoppedByAnUnknownOptionStillHidesTheCredentialsAfterIt() {
        let command = "curl http://127.0.0.1:1/x --frobnicate PEM -u admin:hunt3rTwo -H 'Authorization: Bearer t0kenAfter1' "
            + "--oauth2-bearer=b3arerEq -b 'sid=c00kieAft3r' -x http://p:pr0xyAft3r@127.0.0.1:3128 'http://u:urlAft3r@127.0.0.1:1/?api_key=k3yAft3r'"
        let result = CurlImport.read(command)
        #expect(result.errors.first?.message == "unknown curl option '--frobnicate'")
        let redacted = result.redacted(command)
        for secret in ["hunt3rTwo", "t0kenAfter1", "b3arerEq", "c00kieAft3r", "pr0xyAft3r", "urlAft3r", "k3yAft3r"] {
            #expect(!redacted.contains(secret), "\(redacted)")
        }
        #expect(redacted.contains("--frobnicate PEM -u admin:*** -H 'Authorization: Bearer ***'"))
    }

    @Test func aBearerTokenBesideBasicCredentialsIsTheAuthAndTheCredentialsAreListed() throws {
        let command = "curl http://127.0.0.1:1/x -u admin:hunt3rTwo --oauth2-bearer t0kenB3side"
        let result = CurlImport.read(command)
        let yaml = try #require(result.requests.first?.document.yaml)
        #expect(yaml.contains("auth:\n  bearer: t0kenB3side") && !yaml.contains("hunt3rTwo"), "\(yaml)")
        let dropped = try #require(result.warnings.first { $0.message.hasPrefix("'-u' is not translated") })
        #expect(dropped.message.contains("--oauth2-bearer") && !dropped.message.contains("hunt3rTwo"))
        #expect(result.redacted(command) == "curl http://127.0.0.1:1/x -u admin:*** --oauth2-bearer ***")
    }

    /// A credential the shell's quoting writes otherwise than its value (`$'…'` escapes, `\"`, quotes glued together,
    /// a line continuation inside it) is hidden with the word as written.
    @Test(arguments: [
        (#"curl -u $'bob:p\x40ssWord99' -H $'Authorization: Bearer \x41BCtok12345' http://127.0.0.1:1/ --bogus"#, ["ssWord99", "BCtok12345"]),
        (#"curl -u "bob:pa\"ss\$Word99" -H "X-Api-Key: k\"ey\\12345" http://127.0.0.1:1/ --bogus"#, ["Word99", "ey\\12345"]),
        (#"curl -u 'bob:it'"'"'sAsecret' http://127.0.0.1:1/ --bogus"#, ["sAsecret"]),
        ("curl -ubob:sq'uo'ted99 http://127.0.0.1:1/ --bogus", ["ted99"]),
        ("curl -u bob:Hunter\\\n2pwXYZ -H \"Authorization: Bearer tokA\\\nBCDEF123\" http://127.0.0.1:1/", ["Hunter", "2pwXYZ", "tokA", "BCDEF123"]),
        ("curl --usr bob:Hunt3rTypo http://127.0.0.1:1/", ["Hunt3rTypo"]),
        (#"curl http://127.0.0.1:1/ --data-raw '{"user":"a","password":"JsonPw12345"}' --bogus"#, ["JsonPw12345"]),
        ("curl -u 'bob:first\nS3cretLine2' -d 'a=1&password=F0rmPw\n&x=1' http://127.0.0.1:1/", ["first", "S3cretLine2", "F0rmPw"]),
        ("curl --usr=bob:Hunt3rEq http://127.0.0.1:1/", ["Hunt3rEq"]),
        (#"curl --data-raww='{"password":"Typ0Json9"}' http://127.0.0.1:1/"#, ["Typ0Json9"]),
        ("curl --proxy-header 'Proxy-Authorization: Basic cHJveHlQYXNz' --proxy-pass Pr0xyKeyPw --tlspassword Tl5Pw9 http://127.0.0.1:1/",
         ["cHJveHlQYXNz", "Pr0xyKeyPw", "Tl5Pw9"]),
        (#"curl http://127.0.0.1:1/ --data-raw '{"password":"T3mplPw","qty": {{qty}}}'"#, ["T3mplPw"]),
        ("curl --preproxy http://u:Pr3Pw99@127.0.0.1:1 --socks5 u:S0cksPw9@127.0.0.1:2 --url-query token=Qu3ryTok http://127.0.0.1:1/",
         ["Pr3Pw99", "S0cksPw9", "Qu3ryTok"]),
        ("curl http://127.0.0.1:1/ --token T0kenUnkn0wn --api-key=K3yUnkn0wn --auth u:Auth9Pw", ["T0kenUnkn0wn", "K3yUnkn0wn", "Auth9Pw"]),
        // A header's colon left out, and a quote never closed after credentials.
        ("curl http://127.0.0.1:1/x -H 'Authorization Bearer Hunter2SecretTok'", ["Hunter2SecretTok"]),
        ("curl http://127.0.0.1:1/x -u bob:Hunter2SecretPw -d 'password=Hunter2SecretD", ["Hunter2SecretPw", "Hunter2SecretD"]),
    ])
    func aCredentialWrittenOtherwiseThanItsValueIsHidden(command: String, secrets: [String]) {
        let result = CurlImport.read(command)
        for line in command.split(separator: "\n").map(String.init) {
            let redacted = result.redacted(line)
            for secret in secrets { #expect(!redacted.contains(secret), "\(secret) in \(redacted)") }
        }
        // Messages and hints quote values too: printed, they go through the same redaction.
        for problem in result.errors + result.warnings {
            let shown = result.redacted(problem.message + " " + (problem.suggestion ?? ""))
            for secret in secrets { #expect(!shown.contains(secret), "\(secret) in \(shown)") }
        }
    }

    @Test func anOptionGivenWithEqualsShowsNoCredentialInItsMessageOrHint() throws {
        for (command, secret) in [("curl --user=bob:Hunter2pw http://127.0.0.1:1/", "Hunter2pw"),
                                  ("curl '--header=Authorization: Bearer T0kenEq99' http://127.0.0.1:1/", "T0kenEq99"),
                                  ("curl --cookie=sess=C00kieEq9 http://127.0.0.1:1/", "C00kieEq9"),
                                  ("curl --proxy=http://u:Pr0xyEq9@127.0.0.1:3128 http://127.0.0.1:1/", "Pr0xyEq9")] {
            let error = try #require(CurlImport.read(command).errors.first)
            #expect(!error.message.contains(secret) && !(error.suggestion ?? "").contains(secret), "\(error)")
            #expect(error.message.hasPrefix("unknown curl option '--") && error.message.contains("***"), "\(error)")
        }
    }

    /// The value of an option curl does not have, named like a credential or a letter or two from such a name, is hidden
    /// in every way it is written in the word (after `=`, `:`, white space, glued to the name) or as the next word, in the
    /// message as in the quoted line; the URL after it is not taken for the value.
    @Test(arguments: [
        ("curl --api-key:SECRETVALUE123 http://127.0.0.1:19702/a", "--api-key:***"),
        ("curl --token:SECRETVALUE123 http://127.0.0.1:19702/a", "--token:***"),
        ("curl --password:SECRETVALUE123 http://127.0.0.1:19702/a", "--password:***"),
        ("curl '--api-key SECRETVALUE123' http://127.0.0.1:19702/a", "--api-key ***"),
        ("curl $'--api-key\\tSECRETVALUE123' http://127.0.0.1:19702/a", "--api-key\t***"),
        ("curl --api-keySECRETVALUE123 http://127.0.0.1:19702/a", "--api-key***"),
        ("curl --api-kee=SECRETVALUE123 http://127.0.0.1:19702/a", "--api-kee=***"),
        ("curl --pasword:SECRETVALUE123 http://127.0.0.1:19702/a", "--pasword:***"),
        ("curl --user:bob:SECRETVALUE123 http://127.0.0.1:19702/a", "--user:bob:***"),
        ("curl --api-key= SECRETVALUE123 http://127.0.0.1:19702/a", "--api-key="),
        ("curl --tokne SECRETVALUE123 http://127.0.0.1:19702/a", "--tokne"),
        ("curl --token-file SECRETVALUE123 http://127.0.0.1:19702/a", "--token-file"),
    ])
    func anUnknownOptionNamedLikeACredentialHidesItsValueHoweverWritten(command: String, shown: String) throws {
        let result = CurlImport.read(command)
        let error = try #require(result.errors.first)
        #expect(error.message == "unknown curl option '\(shown)'", "\(error)")
        let quoted = result.redacted(command)
        #expect(!quoted.contains("SECRETVALUE123") && quoted.hasSuffix(" http://127.0.0.1:19702/a"), "\(quoted)")
        #expect(!result.redacted(error.message + " " + (error.suggestion ?? "")).contains("SECRETVALUE123"), "\(error)")
    }

    /// The value of an unknown option named like nothing secret stays shown, and a URL is never taken for a value.
    @Test func anUnknownOptionNotNamedLikeACredentialShowsItsValue() throws {
        for (command, shown) in [("curl --frob=1 http://127.0.0.1:1/", "--frob=1"), ("curl --retries:3 http://127.0.0.1:1/", "--retries:3"),
                                 ("curl --token-path http://127.0.0.1:1/", "--token-path")] {
            let result = CurlImport.read(command)
            #expect(result.errors.first?.message == "unknown curl option '\(shown)'")
            #expect(result.redacted(command) == command)
        }
    }

    /// curl follows redirects only with -L (or --location-trusted), and not after a later --no-location: the request file
    /// says so, since runner follows them by default.
    @Test(arguments: [("curl http://127.0.0.1:1/r", false), ("curl -L http://127.0.0.1:1/r", true),
                      ("curl -L --no-location http://127.0.0.1:1/r", false), ("curl --no-location -L http://127.0.0.1:1/r", true),
                      ("curl --location-trusted --no-location-trusted http://127.0.0.1:1/r", false)])
    func followRedirectsIsWrittenAsCurlFollowsThem(command: String, follows: Bool) throws {
        let document = try Self.document(command)
        #expect(document.yaml.contains("options:\n  followRedirects: \(follows)\n"), "\(document.yaml)")
    }

    /// Characters curl sends in a URL as written that runner percent-encodes (`[]{}|^` and the like, and letters that are
    /// not ASCII) are listed, at the URL; an IPv6 address and templates are not among them.
    @Test func charactersRunnerPercentEncodesInAURLAreListed() throws {
        let result = CurlImport.read("curl -g 'http://127.0.0.1:1/?f[name]=x&b=a]b{c}|é'")
        #expect(result.warnings.map(\.message) == ["'[', ']', '{', '}', '|', 'é' in the URL: runner sends them percent-encoded "
            + "(%5B, %5D, %7B, %7D, %7C, %C3%A9), as it sends only valid URLs; curl sends them as written"])
        #expect(result.warnings.first?.mark.column == 9)
        let plain = CurlImport.read("curl 'http://[::1]:1/{{ base }}/x?a=(1);b=!*' -G -d 'c=@:$'")
        #expect(plain.warnings.allSatisfy { !$0.message.contains("percent-encoded") }, "\(plain.warnings)")
    }

    @Test func aProxyRunnerCannotSendThroughIsListedAndNotWritten() throws {
        let result = CurlImport.read("curl --proxy socks5://pu:ProxPw321@127.0.0.1:1080 http://127.0.0.1:1/get")
        let yaml = try #require(result.requests.first?.document.yaml)
        #expect(!yaml.contains("proxy") && !yaml.contains("ProxPw321"), "\(yaml)")
        let warning = try #require(result.warnings.first { $0.message.hasPrefix("the proxy is not translated") })
        #expect(warning.message.contains("socks5") && !warning.message.contains("ProxPw321"), "\(warning.message)")
    }

    @Test func aCredentialFieldIsPlacedAtTheDataOptionThatGivesIt() throws {
        let result = CurlImport.read("curl http://127.0.0.1:1/t \\\n  -d user=a \\\n  --data-urlencode 'access_token=t0k en'")
        let warning = try #require(result.warnings.first { $0.message.contains("'access_token'") })
        #expect(warning.mark.line == 3, "\(warning)")
    }
}
