import CollectionFormat
import Foundation
import HTTPCore
import Interop
import OpenAPIContract
import Testing
import YAML

/// `runner import openapi`: OpenAPI 3.0 (YAML) and 3.1 (JSON) documents written for these tests, translated into request
/// files and an environment; documents that cannot be used are located.
@Suite struct OpenAPIImportTests {
    /// An OpenAPI 3.0 shop: a templated server, bearer security for all, apiKey and basic for one operation each, an
    /// oauth2 scheme, path/query/header/cookie parameters, a JSON body from its schema and a form body from its example.
    static let shop = """
        openapi: 3.0.3
        info: { title: Shop, version: "2.0" }
        servers:
          - url: "https://{region}.shop.test:{port}/v{version}/"
            variables:
              region: { default: eu, enum: [eu, us] }
              port: { default: "8443" }
              version: { default: "2" }
          - url: http://localhost:8080/v2
        security:
          - bearerAuth: []
        paths:
          /pets:
            get:
              operationId: listPets
              summary: List the pets
              tags: [Pets]
              parameters:
                - { name: limit, in: query, required: true, schema: { type: integer, default: 20 } }
                - { name: cursor, in: query, schema: { type: string } }
                - { name: X-Tenant, in: header, required: true, example: acme, schema: { type: string } }
                - { name: session, in: cookie, schema: { type: string } }
              responses:
                "200":
                  description: A page of pets.
                  content:
                    application/json:
                      schema: { type: array, items: { $ref: "#/components/schemas/Pet" } }
            post:
              operationId: createPet
              tags: [Pets]
              requestBody:
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/NewPet" }
              responses:
                "201": { description: Created. }
                "400": { description: Refused. }
          /pets/{petId}:
            parameters:
              - { name: petId, in: path, required: true, schema: { type: integer } }
            get:
              operationId: getPetById
              tags: [Pets]
              security: [{ apiKey: [] }]
              responses:
                "2XX": { description: The pet. }
            delete:
              tags: [Pets]
              security: [{ basicAuth: [] }]
              responses:
                default: { description: Whatever happened. }
          /orders/{order-id}/items:
            post:
              operationId: addItem
              security: [{ oauth: [write] }]
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    example: { sku: A-1, qty: 2 }
              responses:
                "202": { description: Accepted. }
                "200": { description: Done. }
        components:
          securitySchemes:
            bearerAuth: { type: http, scheme: bearer }
            basicAuth: { type: http, scheme: basic }
            apiKey: { type: apiKey, in: header, name: X-Api-Key }
            oauth:
              type: oauth2
              flows: { clientCredentials: { tokenUrl: "https://auth.shop.test/token", scopes: { write: Write. } } }
          schemas:
            NewPet:
              type: object
              required: [name, age]
              properties:
                name: { type: string, example: Rex }
                age: { type: integer }
                kind: { type: string, enum: [dog, cat] }
                nickname: { type: string, nullable: true }
            Pet:
              allOf:
                - $ref: "#/components/schemas/NewPet"
                - { type: object, properties: { id: { type: integer, example: 1 } } }
        """

    /// An OpenAPI 3.1 inventory in JSON: a relative server, a parameter with `examples`, a body schema with a type array
    /// and `examples`, and a multipart body.
    static let inventory = """
        {
          "openapi": "3.1.0",
          "info": {"title": "Inventory", "version": "1"},
          "servers": [{"url": "/inventory/v1"}],
          "paths": {
            "/stock/{sku}": {
              "put": {
                "operationId": "putStock",
                "parameters": [{"name": "sku", "in": "path", "required": true,
                                "examples": {"first": {"value": "A-1"}}, "schema": {"type": "string"}}],
                "requestBody": {"content": {"application/json": {"schema": {
                  "type": "object", "required": ["count"],
                  "properties": {"count": {"type": ["integer", "null"], "examples": [5]}, "note": {"type": "string"}}}}}},
                "responses": {"204": {"description": "Stored."}, "200": {"description": "Stored, with the stock."}}
              }
            },
            "/upload": {
              "post": {
                "operationId": "upload",
                "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
                "responses": {"default": {"description": "Whatever happened."}}
              }
            }
          }
        }
        """

