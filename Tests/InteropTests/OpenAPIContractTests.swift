import Foundation
import HTTPCore
import OpenAPIContract
import Testing

/// `expect.openapi`'s check: responses judged against documents written for these tests, 3.0 and 3.1.
@Suite struct OpenAPIContractTests {
    /// An OpenAPI 3.0 user API below `/api/v1`: statuses exact, as a range and `default`, a required header, a schema
    /// with a `nullable` property, and a literal path beside a templated one.
    static let users = """
        openapi: 3.0.3
        info: { title: Users, version: "1" }
        servers:
          - url: "https://{host}/api/v{major}"
            variables: { host: { default: users.test }, major: { default: "1" } }
        paths:
          /users:
            get:
              operationId: listUsers
              responses:
                "200":
                  description: The users.
                  headers:
                    X-Total-Count: { required: true, schema: { type: integer } }
                    X-Page: { schema: { type: integer } }
                  content:
                    application/json:
                      schema: { type: array, items: { $ref: "#/components/schemas/User" } }
          /users/{id}:
            get:
              operationId: getUser
              responses:
                "200":
                  description: A user.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/User" }
                "4XX":
                  description: Refused.
                  content:
                    application/problem+json:
                      schema: { type: object, required: [title], properties: { title: { type: string } } }
            delete:
              operationId: deleteUser
              responses:
                "204": { description: Deleted. }
                default: { description: Anything else. }
          /users/me:
            get:
              operationId: me
              responses:
                "200": { description: Me., content: { text/plain: { schema: { type: string } } } }
        components:
          schemas:
            User:
              type: object
              required: [id, name, manager]
              properties:
                id: { type: integer, minimum: 1, exclusiveMinimum: false }
                name: { type: string }
                manager: { type: string, nullable: true }
        """

    /// An OpenAPI 3.1 document at the root (no servers) whose schema uses a type array.
    static let notes = """
        {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1"},
         "paths": {"/notes/{id}": {"get": {"responses": {"200": {"description": "A note.", "content": {"application/json": {"schema": {
           "type": "object", "required": ["text", "due"],
           "properties": {"text": {"type": "string"}, "due": {"type": ["string", "null"], "format": "date"}}}}}}}}}}}
        """

    static func contract(_ text: String) throws -> OpenAPIContract {
        try OpenAPIContract(try OpenAPIDocument(bytes: Array(text.utf8)))
    }

    /// The mismatches of one response (`body` as JSON text, sent with `contentType`).
    static func mismatches(_ contract: OpenAPIContract, _ method: String, _ path: String, status: Int = 200,
                           headers: [(String, String)] = [], body: String? = nil,
                           contentType: String = "application/json") -> [String] {
        var allHeaders = HTTPHeaders(headers)
        if body != nil { allHeaders.add(name: "Content-Type", value: contentType) }
        let exchange = OpenAPIExchange(method: method, path: path, status: status, headers: allHeaders, bodyIsEmpty: body == nil) {
            Result { try JSONValue.parse(Array((body ?? "").utf8)) }.mapError { OpenAPIBodyProblem("\($0)") }
        }
        return contract.mismatches(of: exchange).map(\.message)
    }

    static let user = #"{"id": 1, "name": "Ada", "manager": null}"#

