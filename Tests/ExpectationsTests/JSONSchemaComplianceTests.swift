import Foundation
import HTTPCore
import Testing
import Expectations

/// The official JSON-Schema-Test-Suite, read from the shared folder beside the package (never copied here).
enum SchemaTestSuite {
    /// `../shared/conformance/JSON-Schema-Test-Suite` relative to the package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/conformance/JSON-Schema-Test-Suite").standardizedFileURL

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("tests").path) }

    static let skipMessage: Comment =
        "JSON-Schema-Test-Suite not found at ../shared/conformance/JSON-Schema-Test-Suite; skipping"

    /// Every file under `remotes/` by the URI the suite serves it at (`http://localhost:1234/…`), so that
    /// references to the remote server resolve without one.
    static func remotes() throws -> [String: JSONValue] {
        let directory = root.appendingPathComponent("remotes")
        var documents: [String: JSONValue] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".json") else { continue }
            let data = try Data(contentsOf: directory.appendingPathComponent(relative))
            documents["http://localhost:1234/" + relative] = try JSONValue.parse(data)
        }
        return documents
    }

    /// The required test files of a draft (`tests/<draft>/*.json`, not `optional/`), in name order.
    static func files(of draft: String) throws -> [URL] {
        let directory = root.appendingPathComponent("tests").appendingPathComponent(draft)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

@Suite struct JSONSchemaComplianceTests {
    @Test(.enabled(if: SchemaTestSuite.isAvailable, SchemaTestSuite.skipMessage),
          arguments: [("draft2020-12", JSONSchemaDraft.draft2020_12), ("draft7", JSONSchemaDraft.draft7)])
    func passesEveryRequiredTest(folder: String, draft: JSONSchemaDraft) throws {
        var options = JSONSchema.Options()
        options.defaultDraft = draft
        options.documents = try SchemaTestSuite.remotes()
        var passed = 0
        var failures: [String] = []
        for file in try SchemaTestSuite.files(of: folder) {
            guard case .array(let groups) = try JSONValue.parse(try Data(contentsOf: file)) else {
                failures.append("\(file.lastPathComponent): not a list of test groups")
                continue
            }
            for group in groups {
                let outcome = Self.run(group, options: options, file: file.lastPathComponent)
                passed += outcome.passed
                failures += outcome.failures
            }
        }
        print("JSON-Schema-Test-Suite \(folder): \(passed)/\(passed + failures.count) required tests passed, 0 skipped")
        #expect(failures.isEmpty, "\(failures.count) failing tests:\n\(failures.joined(separator: "\n"))")
        #expect(passed > 900)
    }

    /// Runs one test group: compiles its schema once and checks each test's verdict, both with `isValid` and
    /// with the violations `validate` reports.
    static func run(_ group: JSONValue, options: JSONSchema.Options, file: String) -> (passed: Int, failures: [String]) {
        guard case .object(let fields) = group, case .string(let description)? = fields["description"],
              let schemaValue = fields["schema"], case .array(let tests)? = fields["tests"] else {
            return (0, ["\(file): malformed test group"])
        }
        let schema: JSONSchema
        do {
            schema = try JSONSchema(schemaValue, options: options)
        } catch {
            return (0, tests.map { _ in "\(file) / \(description): schema did not compile: \(error)" })
        }
        var passed = 0
        var failures: [String] = []
        for test in tests {
            guard case .object(let testFields) = test, case .string(let name)? = testFields["description"],
                  let data = testFields["data"], case .bool(let expected)? = testFields["valid"] else {
                failures.append("\(file) / \(description): malformed test")
                continue
            }
            let violations = schema.validate(data)
            let verdict = schema.isValid(data)
            if verdict == expected && violations.isEmpty == expected {
                passed += 1
            } else {
                let shown = violations.prefix(3).map(\.description).joined(separator: "; ")
                failures.append("\(file) / \(description) / \(name): expected \(expected ? "valid" : "invalid"), "
                                + "isValid says \(verdict), violations: [\(shown)]")
            }
        }
        return (passed, failures)
    }
}