    /// The document read from `text`; fails the test with its problems when it cannot be.
    static func document(_ text: String) throws -> OpenAPIDocument {
        do {
            return try OpenAPIDocument(bytes: Array(text.utf8))
        } catch {
            Issue.record("the document cannot be read: \(error.problems)")
            throw error
        }
    }

    /// The translation of `text`, read from `specs/NAME` as the output folder sees it.
    static func translate(_ text: String, named name: String) throws -> OpenAPIImport.Result {
        OpenAPIImport.translate(try document(text), specPath: "specs/" + name,
                                environmentName: String(name.prefix { $0 != "." }))
    }

    /// The text of the written request file at `path`.
    static func file(_ path: String, of result: OpenAPIImport.Result) throws -> String {
        try #require(result.requests.first { $0.path == path }?.text, "no \(path) among \(result.requests.map(\.path))")
    }

    /// The problems of a document that cannot be used.
    static func problems(_ text: String) throws -> [OpenAPIProblem] {
        do {
            _ = try OpenAPIDocument(bytes: Array(text.utf8))
        } catch {
            return error.problems
        }
        Issue.record("the document was read without problems")
        return []
    }

    @Test(arguments: ["shop.yaml", "inventory.json"])
    func everyWrittenFileDecodesWithoutErrors(_ name: String) throws {
        let result = try Self.translate(name == "shop.yaml" ? Self.shop : Self.inventory, named: name)
        for file in result.requests + [result.environment] {
            let bytes = Array(file.text.utf8)
            let decoded = file.path.hasPrefix("environments/")
                ? FileDecoding.environment(bytes, path: file.path, name: "imported").diagnostics
                : FileDecoding.requestFile(bytes, path: file.path, absolutePath: "/tmp/out/" + file.path, defaultName: "imported").diagnostics
            let errors = decoded.filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(file.path):\n\(file.text)\n\(errors)")
        }
    }

