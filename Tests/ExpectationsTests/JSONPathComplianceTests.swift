import Foundation
import HTTPCore
import Testing
@testable import Expectations

/// The jsonpath-standard compliance test suite, read from the shared folder beside the package.
enum ComplianceSuite {
    /// `../shared/conformance/jsonpath-cts.json` relative to the package root.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/conformance/jsonpath-cts.json").standardizedFileURL

    static var isAvailable: Bool { FileManager.default.fileExists(atPath: url.path) }

    static let skipMessage: Comment = "JSONPath compliance suite not found at ../shared/conformance/jsonpath-cts.json; skipping"
}

@Suite struct JSONPathComplianceTests {
    @Test(.enabled(if: ComplianceSuite.isAvailable, ComplianceSuite.skipMessage))
    func passesEveryComplianceCase() throws {
        let suite = try JSONValue.parse(try Data(contentsOf: ComplianceSuite.url))
        guard case .object(let root) = suite, case .array(let cases)? = root["tests"] else {
            Issue.record("compliance suite has no tests array")
            return
        }
        let failures = cases.compactMap(Self.failure(of:))
        print("JSONPath compliance: \(cases.count - failures.count)/\(cases.count) cases passed")
        #expect(failures.isEmpty, "\(failures.count) failing cases:\n\(failures.joined(separator: "\n"))")
        #expect(cases.count > 600)
    }

    /// Why `testCase` fails, or nil when it passes.
    static func failure(of testCase: JSONValue) -> String? {
        guard case .object(let test) = testCase, case .string(let name)? = test["name"],
              case .string(let selector)? = test["selector"] else { return "malformed case \(testCase)" }
        let label = "\(name) [\(selector)]"
        let path: JSONPath
        do {
            path = try JSONPath(selector)
        } catch {
            return test["invalid_selector"] == .bool(true) ? nil : "\(label): unexpected error \(error)"
        }
        if test["invalid_selector"] == .bool(true) { return "\(label): accepted an invalid selector" }
        let nodes = path.select(in: test["document"] ?? .null)
        let values = JSONValue.array(nodes.map(\.value))
        let paths = JSONValue.array(nodes.map { .string($0.normalizedPath) })
        if let expected = test["result"] {
            guard values == expected else { return "\(label): got \(values.serialized()), expected \(expected.serialized())" }
            if let expectedPaths = test["result_paths"], paths != expectedPaths {
                return "\(label): paths \(paths.serialized()), expected \(expectedPaths.serialized())"
            }
            return nil
        }
        guard case .array(let alternatives)? = test["results"] else { return "\(label): no expected result" }
        var alternativePaths: [JSONValue] = []
        if case .array(let list)? = test["results_paths"] { alternativePaths = list }
        for (index, alternative) in alternatives.enumerated() where alternative == values {
            if index >= alternativePaths.count || alternativePaths[index] == paths { return nil }
        }
        return "\(label): got \(values.serialized()) at \(paths.serialized()), "
            + "expected one of \(JSONValue.array(alternatives).serialized())"
    }
}