    @Test func aDocumentedStatusExactAsARangeOrDefaultPasses() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", body: Self.user) == [])
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", status: 404, body: #"{"title": "no"}"#,
                                contentType: "application/problem+json; charset=utf-8") == [])
        #expect(Self.mismatches(users, "DELETE", "/api/v1/users/1", status: 204) == [])
        #expect(Self.mismatches(users, "DELETE", "/api/v1/users/1", status: 500) == [])
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", status: 500) == ["GET /users/{id} (getUser): status 500 is not documented"])
    }

    @Test func aMissingRequiredHeaderFailsAndAnOptionalOneDoesNot() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/users", headers: [("x-total-count", "1")], body: "[\(Self.user)]") == [])
        #expect(Self.mismatches(users, "GET", "/api/v1/users", body: "[]")
            == ["GET /users (listUsers): required header X-Total-Count is missing from the 200 response"])
    }

    @Test func aBodyIsCheckedAgainstA30SchemaWithNullable() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", body: #"{"id": 1, "name": "Ada", "manager": "Grace"}"#) == [])
        let wrong = Self.mismatches(users, "GET", "/api/v1/users/1", body: #"{"id": 0, "name": null, "manager": null}"#)
        #expect(wrong.count == 1)
        #expect(wrong.first?.hasPrefix("GET /users/{id} (getUser): body does not match the response schema for 200: 2 violations") == true,
                "\(wrong)")
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", body: #"{"id": 1}"#).first?.contains("manager") == true)
    }

    @Test func aBodyIsCheckedAgainstA31SchemaWithATypeArray() throws {
        let notes = try Self.contract(Self.notes)
        #expect(Self.mismatches(notes, "GET", "/notes/7", body: #"{"text": "buy milk", "due": null}"#) == [])
        #expect(Self.mismatches(notes, "GET", "/notes/7", body: #"{"text": "buy milk", "due": "2030-01-01"}"#) == [])
        let wrong = Self.mismatches(notes, "GET", "/notes/7", body: #"{"text": "buy milk", "due": 3}"#)
        #expect(wrong.count == 1 && wrong.first?.contains("$.due") == true, "\(wrong)")
    }

    @Test func aBodyThatIsNotJSONOrOfAnUndocumentedMediaTypeFails() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", body: "<user/>", contentType: "application/xml")
            == ["GET /users/{id} (getUser): the 200 response has media type application/xml, which is not documented"])
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1", body: "{")
            .first?.hasPrefix("GET /users/{id} (getUser): body does not match the response schema for 200: it is not JSON") == true)
    }

    /// A media type key written with parameters (`application/json; charset=utf-8`) is matched without them, and its
    /// schema checks the body (trial helper-163: every response failed, its body unchecked).
    @Test func aMediaTypeKeyWithParametersIsMatchedWithoutThem() throws {
        let document = """
            openapi: 3.0.3
            info: { title: T, version: "1" }
            paths:
              /t:
                get:
                  responses:
                    "200":
                      description: T.
                      content:
                        "application/json; charset=utf-8":
                          schema: { type: object, required: [id], properties: { id: { type: integer } } }
            """
        let contract = try Self.contract(document)
        for contentType in ["application/json; charset=utf-8", "application/json", "Application/JSON;charset=UTF-8"] {
            #expect(Self.mismatches(contract, "GET", "/t", body: #"{"id": 1}"#, contentType: contentType) == [], "\(contentType)")
        }
        #expect(Self.mismatches(contract, "GET", "/t", body: #"{"id": "x"}"#).first?
            .hasPrefix("GET /t: body does not match the response schema for 200: $.id") == true)
    }

    /// Each mismatch says where the document says what the response breaks, with its line (trial helper-163: only a
    /// pointer, which a reviewer of a large document had to find by hand).
    @Test func aMismatchIsPlacedInTheDocument() throws {
        let users = try Self.contract(Self.users)
        func place(_ status: Int = 200, body: String?, contentType: String = "application/json") -> String? {
            var headers = HTTPHeaders()
            if body != nil { headers.add(name: "Content-Type", value: contentType) }
            let exchange = OpenAPIExchange(method: "GET", path: "/api/v1/users/1", status: status, headers: headers, bodyIsEmpty: body == nil) {
                Result { try JSONValue.parse(Array((body ?? "").utf8)) }.mapError { OpenAPIBodyProblem("\($0)") }
            }
            return contract(users, exchange)
        }
        func contract(_ contract: OpenAPIContract, _ exchange: OpenAPIExchange) -> String? {
            contract.mismatches(of: exchange).first?.place.map { place in
                (place.mark.map { "\($0.line):\($0.column) " } ?? "") + place.pointer
            }
        }
        #expect(place(body: #"{"id": 0, "name": "Ada", "manager": null}"#) == "49:39 /components/schemas/User/properties/id/minimum")
        #expect(place(500, body: nil) == "22:7 /paths/~1users~1{id}/get/responses")
        #expect(place(body: "<x/>", contentType: "application/xml") == "25:11 /paths/~1users~1{id}/get/responses/200/content")
    }

    /// An operation under a path item that is a `$ref` (3.1's `components/pathItems`, or any place in the document) is
    /// judged by its own responses, placed where they are written (trial helper-193: none were found, every status
    /// undocumented, at a pointer through the `$ref`).
    @Test(arguments: ["3.0.3", "3.1.0"])
    func anOperationOfAReferencedPathItemIsJudgedByItsResponses(version: String) throws {
        let document = try OpenAPIDocument(bytes: Array("""
            openapi: \(version)
            info: { title: Refs, version: "1" }
            paths:
              /things/{id}:
                $ref: '#/components/pathItems/Thing'
            components:
              pathItems:
                Thing:
                  put:
                    responses:
                      "200":
                        description: The thing.
                        content:
                          application/json:
                            schema: { type: object, required: [name] }
            """.utf8))
        let things = try OpenAPIContract(document)
        #expect(Self.mismatches(things, "PUT", "/things/7", body: #"{"name": "x"}"#) == [])
        #expect(Self.mismatches(things, "PUT", "/things/7", body: #"{}"#).count == 1)
        let undocumented = OpenAPIExchange(method: "PUT", path: "/things/7", status: 500, headers: [:], bodyIsEmpty: true) {
            .success(.null)
        }
        let mismatch = try #require(things.mismatches(of: undocumented).first)
        #expect(mismatch.message == "PUT /things/{id}: status 500 is not documented")
        #expect(mismatch.place?.pointer == "/components/pathItems/Thing/put/responses")
        #expect(mismatch.place?.mark.map { "\($0.line):\($0.column)" } == "10:9")
    }

    /// A `discriminator` selects the branch its property names, by its mapping or the branch's schema name (trial
    /// helper-163: a cat shaped as a dog passed).
    @Test(arguments: ["3.0.3", "3.1.0"])
    func aDiscriminatorSelectsItsBranch(version: String) throws {
        let document = """
            openapi: \(version)
            info: { title: Pets, version: "1" }
            paths:
              /pets/{id}:
                get:
                  responses:
                    "200":
                      description: A pet.
                      content:
                        application/json:
                          schema:
                            oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }]
                            discriminator: { propertyName: kind, mapping: { cat: "#/components/schemas/Cat", dog: Dog } }
              /animals/{id}:
                get:
                  responses:
                    "200":
                      description: An animal.
                      content:
                        application/json:
                          schema:
                            anyOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }]
                            discriminator: { propertyName: kind }
            components:
              schemas:
                Cat: { type: object, required: [kind, lives], properties: { kind: { type: string }, lives: { type: integer } } }
                Dog: { type: object, required: [kind, goodBoy], properties: { kind: { type: string }, goodBoy: { type: boolean } } }
            """
        let pets = try Self.contract(document)
        #expect(Self.mismatches(pets, "GET", "/pets/1", body: #"{"kind": "cat", "lives": 9}"#) == [])
        #expect(Self.mismatches(pets, "GET", "/pets/1", body: #"{"kind": "dog", "goodBoy": true}"#) == [])
        let wrong = Self.mismatches(pets, "GET", "/pets/1", body: #"{"kind": "cat", "goodBoy": true}"#)
        #expect(wrong.first?.contains("$: missing required property 'lives'") == true, "\(wrong)")
        #expect(Self.mismatches(pets, "GET", "/animals/1", body: #"{"kind": "Dog", "goodBoy": true}"#) == [])
        #expect(Self.mismatches(pets, "GET", "/animals/1", body: #"{"kind": "Dog", "lives": 3}"#).first?.contains("goodBoy") == true)
        // Branches of one shape: the selected one is checked, not `oneOf`'s "exactly one" (trial helper-164).
        #expect(Self.mismatches(pets, "GET", "/pets/1", body: #"{"kind": "cat", "lives": 9, "goodBoy": true}"#) == [])
        // A value no mapping names is left to `oneOf`.
        let unmapped = Self.mismatches(pets, "GET", "/pets/1", body: #"{"kind": "bird", "lives": 9, "goodBoy": true}"#).first ?? ""
        #expect(unmapped.contains("matches oneOf schemas 0 and 1"), "\(unmapped)")
        // Named at its place in the document, not where the check moved it (trial helper-166).
        #expect(unmapped.hasSuffix("(#/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/oneOf)"), "\(unmapped)")
    }

    @Test func aRequestMatchingNoOperationFails() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/groups")
            == ["GET /api/v1/groups matches no operation: no path of the document below /api/v1 matches it"])
        #expect(Self.mismatches(users, "PATCH", "/api/v1/users/1")
            == ["PATCH /api/v1/users/1 matches no operation: /users/{id} has GET, DELETE, not PATCH"])
    }

    @Test func aPathTemplateMatchesExactlyOneNonEmptySegment() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/api/v1/users/a%2Fb", body: Self.user) == [])
        #expect(Self.mismatches(users, "GET", "/api/v1/users/1/friends").first?.contains("matches no operation") == true)
        #expect(Self.mismatches(users, "GET", "/api/v1/users/").first?.contains("matches no operation") == true)
        // The literal /users/me wins over /users/{id}: its text body has no JSON schema to break.
        #expect(Self.mismatches(users, "GET", "/api/v1/users/me", body: "\"me\"", contentType: "text/plain") == [])
    }

    /// A request's path as sent is split into segments before each is decoded: `a%2Fb` is one segment, matching
    /// `{id}`; a literal segment is compared decoded (`caf%C3%A9` is `café`).
    @Test func anEncodedSlashStaysInsideItsSegment() throws {
        let anything = try Self.contract("""
            {"openapi": "3.1.0", "info": {"title": "Anything", "version": "1"},
             "paths": {"/anything/{id}": {"get": {"operationId": "one", "responses": {"200": {"description": "It."}}}},
                       "/anything/café": {"get": {"operationId": "cafe", "responses": {"200": {"description": "It."}}}}}}
            """)
        let judged = { (url: String) throws -> [String] in
            let request = try #require(HTTPRequest(url: url))
            let exchange = OpenAPIExchange(request: request, status: 200, headers: [:], bodyIsEmpty: true) { .success(.null) }
            return anything.mismatches(of: exchange).map(\.message)
        }
        #expect(try judged("http://127.0.0.1:1/anything/a%2Fb") == [])
        #expect(try judged("http://127.0.0.1:1/anything/a/b") == ["GET /anything/a/b matches no operation: no path of the document matches it"])
        #expect(Self.judgedOperation(anything, "GET", "/anything/a%2Fb") == "GET /anything/{id} (one)")
        #expect(Self.judgedOperation(anything, "GET", "/anything/caf%C3%A9") == "GET /anything/café (cafe)")
        // `e` and a combining accent are other bytes than `é`: a server routes them elsewhere.
        #expect(Self.judgedOperation(anything, "GET", "/anything/cafe%CC%81") == "GET /anything/{id} (one)")
    }

    /// A path key holding a percent-escape (`/anything/a%2Fb`) is usable: its schemas resolve, and it matches the path
    /// sent so.
    @Test func aPathKeyWithAPercentEscapeIsUsable() throws {
        let escaped = try Self.contract("""
            {"openapi": "3.1.0", "info": {"title": "Escaped", "version": "1"},
             "paths": {"/anything/a%2Fb": {"get": {"operationId": "slash", "responses": {"200": {"description": "It.",
                         "content": {"application/json": {"schema": {"type": "object"}}}}}}},
                       "/anything/sp%20ace": {"get": {"operationId": "space", "responses": {"200": {"description": "It."}}}}}}
            """)
        #expect(Self.mismatches(escaped, "GET", "/anything/a%2Fb", body: "{}") == [])
        let failure = Self.mismatches(escaped, "GET", "/anything/a%2Fb", body: "[]").first ?? ""
        #expect(failure.contains("body does not match"), "\(failure)")
        // The failure names the place in the document as its key is written.
        #expect(failure.contains("#/paths/~1anything~1a%2Fb/get/"), "\(failure)")
        #expect(Self.judgedOperation(escaped, "GET", "/anything/sp%20ace") == "GET /anything/sp%20ace (space)")
    }

    /// Paths whose templates cover part of a segment, beside a concrete path and a bare `{id}`.
    static func files(withBareID: Bool) -> String {
        let bare = withBareID ? #", "/files/{id}": {"get": {"operationId": "byId", "responses": {"200": {"description": "A file."}}}}"# : ""
        return """
            {"openapi": "3.0.3", "info": {"title": "Files", "version": "1"}, "servers": [{"url": "http://127.0.0.1:48020/v1/"}],
             "paths": {"/files/{name}.json": {"get": {"operationId": "getFile", "responses": {"200": {"description": "JSON."}}}},
                       "/files/special": {"get": {"operationId": "special", "responses": {"200": {"description": "It."}}}},
                       "/reports/{id}.csv": {"get": {"operationId": "report", "responses": {"200": {"description": "CSV."}}}},
                       "/x/{id}:activate": {"post": {"operationId": "activate", "responses": {"200": {"description": "Done."}}}}\(bare)}}
            """
    }

    /// The label of the operation a request is judged against, read from the status it does not document.
    static func judgedOperation(_ contract: OpenAPIContract, _ method: String, _ path: String) -> String {
        let message = mismatches(contract, method, path, status: 599).first ?? ""
        return message.hasSuffix(": status 599 is not documented") ? String(message.dropLast(30)) : message
    }

    @Test(arguments: [true, false])
    func aTemplateCoveringPartOfASegmentMatchesAndIsMoreSpecificThanABareParameter(withBareID: Bool) throws {
        let files = try Self.contract(Self.files(withBareID: withBareID))
        #expect(Self.judgedOperation(files, "GET", "/v1/files/report.json") == "GET /files/{name}.json (getFile)")
        #expect(Self.judgedOperation(files, "GET", "/v1/files/special") == "GET /files/special (special)")
        #expect(Self.judgedOperation(files, "GET", "/v1/reports/a.b.csv") == "GET /reports/{id}.csv (report)")
        #expect(Self.judgedOperation(files, "POST", "/v1/x/42:activate") == "POST /x/{id}:activate (activate)")
        #expect(Self.judgedOperation(files, "GET", "/v1/files/.json").contains("matches no operation") == !withBareID)
        #expect(Self.judgedOperation(files, "GET", "/v1/files/report.csv")
            == (withBareID ? "GET /files/{id} (byId)" : "GET /v1/files/report.csv matches no operation: no path of the document below /v1 matches it"))
        #expect(Self.judgedOperation(files, "GET", "/v1/reports/.csv").contains("matches no operation"))
    }

    @Test func operationsAreFoundBelowTheServersBasePathOnly() throws {
        let users = try Self.contract(Self.users)
        #expect(Self.mismatches(users, "GET", "/users/1", body: Self.user)
            == ["GET /users/1 matches no operation: no path of the document below /api/v1 matches it"])
        #expect(Self.mismatches(users, "GET", "/api/v1x/users/1").first?.contains("matches no operation") == true)
        let notes = try Self.contract(Self.notes)
        #expect(Self.mismatches(notes, "GET", "/notes/1?full=true", body: #"{"text": "t", "due": null}"#) == [])
    }

    @Test func aSchemaTheValidatorCannotCompileIsLocated() throws {
        let document = try OpenAPIDocument(bytes: Array("""
            openapi: 3.1.0
            info: { title: Bad pattern, version: "1" }
            paths:
              /a:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { type: string, pattern: "([a-z" }
            """.utf8))
        do {
            _ = try OpenAPIContract(document)
            Issue.record("the schema compiled")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.message.hasPrefix("has a schema that cannot be used"), "\(error.problems)")
            #expect(problem.pointer.hasPrefix("/paths/~1a/get/responses/200/content/application~1json/schema"), "\(error.problems)")
            #expect(problem.mark?.line == 11, "\(error.problems)")
        }
    }
}