    @Test func operationsAreNumberedInDocumentOrderInFoldersByTagElseFirstSegment() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        #expect(shop.requests.map(\.path) == [
            "requests/pets/01-list-pets.yaml", "requests/pets/02-create-pet.yaml", "requests/pets/03-get-pet-by-id.yaml",
            "requests/pets/04-delete-pets-petid.yaml", "requests/orders/01-add-item.yaml",
        ])
        #expect(shop.environment.path == "environments/shop.yaml")
        let inventory = try Self.translate(Self.inventory, named: "inventory.json")
        #expect(inventory.requests.map(\.path) == ["requests/stock/01-put-stock.yaml", "requests/upload/01-upload.yaml"])
    }

    @Test func parametersBecomeVariablesAndTheSuccessStatusAndDocumentAreExpected() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        let list = try Self.file("requests/pets/01-list-pets.yaml", of: shop)
        #expect(list.contains("name: List the pets\n"), "\(list)")
        #expect(list.contains("  url: /pets\n"), "\(list)")
        #expect(list.contains("  query:\n    limit: \"{{ limit }}\"\n"), "\(list)")
        #expect(!list.contains("cursor"), "optional parameters are left out: \(list)")
        #expect(list.contains("X-Tenant: \"{{ X-Tenant }}\""), "\(list)")
        #expect(list.contains("expect:\n  status: 200\n  openapi: \"../../specs/shop.yaml\"\n"), "\(list)")
        let read = try Self.file("requests/pets/03-get-pet-by-id.yaml", of: shop)
        #expect(read.contains("  url: \"/pets/{{ petId }}\"\n"), "\(read)")
        #expect(read.contains("status: \"2xx\"\n"), "\(read)")
        let delete = try Self.file("requests/pets/04-delete-pets-petid.yaml", of: shop)
        #expect(delete.contains("name: \"DELETE /pets/{petId}\"\n"), "\(delete)")
        #expect(!delete.contains("status:"), "only default is documented: \(delete)")
        let order = try Self.file("requests/orders/01-add-item.yaml", of: shop)
        #expect(order.contains("  url: \"/orders/{{ order-id }}/items\"\n"), "\(order)")
        #expect(order.contains("status: 200\n"), "the lowest 2xx: \(order)")
        let stock = try Self.file("requests/stock/01-put-stock.yaml", of: Self.translate(Self.inventory, named: "inventory.json"))
        #expect(stock.contains("status: 200\n  openapi: \"../../specs/inventory.json\"\n"), "\(stock)")
    }

    /// The translation of a document of one operation, `GET /{PATH}` with `parameters` (flow mappings).
    private static func operation(path: String, parameters: [String]) throws -> OpenAPIImport.Result {
        try translate("""
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /{\(path)}:
                get:
                  parameters:
            \(parameters.map { "        - " + $0 }.joined(separator: "\n"))
                  responses: { "200": { description: ok } }
            """, named: "\(path).yaml")
    }

    /// Parameters of one name in the path, the query and a header are three variables, each with its own example.
    @Test func parametersSharingANameInSeveralPlacesAreAVariableEach() throws {
        let result = try Self.operation(path: "x", parameters: [
            "{ name: x, in: path, required: true, schema: { type: string } }",
            "{ name: x, in: query, required: true, example: q, schema: { type: string } }",
            "{ name: x, in: header, required: true, example: h, schema: { type: string } }",
        ])
        let request = try #require(result.requests.first?.text)
        #expect(request.contains("url: \"/{{ x }}\"") && request.contains("x: \"{{ x_query }}\"") && request.contains("x: \"{{ x_header }}\""),
                "\(request)")
        #expect(result.environment.text.contains("  x: FILL-ME\n  x_query: q\n  x_header: h\n"), "\(result.environment.text)")
        // A parameter named like the variable a shared name would get keeps its own: the shared one gets `_2`.
        let clash = try Self.operation(path: "id", parameters: [
            "{ name: id, in: path, required: true, example: 7, schema: { type: integer } }",
            "{ name: id, in: query, required: true, example: q, schema: { type: string } }",
            "{ name: id_query, in: query, required: true, example: clash, schema: { type: string } }",
        ])
        let query = try #require(clash.requests.first?.text)
        #expect(query.contains("    id: \"{{ id_query_2 }}\"\n    id_query: \"{{ id_query }}\"\n"), "\(query)")
        #expect(clash.environment.text.contains("  id_query_2: q\n  id_query: clash\n"), "\(clash.environment.text)")
    }

    /// A list or an object parameter is sent as its `style` and `explode` say, each element or member a template of the
    /// variable holding the example (trial helper-163: sent as JSON text).
    @Test func listAndObjectParametersAreSentInTheirStyle() throws {
        let result = try Self.operation(path: "x", parameters: [
            "{ name: x, in: path, required: true, example: a, schema: { type: string } }",
            "{ name: ids, in: query, required: true, explode: false, example: [1, 2], schema: { type: array, items: { type: integer } } }",
            "{ name: tags, in: query, required: true, example: [a, b], schema: { type: array, items: { type: string } } }",
            "{ name: pipes, in: query, required: true, style: pipeDelimited, explode: false, example: [x, y], schema: { type: array } }",
            "{ name: filter, in: query, required: true, style: deepObject, explode: true, example: { color: red, size: L }, schema: { type: object } }",
            "{ name: X-Ids, in: header, required: true, example: [3, 4], schema: { type: array, items: { type: integer } } }",
        ])
        let request = try #require(result.requests.first?.text)
        for line in [#"ids: "{{ ids[0] }},{{ ids[1] }}""#, "tags:\n      - \"{{ tags[0] }}\"\n      - \"{{ tags[1] }}\"",
                     #"pipes: "{{ pipes[0] }}|{{ pipes[1] }}""#, #""filter[color]": "{{ filter.color }}""#,
                     #""filter[size]": "{{ filter.size }}""#, #"X-Ids: "{{ X-Ids[0] }},{{ X-Ids[1] }}""#] {
            #expect(request.contains(line), "\(line) in \(request)")
        }
    }

    /// Two path parameters whose names read as one variable name (`a.b`, `a_b`) are two variables, in one operation and
    /// across them; a later operation whose parameter gives the same variable another example is noted, as its request
    /// sends the first one; a `{name}` no parameter declares is a `FILL-ME` variable, noted.
    @Test func pathParametersNamedAlikeAreAVariableEach() throws {
        let result = try Self.translate("""
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /x/{a.b}/{a_b}:
                get:
                  parameters:
                    - { name: a.b, in: path, required: true, schema: { type: string, example: DOT } }
                    - { name: a_b, in: path, required: true, schema: { type: string, example: UNDER } }
                  responses: { "200": { description: ok } }
              /y/{a.b}:
                get:
                  parameters:
                    - { name: a.b, in: path, required: true, schema: { type: string, example: OTHER } }
                  responses: { "200": { description: ok } }
              /z/{a_b}/{id}:
                get:
                  parameters:
                    - { name: a_b, in: path, required: true, schema: { type: string, example: UNDER } }
                  responses: { "200": { description: ok } }
            """, named: "alike.yaml")
        #expect(result.requests.map { $0.text.split(separator: "\n").first { $0.contains("url:") } ?? "" } == [
            "  url: \"/x/{{ a_b }}/{{ a_b_2 }}\"", "  url: \"/y/{{ a_b }}\"", "  url: \"/z/{{ a_b_2 }}/{{ id }}\"",
        ])
        #expect(result.environment.text.contains("  a_b: DOT\n  a_b_2: UNDER\n  id: FILL-ME\n"), "\(result.environment.text)")
        #expect(result.notes.map(\.message) == [
            "GET /y/{a.b}: the parameter 'a.b' has the example \"OTHER\", but the variable 'a_b' holds \"DOT\", an earlier operation's: set it in this request, or with --var",
            "GET /z/{a_b}/{id}: the path's '{id}' is declared by no parameter (the OpenAPI rules ask for one): its variable is 'id'",
            "the document names no server: baseURL is http://localhost; change it to the API's address",
        ])
        // Placed at the path, not at its item's first key on the line below.
        #expect(result.notes.first { $0.message.contains("'{id}'") }?.mark.map { "\($0.line):\($0.column)" } == "15:3")
    }

    /// A query or header parameter named like a path parameter of any operation keeps its own variable, `NAME_query` or
    /// `NAME_header`, in every operation, so each sends its own example; a `{name}` no parameter declares takes the
    /// example a later operation declares for it.
    @Test func parametersKeepTheirVariablesAcrossOperations() throws {
        let result = try Self.translate("""
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /z:
                get:
                  parameters:
                    - { name: tok, in: query, required: true, schema: { type: string, example: tq } }
                    - { name: tok, in: header, required: true, schema: { type: string, example: th } }
                  responses: { "200": { description: ok } }
              /w/{tok}/{un}:
                get:
                  parameters:
                    - { name: tok, in: path, required: true, schema: { type: string, example: tp } }
                    - { name: tok, in: query, required: true, schema: { type: string, example: tq } }
                  responses: { "200": { description: ok } }
              /t/{un}:
                get:
                  parameters:
                    - { name: un, in: path, required: true, schema: { type: string, example: given } }
                  responses: { "200": { description: ok } }
            """, named: "across.yaml")
        let texts = result.requests.map(\.text)
        #expect(texts.count == 3)
        #expect(texts[0].contains("url: /z\n  query:\n    tok: \"{{ tok_query }}\"\n  headers:\n    tok: \"{{ tok_header }}\"\n"), "\(texts[0])")
        #expect(texts[1].contains("url: \"/w/{{ tok }}/{{ un }}\"\n  query:\n    tok: \"{{ tok_query }}\"\n"), "\(texts[1])")
        #expect(result.environment.text.contains("  tok_query: tq\n  tok_header: th\n  tok: tp\n  un: given\n"), "\(result.environment.text)")
        #expect(result.placeholders.isEmpty)
    }

    @Test func bodiesComeFromTheExampleElseTheSchema() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        let create = try Self.file("requests/pets/02-create-pet.yaml", of: shop)
        #expect(create.contains("  json:\n    name: Rex\n    age: 0\n    kind: dog\n"), "\(create)")
        let order = try Self.file("requests/orders/01-add-item.yaml", of: shop)
        #expect(order.contains("  form:\n    sku: A-1\n    qty: \"2\"\n"), "\(order)")
        let inventory = try Self.translate(Self.inventory, named: "inventory.json")
        let stock = try Self.file("requests/stock/01-put-stock.yaml", of: inventory)
        #expect(stock.contains("  json:\n    count: 5\n"), "\(stock)")
        #expect(inventory.notes.contains { $0.message == "POST /upload: a body of multipart/form-data is not translated: write it in the request file" },
                "\(inventory.notes)")
    }

    /// Trial helper-193: header parameters OpenAPI says to ignore are left out (an `Authorization` example replaced the
    /// bearer secret on the wire), a null example is none, a JSON or form media type with parameters is translated, a
    /// JSON type other than `application/json` is sent as its Content-Type, and a form field's list is a field per
    /// element.
    @Test func bodiesAndHeadersAsTheOpenAPIRulesSay() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Rules, version: "1" }
            security: [{ bearer: [] }]
            paths:
              /a:
                post:
                  operationId: a
                  parameters:
                    - { name: Accept, in: header, required: true, schema: { type: string }, example: text/csv }
                    - { name: Authorization, in: header, required: true, schema: { type: string }, example: Bearer zzz }
                    - { name: nul, in: query, required: true, schema: { type: string, nullable: true }, example: null }
                    - { name: big, in: query, required: true, schema: { type: integer }, example: 12345678901234567890 }
                  requestBody:
                    content:
                      "application/json; charset=utf-8": { schema: { type: object, required: [a], properties: { a: { type: string, example: x } } } }
                  responses: { "200": { description: OK } }
              /b:
                post:
                  operationId: b
                  requestBody:
                    content:
                      "application/x-www-form-urlencoded; charset=utf-8":
                        schema: { type: object, properties: { list: { type: array, items: { type: string }, example: [p, q] },
                                                                nul: { type: string, nullable: true, example: null },
                                                                big: { type: integer, example: 12345678901234567890 } } }
                  responses: { "200": { description: OK } }
              /c:
                post:
                  operationId: c
                  requestBody: { content: { application/vnd.api+json: { example: { data: { type: t, id: 12345678901234567890 } } } } }
                  responses: { "200": { description: OK } }
            components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }
            """
        let result = try Self.translate(text, named: "rules.yaml")
        let a = try Self.file("requests/a/01-a.yaml", of: result)
        #expect(!a.contains("Accept") && !a.contains("Authorization") && a.contains("auth:\n  bearer: \"{{ token }}\""), "\(a)")
        #expect(a.contains("  json:\n    a: x\n"), "\(a)")
        #expect(result.notes.contains { $0.message.hasPrefix("POST /a: the header parameter 'Authorization' is left out") })
        #expect(result.placeholders == ["nul"] && !result.environment.text.contains("null"), "\(result.environment.text)")
        #expect(result.notes.contains { $0.message.hasPrefix("POST /a: the parameter 'big' has an integer example past 64 bits") }, "\(result.notes)")
        #expect(result.notes.contains { $0.message.hasPrefix("POST /b: the form field 'nul' of the example is null") }, "\(result.notes)")
        #expect(result.notes.contains { $0.message.contains("body's example has an integer past 64 bits, which runner's numbers do not "
                                                            + "keep: it is written as \"12345678901234567168\"; write the field") }, "\(result.notes)")
        #expect(result.notes.contains { $0.message.hasPrefix("POST /c: the application/vnd.api+json body's example has an integer past 64 bits") },
                "\(result.notes)")
        let b = try Self.file("requests/b/01-b.yaml", of: result)
        #expect(b.contains("  form:\n    list:\n      - p\n      - q\n") && !b.contains("nul"), "\(b)")
        let c = try Self.file("requests/c/01-c.yaml", of: result)
        #expect(c.contains("  headers:\n    Content-Type: application/vnd.api+json\n") && c.contains("  json:\n    data:\n"), "\(c)")
    }

    /// A schema's property referring to a schema it is inside of (a tree's optional `child`) is left out of the body built,
    /// and a required one is empty: it was built eight levels deep (trial helper-132).
    @Test func aBodyBuiltFromARecursiveSchemaStopsAtTheRecursion() throws {
        let text = """
            openapi: 3.0.3
            info: { title: Tree, version: "1" }
            paths:
              /nodes:
                post:
                  operationId: addNode
                  requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Node" } } } }
                  responses: { "201": { description: Added. } }
            components:
              schemas:
                Node:
                  type: object
                  required: [name, parent, owner]
                  properties:
                    name: { type: string, default: widget }
                    owner: { $ref: "#/components/schemas/Owner" }
                    child: { $ref: "#/components/schemas/Node" }
                    parent: { $ref: "#/components/schemas/Node" }
                    tags: { type: array, items: { $ref: "#/components/schemas/Tag" } }
                Tag: { type: object, properties: { label: { type: string, example: red } } }
                Owner: { properties: { id: { type: integer } } }
            """
        let node = try Self.file("requests/nodes/01-add-node.yaml", of: try Self.translate(text, named: "tree.yaml"))
        // A required one without a type but with properties is an object too (trial helper-137).
        #expect(node.contains("  json:\n    name: widget\n    owner: {}\n    parent: {}\n    tags:\n      - label: red\n"), "\(node)")
        #expect(!node.contains("child"), "\(node)")
    }

    @Test func securitySchemesBecomeAuthFromSecrets() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        #expect(try Self.file("requests/pets/01-list-pets.yaml", of: shop).contains("auth:\n  bearer: \"{{ token }}\"\n"))
        let read = try Self.file("requests/pets/03-get-pet-by-id.yaml", of: shop)
        #expect(read.contains("X-Api-Key: \"{{ apiKey }}\""), "\(read)")
        #expect(!read.contains("bearer"), "the operation's own security wins: \(read)")
        let delete = try Self.file("requests/pets/04-delete-pets-petid.yaml", of: shop)
        #expect(delete.contains("basic:\n    username: \"{{ username }}\"\n    password: \"{{ password }}\"\n"), "\(delete)")
        #expect(shop.notes.contains { $0.message == "POST /orders/{order-id}/items: the security scheme 'oauth' (oauth2) is not translated: add its auth to the request" },
                "\(shop.notes)")
        #expect(shop.environment.text.contains("""
            secrets:
              token:
                env: API_TOKEN
              apiKey:
                env: API_KEY
              username:
                env: API_USERNAME
              password:
                env: API_PASSWORD
            """), "\(shop.environment.text)")
    }

    /// A requirement of two http schemes (basic and bearer) gives the first: a request sends one Authorization header;
    /// the other is a note and reads no secret (trial helper-182: the last won silently, both read secrets).
    @Test func aRequirementOfTwoHTTPSchemesGivesTheFirstAndSaysSo() throws {
        let text = """
            openapi: 3.0.3
            info: { title: s, version: "1" }
            servers: [ { url: "http://127.0.0.1:1" } ]
            paths:
              /two:
                get:
                  security: [ { basic: [], b: [] } ]
                  responses: { "200": { description: ok } }
            components:
              securitySchemes:
                b: { type: http, scheme: bearer }
                basic: { type: http, scheme: basic }
            """
        let result = try Self.translate(text, named: "s.yaml")
        let request = try Self.file("requests/two/01-get-two.yaml", of: result)
        #expect(request.contains("basic:\n    username: \"{{ username }}\"") && !request.contains("bearer"), "\(request)")
        #expect(result.notes.map(\.message) == ["GET /two: the security scheme 'b' (http bearer) is not translated: the request sends one "
                                                + "Authorization header, which 'basic' gives"])
        #expect(!result.environment.text.contains("API_TOKEN"), "\(result.environment.text)")
    }

    @Test func theEnvironmentHasTheFirstServersURLAndTheExamples() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        #expect(shop.environment.text.hasPrefix("baseURL: https://eu.shop.test:8443/v2\nvariables:\n"), "\(shop.environment.text)")
        #expect(shop.environment.text.contains("  limit: 20\n  X-Tenant: acme\n  petId: \(OpenAPIImport.placeholder)\n"),
                "\(shop.environment.text)")
        // `{order-id}` is declared by no parameter: its variable is written too, for the user to set.
        #expect(shop.placeholders == ["petId", "order-id"])
        let inventory = try Self.translate(Self.inventory, named: "inventory.json")
        #expect(inventory.environment.text.hasPrefix("baseURL: http://localhost/inventory/v1\nvariables:\n  sku: A-1\n"),
                "\(inventory.environment.text)")
        #expect(inventory.notes.contains { $0.message.hasPrefix("the server URL '/inventory/v1' is relative") }, "\(inventory.notes)")
    }

    @Test func whatIsNotTranslatedIsListedAtItsPlace() throws {
        let shop = try Self.translate(Self.shop, named: "shop.yaml")
        let cookie = try #require(shop.notes.first { $0.message == "GET /pets: the cookie parameter 'session' is not translated" })
        #expect(cookie.pointer == "/paths/~1pets/get/parameters/3")
        #expect(cookie.mark == Mark(line: 22, column: 11), "\(cookie)")
        let inventory = try Self.translate(Self.inventory, named: "inventory.json")
        let upload = try #require(inventory.notes.first { $0.message.hasPrefix("POST /upload") })
        #expect(upload.pointer == "/paths/~1upload/post/requestBody/content")
        #expect(upload.mark?.line == 20, "\(upload)")
    }

    @Test func aDocumentWithoutServersIsForLocalhost() throws {
        let result = try Self.translate("""
            openapi: 3.1.0
            info: { title: Bare, version: "1" }
            paths:
              /ping: { get: { responses: { "204": { description: Pong. } } } }
            """, named: "bare.yaml")
        #expect(result.environment.text == "baseURL: http://localhost\n", "\(result.environment.text)")
        #expect(result.notes.map(\.message) == ["the document names no server: baseURL is http://localhost; change it to the API's address"])
        #expect(result.requests.map(\.path) == ["requests/ping/01-get-ping.yaml"])
    }

    // MARK: documents that cannot be used

    @Test func yamlThatDoesNotParseIsAnErrorAtItsLineAndColumn() throws {
        let problems = try Self.problems("openapi: 3.0.3\ninfo: { title: Broken, version: \"1\"\npaths: {}\n")
        #expect(problems.count == 1)
        #expect(problems.first?.message.hasPrefix("is not valid YAML") == true, "\(problems)")
        #expect(problems.first?.mark?.line == 3, "\(problems)")
    }

    @Test func jsonThatDoesNotParseIsAnErrorAtItsLineAndColumn() throws {
        let problems = try Self.problems("{\"openapi\": \"3.1.0\",\n  \"info\": }\n")
        #expect(problems.first?.message.hasPrefix("is not valid JSON") == true, "\(problems)")
        #expect(problems.first?.mark == Mark(line: 2, column: 11), "\(problems)")
    }

    /// A 3.0 document of one operation whose 200 response's JSON schema, on line 11, is `schema`.
    static func document(responseSchema schema: String) -> String {
        """
        openapi: 3.0.3
        info: { title: One schema, version: "1" }
        paths:
          /a:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: \(schema)

        """
    }

    @Test func anInvalidSchemaTypeIsLocated() throws {
        let problems = try Self.problems(Self.document(responseSchema: "{ type: strin }"))
        let problem = try #require(problems.first)
        #expect(problem.message.hasPrefix("breaks the OpenAPI rules"), "\(problems)")
        #expect(problem.pointer.hasPrefix("/paths/~1a/get/responses/200"), "\(problems)")
        #expect((problem.mark?.line ?? 0) >= 7, "\(problems)")
    }

    @Test func aDuplicateOperationIdIsLocatedAtTheSecond() throws {
        let problems = try Self.problems("""
            openapi: 3.1.0
            info: { title: Twice, version: "1" }
            paths:
              /a: { get: { operationId: same, responses: { "200": { description: ok } } } }
              /b:
                post:
                  operationId: same
                  responses: { "200": { description: ok } }
            """)
        #expect(problems.map(\.message) == ["operationId 'same' is used twice: GET /a has it too; operation ids are unique in a document"])
        #expect(problems.first?.pointer == "/paths/~1b/post/operationId")
        #expect(problems.first?.mark == Mark(line: 7, column: 20), "\(problems)")
    }

    @Test func aReferenceThatDoesNotResolveIsLocatedAtTheRef() throws {
        let problems = try Self.problems(Self.document(responseSchema: ##"{ $ref: "#/components/schemas/Missing" }"##)
                                         + "components:\n  schemas: {}\n")
        let problem = try #require(problems.first { $0.message.contains("does not resolve") }, "\(problems)")
        #expect(problem.message == "$ref '#/components/schemas/Missing' does not resolve: nothing is at that place in the document")
        #expect(problem.pointer == "/paths/~1a/get/responses/200/content/application~1json/schema/$ref")
        #expect(problem.mark?.line == 11, "\(problem)")
        #expect(problems.count == 1, "reported once: \(problems)")
    }

    /// A `$ref` into another file is not followed: the document is refused at it (`validate` would refuse the import).
    @Test func aReferenceIntoAnotherDocumentIsLocatedAtTheRef() throws {
        let problems = try Self.problems(Self.document(responseSchema: ##"{ $ref: "common.yaml#/Thing" }"##))
        #expect(problems.map(\.message) == ["$ref 'common.yaml#/Thing' points into another document, which runner does not read: "
                                            + "bundle the documents into one file first (such as with `redocly bundle`)"])
        #expect(problems.first?.mark?.line == 11, "\(problems)")
    }

    /// Schemas that are only references to each other never reach a schema: an error once, at the cycle's first `$ref`;
    /// a schema that refers to itself inside (a tree) is fine.
    @Test func aCycleOfReferencesIsLocatedOnce() throws {
        let problems = try Self.problems(Self.document(responseSchema: ##"{ $ref: "#/components/schemas/A" }"##) + """
            components:
              schemas:
                A: { $ref: "#/components/schemas/B" }
                B: { $ref: "#/components/schemas/A" }
                Tree: { type: object, properties: { children: { type: array, items: { $ref: "#/components/schemas/Tree" } } } }
            """)
        #expect(problems.map(\.message) == ["$ref '#/components/schemas/A' is in a cycle of references that never reaches a schema: "
            + "'#/components/schemas/A' → '#/components/schemas/B' → '#/components/schemas/A'"])
        #expect(problems.first?.pointer == "/components/schemas/B/$ref", "\(problems)")
    }

    @Test func swagger2IsNamedWithHowToConvertIt() throws {
        let problems = try Self.problems("{\"swagger\": \"2.0\", \"info\": {\"title\": \"Old\", \"version\": \"1\"}, \"paths\": {}}")
        #expect(problems.map(\.message) == ["is a Swagger 2.0 document, not OpenAPI 3"])
        #expect(problems.first?.suggestion == "convert it to OpenAPI 3.0 or 3.1 first")
        #expect(problems.first?.mark == Mark(line: 1, column: 1), "\(problems)")
    }

    @Test func anotherVersionOrNoVersionIsNamed() throws {
        #expect(try Self.problems("openapi: 4.0.0\ninfo: {}\n").map(\.message) == ["has OpenAPI version '4.0.0'; 3.0.x and 3.1.x are read"])
        #expect(try Self.problems("info: { title: t }\n").first?.message.hasPrefix("is not an OpenAPI document") == true)
        // A version cut short: unquoted, a number to YAML; quoted, not a full version (trial helper-147).
        let number = try Self.problems("openapi: 3.0\ninfo: {}\n")
        #expect(number.map(\.message) == [#"has 'openapi' 3.0, a number, not a version such as "3.0.3""#])
        #expect(number.first?.mark == Mark(line: 1, column: 10))
        let short = try Self.problems("openapi: '3.1'\ninfo: {}\n")
        #expect(short.map(\.message) == ["has OpenAPI version '3.1'; 3.0.x and 3.1.x are read"])
        #expect(short.first?.suggestion == #"write the full version, such as "3.1.0""#)
        #expect(try Self.problems("").first?.message.hasPrefix("is empty") == true)
    }
}
