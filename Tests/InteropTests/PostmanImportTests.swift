import CollectionFormat
import Foundation
import HTTPCore
@testable import Interop
import Testing

/// `runner import postman`: collections v2.0 and v2.1 written for these tests, read into request and environment files.
@Suite struct PostmanImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/postman")

    /// A fixture file as the import reads it.
    static func fixture(_ name: String) -> PostmanSource {
        let url = fixtures.appendingPathComponent(name)
        return PostmanSource(path: name, bytes: Array((try? Data(contentsOf: url)) ?? Data()))
    }

    /// Imports fixtures; only `note.txt` exists among the files requests name.
    static func read(_ collection: String, environments: [String] = []) -> PostmanImport.Result {
        read(fixture(collection), environments: environments.map(fixture))
    }

    static func read(_ collection: PostmanSource, environments: [PostmanSource] = []) -> PostmanImport.Result {
        PostmanImport.read(collection: collection, environments: environments) { source, _ in (source, source == "note.txt") }
    }

    /// Imports a collection written inline.
    static func read(json: String) -> PostmanImport.Result {
        read(PostmanSource(path: "inline.json", bytes: Array(json.utf8)))
    }

    static let shop = read("shop-v21.postman_collection.json", environments: ["shop.postman_environment.json"])
    static let legacy = read("legacy-v20.postman_collection.json")
    static let loopback = read("loopback.postman_collection.json", environments: ["loopback.postman_environment.json"])

    /// The text of the written file at `path`.
    static func file(_ path: String, of result: PostmanImport.Result) throws -> String {
        try #require(result.files.first { $0.path == path }?.text, "no \(path) among \(result.files.map(\.path))")
    }

    /// The warnings' messages.
    static func warnings(of result: PostmanImport.Result) -> [String] {
        result.warnings.map(\.problem.message)
    }

    @Test(arguments: ["shop", "legacy", "loopback"])
    func everyWrittenFileDecodesWithoutProblems(_ fixture: String) {
        let result = ["shop": Self.shop, "legacy": Self.legacy, "loopback": Self.loopback][fixture] ?? Self.shop
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(!result.files.isEmpty)
        for file in result.files {
            let bytes = Array(file.text.utf8)
            let errors: [Diagnostic]
            if file.path.hasPrefix("environments/") {
                let name = String(file.path.dropFirst("environments/".count).dropLast(".yaml".count))
                errors = FileDecoding.environment(bytes, path: file.path, name: name).diagnostics.filter { $0.severity == .error }
            } else {
                errors = FileDecoding.requestFile(bytes, path: file.path, absolutePath: "/tmp/" + file.path, defaultName: "imported")
                    .diagnostics.filter { $0.severity == .error }
            }
            #expect(errors.isEmpty, "\(file.path):\n\(file.text)\n\(errors)")
        }
    }

    /// A file that is not JSON is told where, and the quoted line hides what may be a credential there: a `"value"`
    /// member's text and one named as a credential, also with its quote not closed.
    @Test func aLineQuotedForAJSONErrorHidesItsCredentials() {
        let line = #"{ "key": "token", "value": "Hunter2Secret" "type": "string", "api_key": "k3y-Hunter2", "note": "x\"y", "password": "unclosed"#
        #expect(PostmanSource.credentialTexts(onLine: 2, of: Array("{\n\(line)\n}".utf8)) == ["Hunter2Secret", "k3y-Hunter2", "unclosed"])
        #expect(PostmanSource.credentialTexts(onLine: 9, of: Array("{}".utf8)).isEmpty)
    }

    @Test func foldersBecomeNumberedDirectoriesInTheCollectionsOrder() {
        #expect(Self.shop.files.map(\.path) == [
            "environments/postman.yaml", "environments/shop-qa.yaml",
            "requests/01-catalog/01-list-products.yaml", "requests/01-catalog/02-product-by-id.yaml",
            "requests/01-catalog/03-product-variant-blue.yaml",
            "requests/02-orders/01-create-order.yaml", "requests/02-orders/02-create-order-with-a-bare-number.yaml",
            "requests/02-orders/03-order-as-xml.yaml", "requests/02-orders/04-upload-invoice.yaml",
            "requests/02-orders/05-search-with-key.yaml", "requests/02-orders/06-query-orders-over-graphql.yaml",
        ])
        #expect(Self.warnings(of: Self.shop).contains { $0.hasPrefix("the folder 'An empty folder' has no request") })
        #expect(Self.legacy.files.map(\.path).sorted() == Self.legacy.files.map(\.path))
        // A name's accented letters keep their letter (trial helper-154: `Données` gave `donn-es`).
        let accented = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "Données ünïcode 🚀", "item": [{"name": "Crème brûlée", "#
            + #""request": {"method": "GET", "url": "https://a.example.com"}}]}]}"#)
        #expect(accented.files.map(\.path).contains("requests/01-donnees-unicode/01-creme-brulee.yaml"), "\(accented.files.map(\.path))")
        // Letters of other scripts stay (trial helper-156: `日本語` gave `request`); a name of emoji alone gives `request`.
        let scripts = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "日本語", "request": "https://a.example.com"}, "#
            + #"{"name": "Créer 用户 🚀", "request": "https://a.example.com"}, {"name": "🚀🚀", "request": "https://a.example.com"}]}"#)
        #expect(scripts.files.map(\.path).filter { $0.hasPrefix("requests/") }
                == ["requests/01-日本語.yaml", "requests/02-creer-用户.yaml", "requests/03-request.yaml"], "\(scripts.files.map(\.path))")
    }

    @Test func urlsAreRelativeToTheSharedBaseURLWithPathVariablesAndTheQuery() throws {
        let list = try Self.file("requests/01-catalog/01-list-products.yaml", of: Self.shop)
        #expect(list.contains("  url: /products\n"))
        #expect(list.contains("  query:\n    size: \"{{ pageSize }}\"\n    q: red shoes\n    at: \"{{ $timestamp }}\"\n"))
        #expect(list.contains("X-Api-Version: \"{{ api_version }}\""))
        let environment = try Self.file("environments/postman.yaml", of: Self.shop)
        #expect(environment.hasPrefix("baseURL: \"{{ baseUrl }}\"\nvariables:\n  baseUrl: https://shop.example.com/api\n  api_version: \"2\"\n  pageSize: \"20\"\n"))
        // A path variable's value is a variable; a template value, or a value another request contradicts, is written in place.
        #expect(environment.contains("  variant: red\n") && !environment.contains("productId"))
        #expect(try Self.file("requests/01-catalog/02-product-by-id.yaml", of: Self.shop)
            .contains("url: \"/products/{{ firstId }}/variants/{{ variant }}\""))
        #expect(try Self.file("requests/01-catalog/03-product-variant-blue.yaml", of: Self.shop)
            .contains("url: \"/products/{{ firstId }}/variants/blue\""))
        #expect(Self.warnings(of: Self.shop).contains { $0.contains(":variant is 'blue' here and has another value elsewhere") })
        #expect(Self.warnings(of: Self.shop).contains { $0.hasPrefix("the variable 'api.version' is written as 'api_version'") })
    }

    @Test func theNearestAuthWinsAndWhatRunnerCannotSendIsListed() throws {
        let list = try Self.file("requests/01-catalog/01-list-products.yaml", of: Self.shop)
        #expect(list.contains("""
            auth:
              oauth2:
                tokenURL: "{{ baseUrl }}/oauth/token"
                clientID: "{{ clientId }}"
                clientSecret: "{{ clientSecret }}"
                scope: catalog:read
            """))
        #expect(try Self.file("requests/02-orders/01-create-order.yaml", of: Self.shop).contains("auth:\n  bearer: \"{{ accessToken }}\""))
        #expect(try Self.file("requests/02-orders/04-upload-invoice.yaml", of: Self.shop).contains("\nauth: none\n"))
        let xml = try Self.file("requests/02-orders/03-order-as-xml.yaml", of: Self.shop)
        #expect(!xml.contains("auth:"))
        // A request's own auth is listed naming the request (trial helper-193 F10).
        let digest = try #require(Self.shop.warnings.first { $0.problem.message.hasSuffix("digest auth is not translated: runner sends basic, bearer and OAuth 2.0 client credentials (at /item/1/item/2/request/auth)") })
        #expect(digest.problem.message.hasPrefix("'"), "\(digest.problem.message)")
        #expect(digest.problem.message.hasSuffix("(at /item/1/item/2/request/auth)") && digest.problem.mark.line == 119)
        let search = try Self.file("requests/02-orders/05-search-with-key.yaml", of: Self.shop)
        #expect(search.contains("  query:\n    q: shoes\n    api_key: literal-key-123\n"))
        #expect(search.contains("options:\n  followRedirects: false\n  insecure: true\n"))
        #expect(Self.warnings(of: Self.shop).contains { $0.contains("': the apiKey is written into the request files as it was") })
        // Its quoted line hides the key.
        let literal = try #require(Self.shop.warnings.first { $0.problem.message.contains("the apiKey is written") })
        #expect(InteropProblem.redacted(#"{"key": "value", "value": "literal-key-123"}"#, hiding: [literal.problem])
                == #"{"key": "value", "value": "***"}"#)
        // A credential too short to hide inside other text is hidden where it is a whole value only.
        #expect(InteropProblem.redacted(#"export (at /exec/6): "value":"x", curl -b 'a=1; b=2' http://127.0.0.1:18800/x"#, hiding: [],
                                        also: ["x", "1"])
                == #"export (at /exec/6): "value":"***", curl -b 'a=***; b=2' http://127.0.0.1:18800/x"#)
        #expect(Self.warnings(of: Self.shop).contains { $0.hasPrefix("the setting 'disableBodyPruning' is not translated") })
        let login = try Self.file("requests/01-session/01-log-in.yaml", of: Self.loopback)
        #expect(login.contains("\nauth: none\n"))
        let form = try Self.file("requests/02-users/03-form-with-basic-auth.yaml", of: Self.loopback)
        #expect(form.contains("auth:\n  basic:\n    username: ci\n    password: \"{{ password }}\"\n"))
        #expect(try Self.file("requests/03-bodies/04-api-key.yaml", of: Self.loopback).contains("headers:\n    X-API-Key: \"{{ apiKey }}\"\n"))
    }

    @Test func dynamicVariablesBecomeBuiltInsAndUnknownOnesAListedVariable() throws {
        let order = try Self.file("requests/02-orders/01-create-order.yaml", of: Self.shop)
        for line in ["id: \"{{ $uuid }}\"", "ref: \"{{ $uuid }}\"", "at: \"{{ $isoTimestamp }}\"", "count: \"{{ $randomInt(0, 1000) }}\"",
                     "email: \"{{ $randomEmail }}\"", "name: \"{{ $randomName }}\"", "code: \"{{ $randomString(1) }}\"",
                     "colour: \"{{ postman_randomColor }}\"", "qty: 2", "gift: false", "note: null"] {
            #expect(order.contains(line), "\(line)")
        }
        #expect(try Self.file("environments/postman.yaml", of: Self.shop).contains("  postman_randomColor: \"\"\n"))
        let unknown = try #require(Self.shop.warnings.first { $0.problem.message.contains("{{$randomColor}}") })
        #expect(unknown.problem.message.hasSuffix("(at /item/1/item/0/request/body/raw)"))
        #expect(unknown.file == "shop-v21.postman_collection.json")
    }

    @Test func bodiesOfEveryKind() throws {
        let bare = try Self.file("requests/02-orders/02-create-order-with-a-bare-number.yaml", of: Self.shop)
        #expect(bare.contains("    Content-Type: application/json\n  text: \"{\\\"qty\\\": {{ quantity }}}\"\n"))
        let xml = try Self.file("requests/02-orders/03-order-as-xml.yaml", of: Self.shop)
        #expect(xml.contains("    Content-Type: application/xml\n  text: \"<order><sku>A-1</sku></order>\"\n"))
        #expect(try Self.file("requests/02-orders/04-upload-invoice.yaml", of: Self.shop).contains("  file: invoices/missing.pdf\n"))
        #expect(Self.warnings(of: Self.shop).contains { $0.contains("the file 'invoices/missing.pdf' does not exist") })
        let graphql = try Self.file("requests/02-orders/06-query-orders-over-graphql.yaml", of: Self.shop)
        #expect(graphql.contains("    variables:\n      first: 10\n      owner: \"{{ owner }}\"\n"))
        let login = try Self.file("requests/01-session/01-log-in.yaml", of: Self.loopback)
        #expect(login.contains("  json:\n    user: \"{{ user }}\"\n    token: t0k3n-from-login\n") && !login.contains("Content-Type"))
        let form = try Self.file("requests/02-users/03-form-with-basic-auth.yaml", of: Self.loopback)
        #expect(form.contains("  form:\n    user: \"{{ user }}\"\n    note: a&b=c\n"))
        #expect(Self.warnings(of: Self.loopback).contains { $0.hasPrefix("'Form with Basic auth': the form field 'old' is disabled") })
        let upload = try Self.file("requests/03-bodies/01-upload.yaml", of: Self.loopback)
        #expect(upload.contains("    - name: note\n      value: hi\n    - name: doc\n      file: note.txt\n      contentType: text/plain\n"))
        #expect(try Self.file("requests/03-bodies/02-plain-text.yaml", of: Self.loopback).contains("  text: hello there\n"))
    }

    @Test func testScriptsBecomeExpectationsAndCaptures() throws {
        let list = try Self.file("requests/01-catalog/01-list-products.yaml", of: Self.shop)
        #expect(list.contains("""
            expect:
              status:
                - 200
                - 206
              headers:
                X-Total:
                  exists: true
                Content-Type:
                  contains: json
              body:
                "$.items[0]['display name']":
                  type: string
                "$.page":
                  equals:
                    size: 20
                "$.total":
                  greaterThan: 0
                "$.owner": "{{ owner }}"
              duration:
                lessThan: 500ms
            capture:
              firstId: "$.items[0].id"
              total:
                header: X-Total
            """), "\(list)")
        // The collection's test script applies to every request.
        #expect(try Self.file("requests/02-orders/03-order-as-xml.yaml", of: Self.shop).contains("expect:\n  duration:\n    lessThan: 500ms\n"))
        let login = try Self.file("requests/01-session/01-log-in.yaml", of: Self.loopback)
        #expect(login.contains("expect:\n  status: 200\n  body:\n    \"$.method\": POST\ncapture:\n  token: \"$.json.token\"\n"))
        let create = try Self.file("requests/02-users/02-create-user.yaml", of: Self.loopback)
        #expect(create.contains("  status: 200\n  body:\n    \"$.json.quota\": 10\n    \"$.json.tags\":\n      length: 2\n"))
        #expect(try Self.file("requests/03-bodies/05-created-status.yaml", of: Self.loopback).contains("expect:\n  status: 201\n"))
    }

    @Test func scriptLinesNotTranslatedAreListedWithTheirRequestAndLine() throws {
        let messages = Self.warnings(of: Self.shop)
        #expect(messages.contains("'List products': test script line 9 is not translated: pm.expect(pm.response.json().items).to.not.be.empty "
            + "(at /item/0/item/0/event/0/script/exec/8)"))
        #expect(messages.contains { $0.hasPrefix("'List products': test script line 13 is not translated: _.each(") })
        #expect(messages.contains { $0.hasPrefix("'Search with key': prerequest script line 2 is not translated: const sig") })
        #expect(!messages.contains { $0.contains("// build the signature") })
        let console = try #require(Self.loopback.warnings.first { $0.problem.message.contains("console.log") })
        #expect(console.problem.mark.line == 37 && console.problem.mark.column == 19)
    }

    @Test func environmentsExtendTheCollectionsAndReadSecretsFromTheProcessEnvironment() throws {
        let qa = try Self.file("environments/shop-qa.yaml", of: Self.shop)
        #expect(qa.hasPrefix("extends: postman\nbaseURL: \"{{ baseUrl }}\"\nvariables:\n  baseUrl: https://qa.shop.example.com/api\n"))
        #expect(qa.contains("  owner: \"team-{{ api_version }}\"\n"))
        #expect(qa.contains("secrets:\n  clientSecret:\n    env: CLIENT_SECRET\n  accessToken:\n    env: ACCESS_TOKEN\n"))
        #expect(!qa.contains("stale") && Self.warnings(of: Self.shop).contains { $0.hasPrefix("the variable 'stale' is disabled in Postman") })
        #expect(Self.shop.environments == ["postman", "shop-qa"])
        #expect(Self.shop.secrets.map { "\($0.environment) \($0.name) \($0.variable)" }
            == ["shop-qa clientSecret CLIENT_SECRET", "shop-qa accessToken ACCESS_TOKEN"])
        for file in Self.shop.files + Self.loopback.files {
            #expect(!file.text.contains("qa-client-secret-value") && !file.text.contains("exported-secret-value")
                && !file.text.contains("exported-api-key"), "\(file.path)")
        }
    }

    @Test func version2Point0StringURLsObjectAuthAndHeaderLines() throws {
        #expect(Self.legacy.errors.isEmpty, "\(Self.legacy.errors)")
        let ping = try Self.file("requests/01-ping.yaml", of: Self.legacy)
        #expect(ping.contains("  method: GET\n  url: https://legacy.example.com/ping\n  query:\n    verbose: \"1\"\n"))
        let login = try Self.file("requests/02-log-in-with-a-form.yaml", of: Self.legacy)
        #expect(login.contains("  method: POST\n") && login.contains("    X-Client: legacy\n    X-Trace: \"{{ $uuid }}\"\n"))
        #expect(login.contains("    - name: avatar\n      file: note.txt\n      contentType: text/plain\n    - name: avatar\n      file: gone.png\n"
            + "      contentType: image/png\n"))
        #expect(login.contains("auth:\n  basic:\n    username: \"{{ user }}\"\n    password: \"{{ password }}\"\n"))
        #expect(Self.warnings(of: Self.legacy).contains { $0.contains("the file 'gone.png' does not exist") })
        #expect(Self.warnings(of: Self.legacy).contains { $0.hasPrefix("the variable 'password' is defined in no environment written") })
        let items = try Self.file("requests/03-bearer-from-v2-0.yaml", of: Self.legacy)
        #expect(items.contains("  url: https://legacy.example.com:8443/v2/items\n  query:\n    limit: \"5\"\n"))
        #expect(items.contains("auth:\n  bearer: hard-coded-token\n"))
        #expect(Self.warnings(of: Self.legacy).contains { $0.contains("the token is written into the request files as it was") })
    }

    // MARK: Bad input

    /// The only error of importing `json`.
    static func error(_ json: String) throws -> PostmanProblem {
        let result = read(json: json)
        #expect(result.files.isEmpty)
        return try #require(result.errors.first)
    }

    @Test func aFileThatIsNotJSONIsAnErrorAtTheParsersPlace() throws {
        let error = try Self.error("{\n  \"info\": {\"name\": \"x\"},\n  \"item\": [,]\n}")
        #expect(error.problem.message.hasPrefix("not JSON: "))
        #expect(error.problem.mark.line == 3 && error.problem.mark.column == 12)
    }

    @Test func jsonThatIsNotACollectionOrOfAnotherVersionIsNamed() throws {
        #expect(try Self.error("[1, 2]").problem.message.hasPrefix("not a Postman collection: the file holds a list"))
        #expect(try Self.error(#"{"item": []}"#).problem.message.hasPrefix("not a Postman collection: it has no 'info' object"))
        let v1 = try Self.error(#"{"id": "1", "name": "Old", "order": [], "folders": [], "requests": []}"#)
        #expect(v1.problem.message.hasPrefix("a Postman collection v1, which runner does not read"))
        #expect(v1.problem.suggestion?.contains("postman-collection-transformer") == true)
        let v3 = try Self.error(#"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v3.0.0/collection.json"}, "item": []}"#)
        #expect(v3.problem.message.hasPrefix("the collection schema version 3.0.0 is not supported"))
        #expect(v3.problem.mark.line == 1 && v3.problem.mark.column == 34)
        // The transformer converts v1 only: a later version is exported again.
        #expect(v3.problem.suggestion == "export it from Postman as Collection v2.1 (⋯ › Export)")
        // A schema URL naming the version without its patch number is read.
        let short = try Self.error(#"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1/collection.json"}, "item": []}"#)
        #expect(short.problem.message.hasPrefix("the collection has no request"))
        let empty = try Self.error(#"{"info": {"name": "x"}, "item": []}"#)
        #expect(empty.problem.message.hasPrefix("the collection has no request"))
    }

    /// A variable only a translated test reads (`pm.environment.get('expected')`) is listed like one a request uses.
    @Test func aVariableOnlyATestReadsIsListed() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "item": [{"name": "one", "request": {"url": "https://a.example.com/get"},
              "event": [{"listen": "test", "script": {"exec": [
                "pm.expect(pm.response.json().args.x).to.eql(pm.environment.get('expected'));"
              ]}}]}]}
            """)
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("the variable 'expected' is defined in no environment written") },
                "\(Self.warnings(of: result))")
    }

    /// JavaScript literals of objects and lists (unquoted names, single quotes, a trailing comma) are the JSON they are.
    @Test(arguments: [("{a: 1}", #"{"a":1}"#), ("{'a': 1, b: [true, 'two\\'s'],}", #"{"a":1,"b":[true,"two's"]}"#),
                      ("[1, 'two']", #"[1,"two"]"#), ("{a: x}", nil), ("{a: f(1)}", nil), ("{'a': \"b}\"}", #"{"a":"b}"}"#)])
    func javaScriptLiteralsAreTheirJSON(literal: String, json: String?) throws {
        #expect(PostmanScriptText.jsonText(ofLiteral: literal).flatMap { try? JSONValue.parse($0).serialized() } == json)
    }

    /// Two Postman variables whose names become one runner name stay two (`api_version_2`), and two secrets whose names
    /// suggest one process environment variable read two (`API_KEY`, `API_KEY_2`): neither sends the other's value.
    @Test func variablesAndSecretsThatWouldShareANameStayApart() throws {
        let collection = PostmanSource(path: "c.json", bytes: Array("""
            {"info": {"name": "x"}, "variable": [{"key": "api.version", "value": "v1"}, {"key": "api_version", "value": "v9"}],
             "item": [{"name": "one", "request": {"method": "POST", "url": "https://a.example.com/{{api_version}}",
               "header": [{"key": "A", "value": "{{apiKey}}"}, {"key": "B", "value": "{{api_key}}"}],
               "body": {"mode": "raw", "raw": "<a>{{api.version}}</a>"}}}]}
            """.utf8))
        let environment = PostmanSource(path: "e.json", bytes: Array("""
            {"name": "qa", "values": [{"key": "apiKey", "value": "k1", "type": "secret"}, {"key": "api_key", "value": "k2", "type": "secret"}]}
            """.utf8))
        let result = Self.read(collection, environments: [environment])
        let request = try #require(result.files.first { $0.path.hasPrefix("requests/") }?.text, "\(result.files.map(\.path))")
        #expect(request.contains("url: \"https://a.example.com/{{ api_version_2 }}\""), "\(request)")
        #expect(request.contains("text: \"<a>{{ api_version }}</a>\""), "\(request)")
        #expect(try Self.file("environments/postman.yaml", of: result).contains("  api_version: v1\n  api_version_2: v9\n"))
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("the variable 'api_version' is written as 'api_version_2': 'api_version' "
            + "stands for the variable 'api.version'") }, "\(Self.warnings(of: result))")
        #expect(result.secrets.map(\.variable) == ["API_KEY", "API_KEY_2"])
    }

    /// The hint for a credential written as it was names a secret no environment of the import has: following it must not
    /// redefine one (the login password) or send it in its place.
    @Test func theHintForALiteralCredentialNamesASecretTheImportDoesNotWrite() {
        let collection = PostmanSource(path: "c.json", bytes: Array("""
            {"info": {"name": "x"}, "item": [{"name": "gql", "request": {"method": "GET", "url": "https://a.example.com/",
              "auth": {"type": "basic", "basic": [{"key": "username", "value": "u"}, {"key": "password", "value": "L1teralPw"}]}}}]}
            """.utf8))
        let environment = PostmanSource(path: "e.json", bytes: Array("""
            {"name": "qa", "values": [{"key": "password", "value": "login", "type": "secret"}]}
            """.utf8))
        let hint = Self.read(collection, environments: [environment]).warnings
            .first { $0.problem.message.hasPrefix("'gql': the password is written into the request files as it was") }?.problem.suggestion
        #expect(hint == "keep it out of the file: add `password_2: { env: API_PASSWORD_2 }` to the environment's secrets and write \"{{ password_2 }}\" here",
                "\(hint ?? "none")")
        let alone = Self.read(collection).warnings.first { $0.problem.message.hasPrefix("'gql': the password is written") }?.problem.suggestion
        #expect(alone?.contains("`password: { env: API_PASSWORD }`") == true, "\(alone ?? "none")")
    }

    /// A credential written as a value in a header, a query item or a form field (not in `auth`) is listed as written as it
    /// was, as `import curl` lists it; Postman 2.0 header text lists a line without ':' and reads `//Name: v` as disabled
    /// (trial helper-132).
    @Test func credentialsWrittenInHeadersQueriesAndFormsAndHeaderTextLinesAreListed() throws {
        let collection = PostmanSource(path: "c.json", bytes: Array("""
            {"info": {"name": "x"}, "item": [
              {"name": "a", "request": {"method": "POST", "url": "https://a.example.com/x?access_token=QuerySecret1&page=2",
                "header": [{"key": "Authorization", "value": "Bearer BearerSecret3"}, {"key": "X-Api-Key", "value": "{{ key }}"}],
                "body": {"mode": "urlencoded", "urlencoded": [{"key": "password", "value": "FormSecret7"}, {"key": "user", "value": "u"}]}}},
              {"name": "b", "request": {"method": "GET", "url": "https://a.example.com/y",
                "header": "X-One: 1\\nbad line\\n//X-Off: 3\\nX-Two: 2"}}]}
            """.utf8))
        let result = Self.read(collection)
        let warnings = result.warnings.map(\.problem.message)
        for expected in ["'a': the query parameter 'access_token' is written into the request file as it was",
                         "'a': the header 'Authorization' is written into the request file as it was",
                         "'a': the form field 'password' is written into the request file as it was",
                         "'b': line 2 of its header text has no ':' (not 'Name: value'): left out",
                         "'b': the header 'X-Off' is disabled in Postman: left out"] {
            #expect(warnings.contains { $0.hasPrefix(expected) }, "\(expected) in \(warnings)")
        }
        #expect(!warnings.contains { $0.contains("X-Api-Key") || $0.contains("'user'") || $0.contains("not a header name") }, "\(warnings)")
        let hint = result.warnings.first { $0.problem.message.contains("'access_token'") }?.problem.suggestion
        #expect(hint?.contains("`accessToken: { env: ACCESS_TOKEN }`") == true, "\(hint ?? "none")")
        let b = try Self.file("requests/02-b.yaml", of: result)
        #expect(b.contains("X-One: \"1\"") && b.contains("X-Two: \"2\"") && !b.contains("X-Off"), "\(b)")
    }

    /// A variable named like a credential but not typed `secret` (older exports have no such type) is written as it was,
    /// listed with its value hidden; one holding a template, or empty, is not listed.
    @Test func aCredentialNamedVariableNotTypedSecretIsListed() throws {
        let collection = PostmanSource(path: "c.json", bytes: Array("""
            {"info": {"name": "x"}, "item": [{"name": "one", "request": {"url": "https://a.example.com/{{token}}/{{dbPassword}}"}}]}
            """.utf8))
        let environment = PostmanSource(path: "e.json", bytes: Array("""
            {"name": "qa", "values": [{"key": "token", "value": "plain-token-abc123", "type": "default"},
              {"key": "dbPassword", "value": "Sup3rS3cret!", "type": "text"}, {"key": "apiKey", "value": "{{token}}"},
              {"key": "host", "value": "a.example.com"}]}
            """.utf8))
        let result = Self.read(collection, environments: [environment])
        let listed = result.warnings.filter { $0.problem.message.contains("its name says it holds a credential") }
        #expect(listed.map(\.problem.message) == [
            "the variable 'token' is written into environments/qa.yaml as it was, and its name says it holds a credential (at /values/0)",
            "the variable 'dbPassword' is written into environments/qa.yaml as it was, and its name says it holds a credential (at /values/1)",
        ])
        #expect(listed.first?.problem.suggestion?.contains("`token: { env: TOKEN }` under secrets") == true)
        #expect(listed.allSatisfy { $0.problem.hidden.contains("plain-token-abc123") || $0.problem.hidden.contains("Sup3rS3cret!") })
    }

    /// A URL starting with a variable whose values are hosts without a scheme gets `http://`, as Postman sends it (and as a
    /// URL written without one gets it); one whose value has a scheme, or that no environment gives, is left as written.
    @Test func aURLStartingWithAHostOnlyVariableGetsHTTP() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "variable": [{"key": "host", "value": "127.0.0.1:8080"}, {"key": "base", "value": "https://a.example.com"}],
             "item": [{"name": "one", "request": {"url": "{{host}}/tmpl"}}, {"name": "two", "request": {"url": "{{base}}/x"}},
                      {"name": "three", "request": {"url": "{{unknown}}/y"}}]}
            """)
        let urls = result.files.filter { $0.path.hasPrefix("requests/") }.map { file in
            file.text.split(separator: "\n").first { $0.hasPrefix("  url: ") }.map(String.init) ?? ""
        }
        #expect(urls == [#"  url: "http://{{ host }}/tmpl""#, #"  url: "{{ base }}/x""#, #"  url: "{{ unknown }}/y""#], "\(urls)")
    }

    /// A variable that uses one Postman lists after it is written after it, as runner reads variables in order; the others
    /// keep Postman's order, and the files validate.
    @Test func aVariableUsingALaterOneIsWrittenAfterIt() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "variable": [{"key": "session", "value": "{{other}}-{{user}}"}, {"key": "first", "value": "1"},
              {"key": "other", "value": "o{{first}}"}, {"key": "user", "value": "u"}],
             "item": [{"name": "one", "request": {"url": "https://a.example.com/{{session}}"}}]}
            """)
        #expect(try Self.file("environments/postman.yaml", of: result)
            .contains("  first: \"1\"\n  other: \"o{{ first }}\"\n  user: u\n  session: \"{{ other }}-{{ user }}\"\n"))
        for file in result.files where file.path.hasPrefix("environments/") {
            #expect(FileDecoding.environment(Array(file.text.utf8), path: file.path, name: "postman").diagnostics.isEmpty)
        }
    }

    /// A file part without a `contentType` has the type Postman gives its extension (not `application/octet-stream`).
    @Test func aFilePartWithoutATypeHasTheTypeOfItsExtension() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "item": [{"name": "up", "request": {"method": "POST", "url": "https://a.example.com/up",
              "body": {"mode": "formdata", "formdata": [{"key": "image", "type": "file", "src": "img.PNG"},
                {"key": "data", "type": "file", "src": "data.json"}, {"key": "blob", "type": "file", "src": "x.bin"},
                {"key": "doc", "type": "file", "src": "a.pdf", "contentType": "application/x-custom"}]}}}]}
            """)
        let text = try #require(result.files.first { $0.path.hasPrefix("requests/") }?.text, "\(result.files.map(\.path))")
        #expect(text.contains("file: img.PNG\n      contentType: image/png\n"), "\(text)")
        #expect(text.contains("file: data.json\n      contentType: application/json\n"), "\(text)")
        #expect(text.contains("file: x.bin\n    - name: doc"), "\(text)")
        #expect(text.contains("file: a.pdf\n      contentType: application/x-custom\n"), "\(text)")
    }

    /// An ordering of the status code (`.to.be.below(500)`) is a matcher on the status.
    @Test func anOrderingOfTheStatusIsAMatcher() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "item": [{"name": "one", "request": {"url": "https://a.example.com/get"},
              "event": [{"listen": "test", "script": {"exec": ["pm.expect(pm.response.code).to.be.below(500);"]}}]}]}
            """)
        let text = try #require(result.files.first { $0.path.hasPrefix("requests/") }?.text, "\(result.files.map(\.path))")
        #expect(text.contains("status: { lessThan: 500 }") || text.contains("status:\n    lessThan: 500"), "\(text)")
        #expect(!Self.warnings(of: result).contains { $0.contains("below(500)") }, "\(Self.warnings(of: result))")
    }

    @Test func everyItemWithoutARequestIsLocatedAndNothingIsWritten() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "item": [
              {"name": "Folder", "item": [
                {"name": "ok", "request": {"url": "https://a.example.com"}},
                {"name": "Broken"}
              ]},
              {"name": "no url", "request": {"method": "GET"}},
              {"name": "bad headers", "request": {"url": "https://a.example.com", "header": 3}}
            ]}
            """)
        #expect(result.files.isEmpty)
        #expect(result.errors.map(\.problem.message) == [
            "the item 'Broken' has no 'request' (and no 'item', as a folder has) (at /item/0/item/1)",
            "'no url' has no url (at /item/1/request)",
            "'bad headers': 'header' is a number, not a list (at /item/2/request/header)",
        ])
        #expect(result.errors.map(\.problem.mark.line) == [4, 6, 7])
    }

    @Test func aBadEnvironmentIsAnErrorInItsFile() throws {
        let result = Self.read(Self.fixture("loopback.postman_collection.json"),
                               environments: [PostmanSource(path: "env.json", bytes: Array(#"{"name": "qa"}"#.utf8))])
        let error = try #require(result.errors.first)
        #expect(error.file == "env.json" && error.problem.message.hasPrefix("not a Postman environment: it has no 'values' list"))
        #expect(result.files.isEmpty)
        // One cut short is to be exported again as an environment, not as a collection (trial helper-132).
        let cut = Self.read(Self.fixture("loopback.postman_collection.json"),
                            environments: [PostmanSource(path: "env.json", bytes: Array(#"{"name": "qa", "values": [{"key""#.utf8))])
        #expect(cut.errors.first?.problem.suggestion == "export it again from Postman (Environments › ⋯ › Export)", "\(cut.errors)")
        // A name given twice keeps its later value, saying so (trial helper-154).
        let twice = Self.read(Self.fixture("loopback.postman_collection.json"),
                              environments: [PostmanSource(path: "env.json", bytes: Array(#"{"name": "e", "values": [{"key": "lang", "value": "en"}, {"key": "lang", "value": "de"}]}"#.utf8))])
        #expect(Self.warnings(of: twice).contains { $0.hasPrefix("the variable 'lang' is defined again: this later value is the one written to environments/e.yaml") },
                "\(Self.warnings(of: twice))")
        #expect(try Self.file("environments/e.yaml", of: twice).contains("lang: de"))
        // Entries that are not variables are listed, not dropped without a word.
        let odd = Self.read(Self.fixture("loopback.postman_collection.json"),
                            environments: [PostmanSource(path: "env.json", bytes: Array(#"{"name": "e", "values": [{"key": "a", "value": "1"}, {"value": "x"}, 5]}"#.utf8))])
        #expect(odd.warnings.filter { $0.problem.message.hasPrefix("an entry of 'values' is not a variable") }.count == 2,
                "\(Self.warnings(of: odd))")
    }

    @Test func aRawJSONBodyWithANumberThatWouldChangeStaysText() throws {
        let result = Self.read(json: #"""
            {"info": {"name": "x"}, "item": [{"name": "big", "request": {"method": "POST", "url": "https://a.example.com",
              "body": {"mode": "raw", "raw": "{\"id\": 12345678901234567890}", "options": {"raw": {"language": "json"}}}}}]}
            """#)
        let file = try Self.file("requests/01-big.yaml", of: result)
        #expect(file.contains(#"text: "{\"id\": 12345678901234567890}""#), "\(file)")
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("'big': the number 12345678901234567890 would change in a json: body") })
    }

    /// A raw body in JSON mode is sent by Postman without its comments (`//` to the line's end, `/* */`), and so is it
    /// written, saying so; a `//` inside a string stays (trial helper-154: it was sent with them, as no JSON).
    @Test func aRawJSONBodysCommentsAreLeftOutAsPostmanSendsIt() throws {
        let raw = #"{\n  // the login user\n  \"user\": \"{{user}}\", /* an old field: \"x\": 1, */\n  \"url\": \"http://a//b\", \"q\": \"\\\"//\"\n}"#
        let result = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "login", "request": {"method": "POST", "url": "https://a.example.com", "#
            + #""body": {"mode": "raw", "raw": ""# + raw + #"", "options": {"raw": {"language": "json"}}}}}]}"#)
        let file = try Self.file("requests/01-login.yaml", of: result)
        #expect(file.contains("json:\n    user: \"{{ user }}\"\n    url: http://a//b\n    q: \"\\\"//\"\n"), "\(file)")
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("'login': the JSON body's comments are left out, as Postman leaves them out") },
                "\(Self.warnings(of: result))")
        // Without comments nothing is said.
        #expect(JSONComments.stripped(#"{"a": "//"}"#) == nil)
        #expect(JSONComments.stripped("[1, /* two */ 3] // end") == "[1,  3] ")
    }

    /// A query kept in the URL (for an item without a value) holds each value encoded as Postman sends it, so that a `#`
    /// or a space does not end it; an item without a key is listed as left out.
    @Test func aQueryKeptInTheURLEncodesItsValuesAndListsAnItemWithoutAKey() throws {
        let result = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "p", "request": {"method": "GET", "url": {"#
            + #""protocol": "http", "host": ["127.0.0.1"], "port": "50010", "path": ["p"], "query": ["#
            + #"{"key": "h", "value": "a#b c+d%zz"}, {"key": "t", "value": "{{ tok }}&%41"}, {"key": "flag"}, {"key": null, "value": "v"}, "#
            + #"{"key": "after", "value": "{{ tok }}"}]}}}]}"#)
        let file = try Self.file("requests/01-p.yaml", of: result)
        #expect(file.contains(#"url: "http://127.0.0.1:50010/p?h=a%23b%20c+d%25zz&t={{ tok }}%26%41&flag""# + "\n"), "\(file)")
        // An item after the last one without a value is a query: item, its template's value (holding `&`, `#`) sent whole.
        #expect(file.contains(#"after: "{{ tok }}""#), "\(file)")
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("'p': a query parameter has no key: left out (a request file sends "
            + "parameters by name) (at /item/0/request/url/query/3") }, "\(Self.warnings(of: result))")
    }

    /// A query item without a value (`?flag`, `"value": null`) is sent by Postman as the name alone: the query up to it
    /// stays in the URL, as Postman sends it, with a warning (a `query:` item would send `flag=`), the items after it are
    /// `query:` items; an empty value stays `flag=`.
    @Test(arguments: [#""url": "http://127.0.0.1:1/x?flag&a=1&e=""#,
                      #""url": {"raw": "http://127.0.0.1:1/x?flag&a=1&e=", "query": [{"key": "flag", "value": null}, {"key": "a", "value": "1"}, "#
                        + #"{"key": "off", "value": "1", "disabled": true}, {"key": "e", "value": ""}]}"#])
    func aQueryItemWithoutAValueStaysInTheURLAsPostmanSendsIt(url: String) throws {
        let result = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "flag", "request": {"method": "GET", "# + url + "}}]}")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let file = try Self.file("requests/01-flag.yaml", of: result)
        #expect(file.contains("url: http://127.0.0.1:1/x?flag\n") && file.contains("query:") && file.contains("a: \"1\"")
                && !file.contains("off"), "\(file)")
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("'flag': the query parameter 'flag' has no value: the query up to it is kept "
            + "in the URL, as Postman sends it (a query: item would send 'flag=') (at /item/0/request/url") }, "\(Self.warnings(of: result))")
        let valued = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "e", "request": {"url": "http://127.0.0.1:1/x?e=&a=1"}}]}"#)
        #expect(try Self.file("requests/01-e.yaml", of: valued).contains("query:"))
    }

    /// The query `runner run` sends for the request file `text` (its templates given `variables`): its URL, then its
    /// `query:` items percent-encoded, as the request builder appends them.
    static func sentQuery(of text: String, variables: [String: String] = [:]) throws -> String {
        let decoded = FileDecoding.requestFile(Array(text.utf8), path: "r.yaml", absolutePath: "/tmp/r.yaml", defaultName: "r")
        let spec = try #require(decoded.value?.steps.first?.request, "\(decoded.diagnostics)")
        var scope = VariableScope()
        for (name, value) in variables { scope.define(name, .string(value), in: .environment) }
        var request = HTTPRequest(components: try #require(PercentEncoding.components(ofURL: try scope.resolveURL(spec.url))))
        for parameter in spec.query {
            for value in parameter.values { request.appendQueryItem(name: parameter.name, value: try scope.resolve(value).interpolatedText) }
        }
        return request.components.percentEncodedQuery ?? ""
    }

    /// A query item a `query:` item would send otherwise than Postman (a literal `+`, which a form decoding reads as a space,
    /// sent `%2B`; an escape written its own way; `=` and punctuation Postman keeps) stays in the URL with the query before
    /// it, as Postman sends it; the items after the last one are `query:` items. The request sends Postman's bytes: the
    /// raw URL's query as written, `'` as `%27`.
    @Test(arguments: [
        ("flag&a=%2B&b=+", "flag&a=%2B&b=+", "'b'"), ("p=a+b&flag&q=c+d", "p=a+b&flag&q=c+d", "'q'"), ("c=1+2", "c=1+2", "'c'"),
        ("a=1&e=%2b&x=%41&n=a,b:c/d&eq=k=v&s=it's&h=plain&i=two%20words&j=%2B&u=%C3%A9",
         "a=1&e=%2b&x=%41&n=a,b:c/d&eq=k=v&s=it%27s&h=plain&i=two%20words&j=%2B&u=%C3%A9", "'eq'"),
        ("a+b=1&h=2", "a+b=1&h=2", "'a+b'"), ("h=plain&i=two%20words&j=%2B", "h=plain&i=two%20words&j=%2B", nil),
    ])
    func aQueryItemAQueryEntryWouldSendOtherwiseStaysInTheURL(raw: String, sent: String, kept: String?) throws {
        for url in [#""http://127.0.0.1:1/anything/c?\#(raw)""#, #"{"raw": "http://127.0.0.1:1/anything/c?\#(raw)"}"#] {
            let result = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "q", "request": {"method": "GET", "url": "# + url + "}}]}")
            #expect(result.errors.isEmpty, "\(result.errors)")
            let file = try Self.file("requests/01-q.yaml", of: result)
            #expect(try Self.sentQuery(of: file) == sent, "\(file)")
            #expect(Self.warnings(of: result).contains { $0.hasPrefix("'q': the query parameter \(kept ?? "") ") } == (kept != nil),
                    "\(Self.warnings(of: result))")
        }
        // The items after the last one kept in the URL are query: items.
        let mixed = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "q", "request": {"url": "http://127.0.0.1:1/c?c=1+2&h=plain&s=it's"}}]}"#)
        let file = try Self.file("requests/01-q.yaml", of: mixed)
        #expect(file.contains("url: http://127.0.0.1:1/c?c=1+2\n") && file.contains("  query:\n    h: plain\n"), "\(file)")
        #expect(try Self.sentQuery(of: file) == "c=1+2&h=plain&s=it%27s")
    }

    /// A query parameter list (`url.query`) is read as the raw URL is: a `+` keeps the query in the URL, a template in a
    /// value after it is a `query:` item sent whole.
    @Test func aQueryListWithAPlusKeepsTheQueryInTheURL() throws {
        let result = Self.read(json: #"{"info": {"name": "x"}, "item": [{"name": "q", "request": {"url": {"raw": "http://127.0.0.1:1/c?c=1+2&t={{tok}}", "#
            + #""protocol": "http", "host": ["127.0.0.1"], "port": "1", "path": ["c"], "query": [{"key": "c", "value": "1+2"}, {"key": "t", "value": "{{tok}}"}]}}}]}"#)
        let file = try Self.file("requests/01-q.yaml", of: result)
        #expect(file.contains("url: http://127.0.0.1:1/c?c=1+2\n") && file.contains(#"t: "{{ tok }}""#), "\(file)")
    }

    /// A collection of one request `q` whose URL's query is `t={{tok}}&flag&u={{p}}&h=plain` (a `query` list, or the
    /// URL as text), with `variables` as the collection's.
    static func insertingCollection(variables: String, listed: Bool) -> PostmanSource {
        let raw = "http://127.0.0.1:1/c?t={{tok}}&flag&u={{p}}&h=plain"
        let url = listed
            ? #"{"raw": "\#(raw)", "protocol": "http", "host": ["127.0.0.1"], "port": "1", "path": ["c"], "query": ["#
                + #"{"key": "t", "value": "{{tok}}"}, {"key": "flag", "value": null}, {"key": "u", "value": "{{p}}"}, {"key": "h", "value": "plain"}]}"#
            : #""\#(raw)""#
        return PostmanSource(path: "inline.json", bytes: Array((#"{"info": {"name": "x"}, "variable": [\#(variables)], "item": ["#
            + #"{"name": "q", "request": {"method": "GET", "url": "# + url + "}}]}").utf8))
    }

    /// A query value inserting a collection variable whose value a `query:` item would send otherwise than Postman (which
    /// inserts it into the URL as written: `x+y` stays `x+y`) keeps the query up to it in the URL, with the template, so
    /// that runner inserts it there as Postman does; a value a `query:` item sends alike keeps it a `query:` item.
    @Test(arguments: [
        ("x+y", "t=abc&flag&u=x+y&h=plain", true), ("a,b:c/d", "t=abc&flag&u=a,b:c/d&h=plain", true),
        ("%41%2b", "t=abc&flag&u=%41%2b&h=plain", true), ("k=v&w", "t=abc&flag&u=k=v&w&h=plain", true),
        ("two words", "t=abc&flag&u=two%20words&h=plain", false), ("it's", "t=abc&flag&u=it%27s&h=plain", false),
        ("é~", "t=abc&flag&u=%C3%A9~&h=plain", false),
    ])
    func aQueryValueInsertingAVariableIsJudgedByItsValue(value: String, postman: String, kept: Bool) throws {
        for listed in [true, false] {
            let result = Self.read(Self.insertingCollection(variables: #"{"key": "p", "value": "\#(value)"}"#, listed: listed))
            #expect(result.errors.isEmpty, "\(result.errors)")
            let file = try Self.file("requests/01-q.yaml", of: result)
            #expect(try Self.sentQuery(of: file, variables: ["tok": "abc", "p": value]) == postman, "\(file)")
            #expect(file.contains(#"url: "http://127.0.0.1:1/c?t={{ tok }}&flag&u={{ p }}""#) == kept
                    && file.contains(#"url: "http://127.0.0.1:1/c?t={{ tok }}&flag""#) == !kept, "\(file)")
            #expect(try Self.file("environments/postman.yaml", of: result).contains("p: "))
            #expect(Self.warnings(of: result).contains { $0.hasPrefix("'q': the query parameter 'u' inserts {{p}}, whose value (as an "
                + "environment written gives it) Postman sends as written in the URL, which a query: item would not do") } == kept,
                    "\(Self.warnings(of: result))")
        }
    }

    /// The values of an environment imported alongside count as the collection's do: one of them that a `query:` item
    /// would send otherwise keeps the query in the URL; a secret's (unknown) or an unknown variable's keeps the item a
    /// `query:` item, and so do nested templates resolving to plain text, while one resolving to `+` does not.
    @Test func aQueryValueInsertingAnEnvironmentsVariableIsJudgedByItsValues() throws {
        let collection = Self.insertingCollection(variables: #"{"key": "q", "value": "1+2"}, {"key": "n", "value": "{{plain}}"}"#, listed: true)
        let environment = { (values: String) in
            PostmanSource(path: "qa.json", bytes: Array(#"{"name": "QA", "values": [\#(values)]}"#.utf8))
        }
        let cases: [(values: String, kept: Bool)] = [
            (#"{"key": "p", "value": "x+y", "enabled": true}"#, true),
            (#"{"key": "p", "value": "x+y", "type": "secret"}"#, false),
            (#"{"key": "p", "value": "x+y", "enabled": false}"#, false),
            (#"{"key": "p", "value": "{{q}}"}"#, true),
            (#"{"key": "p", "value": "{{n}}"}, {"key": "plain", "value": "abc"}"#, false),
            (#"{"key": "other", "value": "x+y"}"#, false),
        ]
        for (values, kept) in cases {
            let result = Self.read(collection, environments: [environment(values)])
            #expect(result.errors.isEmpty, "\(result.errors)")
            let file = try Self.file("requests/01-q.yaml", of: result)
            #expect(file.contains(#"u={{ p }}""#) == kept && file.contains(#"u: "{{ p }}""#) == !kept, "\(values): \(file)")
        }
        // Any environment's value counts: the query stays in the URL, which sends each environment's as Postman does.
        let two = Self.read(collection, environments: [environment(#"{"key": "p", "value": "abc"}"#), environment(#"{"key": "p", "value": "a+b"}"#)])
        let file = try Self.file("requests/01-q.yaml", of: two)
        #expect(file.contains(#"u={{ p }}""#), "\(file)")
        #expect(try Self.sentQuery(of: file, variables: ["tok": "abc", "p": "a+b"]) == "t=abc&flag&u=a+b&h=plain")
    }

    /// Where runner's URL sends an inserted value otherwise than Postman, the warning says so: a `'` (Postman sends `%27`),
    /// and a `#` before `query:` items (Postman sends nothing after it).
    @Test(arguments: [
        ("it's+1", "t=abc&flag&u=it's+1&h=plain", "runner sends a ' in {{p}}'s value as written, where Postman sends %27"),
        ("a+b#c", "t=abc&flag&u=a+b&h=plain", "runner sends the query: items after it although {{p}}'s value holds a '#', after which Postman sends nothing"),
    ])
    func whereRunnersURLSendsAnInsertedValueOtherwiseTheWarningSaysSo(value: String, sent: String, difference: String) throws {
        let result = Self.read(Self.insertingCollection(variables: #"{"key": "p", "value": "\#(value)"}"#, listed: true))
        let file = try Self.file("requests/01-q.yaml", of: result)
        #expect(file.contains(#"u={{ p }}""#), "\(file)")
        #expect(try Self.sentQuery(of: file, variables: ["tok": "abc", "p": value]) == sent, "\(file)")
        #expect(Self.warnings(of: result).contains { $0.hasPrefix("'q': the query parameter 'u' inserts {{p}}") && $0.contains("(but \(difference))") },
                "\(Self.warnings(of: result))")
    }

    @Test func membersReadAsTextOfAnotherTypeAreLocatedErrors() throws {
        let result = Self.read(json: """
            {"info": {"name": "x"}, "item": [
              {"name": "number url", "request": {"url": 7}},
              {"name": "number method", "request": {"method": 7, "url": "https://a.example.com"}},
              {"name": "list raw", "request": {"url": {"raw": ["https://a.example.com"]}}},
              {"name": "number request", "request": 7},
              {"name": "number mode", "request": {"url": "https://a.example.com", "body": {"mode": 1, "raw": "x"}}},
              {"name": "number port", "request": {"url": {"host": ["a", "example", "com"], "port": 8080}}},
              {"name": "number bearer", "request": {"url": "https://a.example.com", "auth": {"type": "bearer", "bearer": 5}}},
              {"name": "number body", "request": {"url": "https://a.example.com", "body": 5}},
              {"name": "bad header", "request": {"url": "https://a.example.com", "header": [{"key": 5, "value": "x"}]}},
              {"name": "object value", "request": {"url": "https://a.example.com", "header": [{"key": "A", "value": {"b": 1}}]}},
              {"name": "number protocol", "request": {"url": {"raw": "https://a.example.com", "protocol": 5}}}
            ]}
            """)
        #expect(result.files.isEmpty)
        #expect(result.errors.map(\.problem.message) == [
            "'number url': 'url' is a number, not a string or an object (at /item/0/request/url)",
            "'number method': 'method' is a number, not a string (at /item/1/request/method)",
            "'list raw': 'raw' is a list, not a string (at /item/2/request/url/raw)",
            "'number request': 'request' is a number, not an object or a URL (at /item/3/request)",
            "'number mode': 'mode' is a number, not a string (at /item/4/request/body/mode)",
            "'number bearer': 'bearer' is a number, not a list (at /item/6/request/auth/bearer)",
            "'number body': 'body' is a number, not an object (at /item/7/request/body)",
            "'bad header': 'key' is a number, not a string (at /item/8/request/header/0/key)",
            "'object value': 'value' is an object, not a string (at /item/9/request/header/0/value)",
            "'number protocol': 'protocol' is a number, not a string (at /item/10/request/url/protocol)",
        ])
        #expect(result.errors.map(\.problem.mark.line) == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
    }

    @Test func aQuotedLineOfAOneLineExportHidesEveryCredentialOfTheFile() {
        let json = #"{"info": {"name": "one line", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "#
            + #""variable": [{"key": "apiToken", "value": "v4riableS3cret", "type": "secret"}, {"key": "host", "value": "127.0.0.1"}], "#
            + #""item": [{"name": "a", "protocolProfileBehavior": {"disableBodyPruning": true, "proxy": {"host": "127.0.0.1", "password": "pr0xyPw9"}}, "#
            + #""request": {"method": "GET", "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "b3arerLit"}]}, "header": ["#
            + #"{"key": "Cookie", "value": "sid=c00kieDis", "disabled": true}, {"key": "Authorization", "value": "Bearer h3aderDis", "disabled": true}], "#
            + #""body": {"mode": "raw", "raw": "{\"user\": \"a\", \"pwd\": \"R4wPw\\\"12\"}", "disabled": true}, "#
            + #""url": "http://u:urlPw77@127.0.0.1:1/x?api_key=qu3ryKey"}}]}"#
        let result = Self.read(json: json)
        #expect(result.errors.isEmpty && !result.warnings.isEmpty, "\(result.errors)")
        let redacted = InteropProblem.redacted(json, hiding: result.warnings.map(\.problem), also: result.credentials)
        for secret in ["v4riableS3cret", "pr0xyPw9", "b3arerLit", "c00kieDis", "h3aderDis", "urlPw77", "qu3ryKey", "R4wPw"] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
        #expect(redacted.contains(#"{"key": "host", "value": "127.0.0.1"}"#) && redacted.contains(#""key": "token", "value": "***""#))
    }

    /// A password in a URL and credential members of a raw JSON body or GraphQL variables, written as they were, are each
    /// a warning, their values hidden (trial helper-182: written without a word).
    @Test func credentialsOfURLsAndBodiesWrittenAsTheyWereAreListed() {
        let json = #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + #"{"name": "login", "request": {"method": "POST", "url": "http://u:UrlPw-1357@127.0.0.1:1/x", "#
            + #""body": {"mode": "raw", "raw": "{\"user\":\"bob\",\"password\":\"JsonPw-2468\"}", "options": {"raw": {"language": "json"}}}}}, "#
            + #"{"name": "gql", "request": {"method": "POST", "url": "http://127.0.0.1:1/g", "#
            + #""body": {"mode": "graphql", "graphql": {"query": "query { a }", "variables": "{\"apiKey\": \"GqlKey-9753\"}"}}}}]}"#
        let result = Self.read(json: json)
        #expect(result.warnings.map(\.problem.message) == [
            "'login': the URL holds a password, written into the request file as it was (at /item/0/request/url)",
            "'login': the body holds credentials (members named like password, token, secret or api_key), written into the request "
                + "file as they were (at /item/0/request/body/raw)",
            "'gql': the body holds credentials (members named like password, token, secret or api_key), written into the request "
                + "file as they were (at /item/1/request/body/graphql/variables)",
        ])
        let redacted = InteropProblem.redacted(json, hiding: result.warnings.map(\.problem), also: result.credentials)
        for secret in ["UrlPw-1357", "JsonPw-2468", "GqlKey-9753"] { #expect(!redacted.contains(secret), "\(secret) in \(redacted)") }
    }

    /// A number named as a credential in a raw JSON body with comments (which is not JSON until they are left out) is
    /// hidden in quoted lines; other numbers show (trial helper-182: the reverse).
    @Test func aNumericCredentialOfABodyWithCommentsIsHidden() {
        let json = #"{"info": {"name": "n", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "#
            + #""item": [{"name": "Echo", "request": {"method": "POST", "url": "http://127.0.0.1:1/x", "#
            + #""body": {"mode": "raw", "raw": "{\"a\":5, /* c */ \"password\":987654}", "options": {"raw": {"language": "json"}}}}}]}"#
        let result = Self.read(json: json)
        let redacted = InteropProblem.redacted(json, hiding: result.warnings.map(\.problem), also: result.credentials)
        #expect(!redacted.contains("987654") && redacted.contains(#"{\"a\":5, /* c */"#), "\(redacted)")
    }

    @Test func aRequestWithABlankNameIsNamedAfterItsFile() throws {
        let result = Self.read(json: #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "#
            + #""item": [{"name": " ", "request": {"method": "GET", "url": "http://127.0.0.1:1/x"}}]}"#)
        let file = try #require(result.files.first { $0.path.hasPrefix("requests/") })
        #expect(!file.text.contains("name:") && file.text.hasPrefix("request:"), "\(file.path): \(file.text)")
    }

    /// A path variable without a value is written as a template and listed: the value another request gives the name
    /// (an environment variable) would otherwise fill it without a word.
    @Test func aPathVariableWithoutAValueIsListed() throws {
        let request = { (name: String, variables: String) in
            #"{"name": "\#(name)", "request": {"method": "GET", "url": {"raw": "http://127.0.0.1:1/users/:id", "host": ["127.0.0.1"], "#
                + #""port": "1", "protocol": "http", "path": ["users", ":id"]\#(variables)}}}"#
        }
        let json = #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + request("given", #", "variable": [{"key": "id", "value": "7"}]"#) + ", " + request("absent", "") + ", "
            + request("empty", #", "variable": [{"key": "id", "value": ""}]"#) + "]}"
        let result = Self.read(json: json)
        let files = result.files.filter { $0.path.hasPrefix("requests/") }.map(\.text)
        try #require(files.count == 3, "\(result.files.map(\.path))")
        #expect(files.allSatisfy { $0.contains(#"url: "http://127.0.0.1:1/users/{{ id }}""#) }, "\(files)")
        #expect(try Self.file("environments/postman.yaml", of: result).contains("  id: \"7\"\n"))
        let listed = Self.warnings(of: result).filter { $0.contains(":id") }
        #expect(listed == [
            "'absent': the path variable :id has no value here, and Postman sends ':id' as written: written as {{ id }} (at /item/1/request/url)",
            "'empty': the path variable :id has no value here, and Postman sends an empty segment: written as {{ id }} (at /item/2/request/url)",
        ], "\(listed)")
    }

    /// GraphQL variables with a `{{variable}}` where a value goes are no JSON until Postman puts the value's text there:
    /// the body is written as that text, query and variables as Postman sends them; JSON variables stay `graphql:`.
    @Test func graphQLVariablesWithTemplatesAsValuesAreSentAsText() throws {
        let request = { (variables: String) in
            #"{"name": "q", "request": {"method": "POST", "url": "http://127.0.0.1:1/graphql", "body": {"mode": "graphql", "graphql": "#
                + #"{"query": "query Items($n: Int) { items(first: $n, owner: \"{{owner}}\") { id } }", "variables": \#(variables)}}}}"#
        }
        let json = #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + request(#""{\"n\": {{count}}, \"tag\": \"{{tag}}\"}""#) + ", " + request(#""{\"n\": 3}""#) + ", "
            + request(#""[1, 2]""#) + ", " + request(#""{\"{{k}}\": 1}""#) + ", " + request(#""{{vars}}""#) + "]}"
        let result = Self.read(json: json)
        let files = result.files.filter { $0.path.hasPrefix("requests/") }.map(\.text)
        try #require(files.count == 5, "\(result.files.map(\.path))")
        #expect(files[0].contains(#"Content-Type: application/json"#), "\(files[0])")
        #expect(files[0].contains(#"text: "{\"query\":\"query Items($n: Int) { items(first: $n, owner: \\\"{{ owner }}\\\") { id } }\",\"variables\":{\"n\": {{ count }}, \"tag\": \"{{ tag }}\"}}""#),
                "\(files[0])")
        #expect(files[1].contains("graphql:") && files[1].contains("variables:\n      \"n\": 3\n"), "\(files[1])")
        #expect(files[2].contains("graphql:") && !files[2].contains("variables"), "\(files[2])")
        // The request's own Content-Type is kept beside a text body, once.
        let typed = Self.read(json: #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + #"{"name": "t", "request": {"method": "POST", "url": "http://127.0.0.1:1/g", "header": [{"key": "content-type", "value": "application/json; charset=utf-8"}], "#
            + #""body": {"mode": "graphql", "graphql": {"query": "q", "variables": "{\"n\": {{n}}}"}}}}]}"#)
        let typedFile = try #require(typed.files.first { $0.path.hasPrefix("requests/") }?.text)
        #expect(typedFile.components(separatedBy: "ontent-").count == 2 && typedFile.contains("content-type: application/json; charset=utf-8"), "\(typedFile)")
        // A template as a key, or as all of the variables: text too.
        #expect(files[3].contains(#"\"variables\":{\"{{ k }}\": 1}}""#) && files[4].contains(#"\"variables\":{{ vars }}}""#), "\(files[3])\(files[4])")
        // The query's templates inside the text body's JSON string are not escaped as Postman escapes them: said once each.
        #expect(Set(Self.warnings(of: result).filter { $0.contains("GraphQL") })
                    == Set(["'q': the GraphQL variables are not a JSON object: left out (at /item/2/request/body/graphql/variables)"]
                    + [0, 3, 4].map { "'q': the GraphQL query's variables are inserted into the body's JSON text as they are (Postman escapes "
                        + "them): a value holding '\"' or '\\' would break it (at /item/\($0)/request/body/graphql)" }))
        for file in result.files where file.path.hasPrefix("requests/") {
            let decoded = FileDecoding.requestFile(Array(file.text.utf8), path: file.path, absolutePath: "/tmp/" + file.path, defaultName: "q")
            #expect(decoded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(file.text)\n\(decoded.diagnostics)")
        }
    }

    /// Bodies that are not JSON as a whole (a `{{variable}}` where a value goes, GraphQL arguments, form text) and script
    /// lines setting a header keep their credentials out of quoted lines and messages.
    @Test func credentialsInTemplatedBodiesAndScriptsAreHidden() {
        let json = #"{"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + #"{"name": "a", "request": {"method": "POST", "url": "http://127.0.0.1:1/a", "body": {"mode": "raw", "raw": "{\"password\": \"T3mplPw\", \"qty\": {{qty}}}"}}}, "#
            + #"{"name": "b", "request": {"method": "POST", "url": "http://127.0.0.1:1/b", "body": {"mode": "graphql", "graphql": {"query": "mutation { login(password: \"Gr4phPw\") }"}}}}, "#
            + #"{"name": "c", "request": {"method": "POST", "url": "http://127.0.0.1:1/c", "body": {"mode": "raw", "raw": "user=bob&password=R4wT3xt"}}}, "#
            + #"{"name": "d", "event": [{"listen": "prerequest", "script": {"exec": ["pm.request.headers.add({key: 'Authorization', value: 'Bearer Scr1ptTok'})", "var pass = 'Scr1ptPass';", "pm.request.headers.add({key: 'Cookie', value: 'sid=C00kieScr1pt'});"]}}], "#
            + #""request": {"method": "GET", "url": "http://127.0.0.1:1/d"}}]}"#
        let result = Self.read(json: json)
        let shown = result.warnings.map { InteropProblem.redacted($0.problem.message, hiding: result.warnings.map(\.problem), also: result.credentials) }
            + [InteropProblem.redacted(json, hiding: [], also: result.credentials)]
        for secret in ["T3mplPw", "Gr4phPw", "R4wT3xt", "Scr1ptTok", "Scr1ptPass", "C00kieScr1pt"] {
            #expect(shown.allSatisfy { !$0.contains(secret) }, "\(secret) in \(shown)")
        }
    }
}
