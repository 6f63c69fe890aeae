import Foundation

/// `runner import openapi` on a generated OpenAPI document of 500 operations, timed over several runs.
enum ImportBenchmark {
    /// Resources in the generated document; each has five operations (list, create, read, update, delete).
    static let resources = 100

    /// What the import of a 500-operation document must stay under, in seconds.
    static let target = 1.0

    /// Writes the document into `scratch`, imports it `runs` times (each into a new folder) and returns the median
    /// wall time as a table row with its range, against the target.
    static func rows(runner: String, scratch: URL, runs: Int) throws -> [ResultRow] {
        let spec = scratch.appendingPathComponent("openapi-500.yaml").path
        try CollectionGenerator.write(document(resources: resources), to: spec)
        var seconds: [Double] = []
        for run in 1...runs {
            progress("import openapi, run \(run)/\(runs)")
            let out = scratch.appendingPathComponent("imported-\(run)").path
            let measurement = try ChildProcess.measure(runner, ["import", "openapi", spec, "--out", out])
            guard measurement.exitStatus == 0 else {
                throw BenchmarkError(description: "runner import openapi \(spec) failed:\n\(measurement.errorTail)")
            }
            seconds.append(measurement.seconds)
            try? FileManager.default.removeItem(atPath: out)
        }
        let median = seconds.median
        return [ResultRow(measure: "import openapi, \(resources * 5) operations", unit: "s", runner: Figure.decimal(median),
                          ratio: "(\(Figure.decimal(seconds.min() ?? 0))-\(Figure.decimal(seconds.max() ?? 0)))",
                          target: "< \(Figure.decimal(target, places: 1)) s", verdict: Verdict(median < target))]
    }

    /// An OpenAPI 3.0 document (YAML) of `resources` tagged resources, each with a collection path (list with a
    /// required query parameter, create with a request body) and an item path (read, update, delete with a path
    /// parameter), every schema a `$ref` into `components`, bearer security for all and an API key for deletes.
    static func document(resources: Int) -> String {
        var text = """
            openapi: 3.0.3
            info: { title: Generated for runner-bench, version: "1.0" }
            servers:
              - url: "http://127.0.0.1:{port}/api"
                variables: { port: { default: "8080" } }
            security: [{ bearer: [] }]
            paths:

            """
        for index in 0..<resources { text += paths(of: index) }
        text += """
            components:
              securitySchemes:
                bearer: { type: http, scheme: bearer }
                apiKey: { type: apiKey, in: header, name: X-Api-Key }
              responses:
                Problem:
                  description: What went wrong.
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Problem" }
              schemas:
                Problem:
                  type: object
                  required: [message]
                  properties:
                    message: { type: string, example: not found }
                    code: { type: integer, nullable: true }

            """
        for index in 0..<resources { text += schemas(of: index) }
        return text
    }

    /// The two paths of resource `index`, with their five operations.
    private static func paths(of index: Int) -> String {
        let item = "Item\(index)"
        let reference = "{ $ref: \"#/components/schemas/\(item)\" }"
        return """
              /items\(index):
                get:
                  operationId: list\(item)s
                  summary: List the items of kind \(index)
                  tags: [items\(index)]
                  parameters:
                    - { name: page, in: query, required: true, schema: { type: integer, minimum: 1, example: 1 } }
                    - { name: q, in: query, schema: { type: string } }
                  responses:
                    "200":
                      description: A page of items.
                      headers:
                        X-Total-Count: { required: true, schema: { type: integer } }
                      content:
                        application/json:
                          schema: { type: array, items: \(reference) }
                    default: { $ref: "#/components/responses/Problem" }
                post:
                  operationId: create\(item)
                  tags: [items\(index)]
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: { $ref: "#/components/schemas/New\(item)" }
                  responses:
                    "201":
                      description: Created.
                      content:
                        application/json:
                          schema: \(reference)
                    "4XX": { $ref: "#/components/responses/Problem" }
              /items\(index)/{itemId}:
                parameters:
                  - { name: itemId, in: path, required: true, schema: { type: integer, example: 7 } }
                get:
                  operationId: get\(item)
                  tags: [items\(index)]
                  parameters:
                    - { name: X-Request-Id, in: header, required: true, schema: { type: string, format: uuid } }
                  responses:
                    "200":
                      description: The item.
                      content:
                        application/json:
                          schema: \(reference)
                    "404": { $ref: "#/components/responses/Problem" }
                put:
                  operationId: update\(item)
                  tags: [items\(index)]
                  requestBody:
                    content:
                      application/json:
                        schema: { $ref: "#/components/schemas/New\(item)" }
                        example: { name: renamed, price: 2.5 }
                  responses:
                    "200":
                      description: The updated item.
                      content:
                        application/json:
                          schema: \(reference)
                    default: { $ref: "#/components/responses/Problem" }
                delete:
                  operationId: delete\(item)
                  tags: [items\(index)]
                  security: [{ apiKey: [] }]
                  responses:
                    "204": { description: Deleted. }
                    default: { $ref: "#/components/responses/Problem" }

            """
    }

    /// The schemas of resource `index`: the item and what creating one sends (`allOf` of it and more).
    private static func schemas(of index: Int) -> String {
        """
                NewItem\(index):
                  type: object
                  required: [name]
                  properties:
                    name: { type: string, minLength: 1, example: widget \(index) }
                    price: { type: number, minimum: 0, exclusiveMinimum: true, example: 9.99 }
                    colour: { type: string, enum: [red, green, blue] }
                    tags: { type: array, items: { type: string }, maxItems: 10 }
                    note: { type: string, nullable: true }
                Item\(index):
                  allOf:
                    - { $ref: "#/components/schemas/NewItem\(index)" }
                    - type: object
                      required: [id]
                      properties:
                        id: { type: integer, example: 7 }
                        owner: { $ref: "#/components/schemas/Problem" }

            """
    }
}

extension RunnerBench {
    /// `--import-only`: times `runner import openapi` alone (no server) and prints its row.
    func measureImportOnly() throws {
        let generator = try CollectionGenerator.makeTemporary()
        defer { generator.remove() }
        let rows = try ImportBenchmark.rows(runner: runner, scratch: generator.root, runs: rounds)
        print("runner-bench: \(runner), median of \(rounds) runs (range in brackets)")
        print("")
        print(ResultTable.render(rows))
    }
}
