import Expectations
import Foundation
import HTTPCore
import Testing
import YAML
@testable import CollectionFormat

/// The JSON Schema of `runner schema` and the decoder agree: both take their keys from `FormatKeys`, every key one
/// accepts the other accepts, and every file of the repository is judged the same way by both.
@Suite struct FormatSchemaTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The compiled schema of a kind of file.
    private static func schema(_ kind: FormatSchema.FileKind) throws -> JSONSchema {
        try JSONSchema(FormatSchema.document(for: kind))
    }

    /// The errors the decoder reports for a file of `kind` with this content.
    private static func decodingErrors(_ content: JSONValue, _ kind: FormatSchema.FileKind) -> [Diagnostic] {
        decodingErrors(Array(content.serialized().utf8), kind)
    }

    private static func decodingErrors(_ bytes: [UInt8], _ kind: FormatSchema.FileKind) -> [Diagnostic] {
        let diagnostics = switch kind {
        case .request:
            FileDecoding.requestFile(bytes, path: "requests/r.yaml", absolutePath: "/project/requests/r.yaml", defaultName: "r").diagnostics
        case .environment:
            FileDecoding.environment(bytes, path: "environments/qa.yaml", name: "qa").diagnostics
        }
        return diagnostics.filter { $0.severity == .error }
    }

    /// The kind of file a mapping is tested in: request files when they reach it.
    private static func kind(reaching name: FormatMapping.Name) -> FormatSchema.FileKind {
        FormatSchema.reachableMappings(from: FormatKeys.requestFile).contains(name) ? .request : .environment
    }

    /// The keys the generated schema lists for a mapping.
    private static func schemaProperties(of name: FormatMapping.Name) -> [String] {
        let kind = kind(reaching: name)
        guard case .object(let document) = FormatSchema.document(for: kind), case .object(let definitions)? = document["$defs"],
              case .object(let mapping)? = definitions[name.rawValue], case .object(let properties)? = mapping["properties"]
        else { return [] }
        return properties.keys
    }

    // MARK: The table

    @Test func everyMappingHasDescribedUniqueKeysAndIsReachable() {
        let reachable = Set(FormatSchema.reachableMappings(from: FormatKeys.requestFile)
            + FormatSchema.reachableMappings(from: FormatKeys.environmentFile))
        for mapping in FormatKeys.all {
            #expect(reachable.contains(mapping.name), "\(mapping.name) is in no file")
            #expect(!mapping.description.isEmpty)
            #expect(Set(mapping.names).count == mapping.keys.count, "\(mapping.name) lists a key twice")
            for key in mapping.keys { #expect(!key.description.isEmpty, "\(mapping.name).\(key.name) has no description") }
            for key in mapping.required + (mapping.choice?.keys ?? []) {
                #expect(mapping.names.contains(key), "\(mapping.name): '\(key)' is required or chosen but not a key")
            }
        }
    }

    @Test func matcherOperatorsAreTheMatchersOfExpectations() {
        #expect(FormatKeys.matcher.names == Matcher<JSONValue>.operatorNames)
        #expect(Set(FormatKeys.durationMatcher.names).isSubset(of: FormatKeys.matcher.names))
        #expect(FormatKeys.bodyMatcher.names == FormatKeys.matcher.names + ["count"])
    }

    /// The decoders take their keys from the table: no `allowed:` list is written inline, and every key they read is
    /// a key of the table (so a key added to a decoder without the table fails here).
    @Test func decodersListNoKeysOfTheirOwn() throws {
        let folder = Self.repository.appendingPathComponent("Sources/CollectionFormat")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Decoding.swift") }
        #expect(files.count >= 5)
        let tableKeys = Set(FormatKeys.all.flatMap(\.names))
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.range(of: #"allowed\s*[:=][^,)]*""#, options: .regularExpression) == nil, "\(file) lists allowed keys inline")
            let lookup = try Regex(#"(?:fields|Fields)\[\s*"([^"]+)"\s*\]|\.keyNode\(\s*"([^"]+)"\s*\)|\.has\(\s*"([^"]+)"\s*\)"#)
            for match in text.matches(of: lookup) {
                let key = (match.output[1].substring ?? match.output[2].substring ?? match.output[3].substring).map(String.init) ?? ""
                #expect(tableKeys.contains(key), "\(file) reads the key '\(key)', which FormatKeys does not list")
            }
        }
    }

    /// An empty GraphQL document is refused by the schema as by the decoder (trial helper-145), and a blank one too.
    @Test func theSchemaRefusesAnEmptyGraphQLQuery() throws {
        let schema = try Self.schema(.request)
        for (query, valid) in [("{ users { name } }", true), ("", false), ("  \n", false)] {
            let file = try JSONValue.parse(#"{"request": {"url": "/graphql", "graphql": {"query": \#(JSONValue.string(query).serialized())}}}"#)
            #expect(schema.isValid(file) == valid, "\(file.serialized())")
            #expect(Self.decodingErrors(file, .request).isEmpty == valid, "\(file.serialized())")
        }
    }

    /// `capture` beside an `expect` holding `error` (no response to capture from) is refused by the schema as by the
    /// decoder, in a request file and in a flow's step (trial helper-145).
    @Test func theSchemaRefusesACaptureBesideAnExpectedError() throws {
        let schema = try Self.schema(.request)
        for (expect, valid) in [(#"{"error": "connection"}"#, false), (#"{"status": 200}"#, true)] {
            let step = #"{"request": {"url": "/a"}, "expect": \#(expect), "capture": {"a": "$.a"}}"#
            for file in [try JSONValue.parse(step), try JSONValue.parse(#"{"steps": [\#(step)]}"#)] {
                #expect(schema.isValid(file) == valid, "\(file.serialized())")
                #expect(Self.decodingErrors(file, .request).isEmpty == valid, "\(file.serialized())")
            }
        }
    }

    // MARK: Decoder and schema side by side

    /// Every key of every mapping, and a key of no mapping: the decoder accepts a key exactly where the table and the
    /// generated schema list it, and where it rejects one the schema does too.
    @Test(arguments: FormatMapping.Name.allCases)
    func decoderAndSchemaAllowTheSameKeys(_ name: FormatMapping.Name) throws {
        let mapping = FormatKeys.mapping(name), kind = Self.kind(reaching: name)
        let schema = try Self.schema(kind), properties = Self.schemaProperties(of: name)
        #expect(properties == mapping.names)
        let base = try #require(Samples.document(kind, placing: Samples.minimal(mapping), at: name))
        #expect(Self.decodingErrors(base, kind).isEmpty, "\(base.serialized()): \(Self.decodingErrors(base, kind))")
        #expect(schema.validate(base).isEmpty, "\(base.serialized()): \(schema.validate(base))")

        for key in Set(FormatKeys.all.flatMap(\.names) + ["notAKey"]).sorted() {
            let value = Samples.value(FormatKeys.all.lazy.compactMap { $0.keys.first { $0.name == key } }.first?.shape ?? .text)
            let content = try #require(Samples.document(kind, placing: Samples.setting(key, to: value, in: mapping), at: name))
            let errors = Self.decodingErrors(content, kind)
            if mapping.names.contains(key) {
                #expect(!errors.contains { Samples.rejectsAsUnknown($0, key) }, "\(name).\(key): \(errors)")
                #expect(properties.contains(key))
                if errors.isEmpty { #expect(schema.validate(content).isEmpty, "\(content.serialized()): \(schema.validate(content))") }
            } else {
                #expect(!errors.isEmpty, "the decoder accepts '\(key)' in \(name): \(content.serialized())")
                #expect(!schema.isValid(content), "the schema accepts '\(key)' in \(name): \(content.serialized())")
            }
        }
    }

    /// Required keys, choices, keys that stand alone or need another and non-empty mappings: leaving out what is required, or writing
    /// two keys that exclude each other, is an error for the decoder and a violation of the schema.
    @Test(arguments: FormatMapping.Name.allCases)
    func decoderAndSchemaRequireTheSameKeys(_ name: FormatMapping.Name) throws {
        let mapping = FormatKeys.mapping(name), kind = Self.kind(reaching: name)
        let schema = try Self.schema(kind), base = Samples.minimal(mapping)
        var broken: [JSONObject] = mapping.required.map { key in
            var object = base
            object[key] = nil
            return object
        }
        if let choice = mapping.choice {
            var none = base
            for key in choice.keys { none[key] = nil }
            if choice.required { broken.append(none) }
            var two = none
            for key in choice.keys.prefix(2) { two[key] = Samples.value(mapping.keys.first { $0.name == key }!.shape) }
            broken.append(two)
        }
        if mapping.nonEmpty { broken.append(JSONObject()) }
        for key in mapping.alone {
            let other = try #require(mapping.keys.first { $0.name != key && base[$0.name] == nil })
            var object = Samples.setting(key, to: Samples.value(mapping.keys.first { $0.name == key }!.shape), in: mapping)
            object[other.name] = Samples.value(other.shape)
            broken.append(object)
        }
        for (key, other) in mapping.needs {
            var object = Samples.setting(key, to: Samples.value(mapping.keys.first { $0.name == key }!.shape), in: mapping)
            object[other] = nil
            broken.append(object)
        }
        for object in broken {
            let content = try #require(Samples.document(kind, placing: object, at: name))
            #expect(!Self.decodingErrors(content, kind).isEmpty, "the decoder accepts \(content.serialized())")
            #expect(!schema.isValid(content), "the schema accepts \(content.serialized())")
        }
    }

    /// A value of the wrong type for each key (null, a list of a mapping, a mapping with an unknown key): the
    /// decoder reports an error exactly when the schema rejects it.
    @Test(arguments: FormatMapping.Name.allCases)
    func decoderAndSchemaRejectTheSameTypes(_ name: FormatMapping.Name) throws {
        let mapping = FormatKeys.mapping(name), kind = Self.kind(reaching: name)
        let schema = try Self.schema(kind)
        let probes: [JSONValue] = [.null, .array([.object(JSONObject())]), .object(JSONObject([("notAKey", .int(1))]))]
        for key in mapping.names {
            for probe in probes {
                let content = try #require(Samples.document(kind, placing: Samples.setting(key, to: probe, in: mapping), at: name))
                let errors = Self.decodingErrors(content, kind)
                #expect(errors.isEmpty == schema.isValid(content),
                        "\(name).\(key) = \(probe.serialized()): decoder \(errors), schema \(schema.validate(content))")
            }
        }
    }

    /// What a user's trial found the schema accepting although the runner refuses it: `expect.error` beside another
    /// expectation, and `stopWhen` in an environment's retry (it belongs beside a request's expectations).
    @Test(arguments: [
        (FormatSchema.FileKind.request, #"{"request": {"url": "/a"}, "expect": {"error": "timeout", "status": 200}}"#),
        (.request, #"{"steps": [{"request": {"url": "/a"}, "options": {"retry": {"stopWhen": {"error": "tls", "text": "x"}}}}]}"#),
        (.environment, #"{"options": {"retry": {"attempts": 3, "on": ["expectations"], "stopWhen": {"status": 500}}}}"#),
        // A capture's name that is no variable's, a header name that is no HTTP token, a parameter without a value.
        (.request, #"{"request": {"url": "/a"}, "capture": {"1x": "$.a"}}"#),
        (.request, #"{"request": {"url": "/a"}, "capture": {"a€": "$.a", "a²": "$.b"}}"#),
        (.request, #"{"request": {"url": "/a"}, "capture": {"x\u200B": "$.a"}}"#),
        (.request, #"{"request": {"url": "/a"}, "capture": {"a\u2028b": "$.a"}}"#),
        (.request, #"{"request": {"url": "/a"}, "capture": {"a\uFEFF": "$.a"}}"#),
        (.request, #"{"steps": [{"use": "_a.yaml", "with": {"a b": 1}}]}"#),
        (.environment, #"{"variables": {"a b": 1}}"#),
        (.environment, #"{"secrets": {"s t": {"env": "S"}}}"#),
        (.request, #"{"request": {"url": "/a", "headers": {"X A": "1"}}}"#),
        (.request, #"{"request": {"url": "/a"}, "expect": {"headers": {"X:A": "1"}}}"#),
        (.environment, #"{"headers": {"X A": "1"}}"#),
        (.request, #"{"request": {"url": "/a", "query": {"p": null}}}"#),
        (.request, #"{"request": {"url": "/a", "form": {"p": [1, null]}}}"#),
    ])
    func theSchemaRejectsWhatTheRunnerRejects(_ kind: FormatSchema.FileKind, _ text: String) throws {
        let content = try JSONValue.parse(text)
        #expect(!Self.decodingErrors(content, kind).isEmpty, "the decoder accepts \(text)")
        #expect(!(try Self.schema(kind)).isValid(content), "the schema accepts \(text)")
    }

    /// Names the runner takes are taken by the schema too: a capture named in another script, any HTTP token as a header.
    @Test func theSchemaTakesTheNamesTheRunnerTakes() throws {
        let text = #"{"request": {"url": "/a", "headers": {"X-Trace_ID.v2~!": "1"}, "query": {"p": [1, "a", true]}}, "capture": {"naïve_id-2": "$.a", "_x": "$.b"}}"#
        let content = try JSONValue.parse(text)
        #expect(Self.decodingErrors(content, .request).isEmpty)
        let schema = try Self.schema(.request)
        #expect(schema.isValid(content), "\(schema.validate(content))")
    }

    /// A status written as quoted digits, which the runner reads as the code they spell, is no error in an editor either
    /// (trial helper-199 #3); quoted digits outside 100–599 are refused by both.
    @Test func theSchemaTakesAStatusWrittenAsQuotedDigits() throws {
        let schema = try Self.schema(.request)
        for status in [#""200""#, #"["200", 201, "4xx"]"#, #"{"in": ["204", 200]}"#] {
            let content = try JSONValue.parse(#"{"request": {"url": "/a"}, "expect": {"status": \#(status)}}"#)
            #expect(Self.decodingErrors(content, .request).isEmpty, "\(status)")
            #expect(schema.isValid(content), "\(status): \(schema.validate(content))")
        }
        let outside = try JSONValue.parse(#"{"request": {"url": "/a"}, "expect": {"status": "700"}}"#)
        #expect(!Self.decodingErrors(outside, .request).isEmpty)
        #expect(!schema.isValid(outside))
    }

    // MARK: The repository's files

    /// Every YAML file of the example collection and the end-to-end tests: a file the decoder accepts, the schema
    /// accepts; a file it rejects for a structural reason (an unknown key, a wrong type, a missing key), the schema
    /// rejects.
    @Test func theSchemaJudgesEveryCollectionFileOfTheRepositoryAsTheDecoderDoes() throws {
        let schemas = try [FormatSchema.FileKind.request: Self.schema(.request), .environment: Self.schema(.environment)]
        var accepted = 0, structurallyRejected = 0
        for url in try Self.collectionFiles() {
            let kind: FormatSchema.FileKind = url.pathComponents.contains("environments") ? .environment : .request
            let bytes = try Array(Data(contentsOf: url))
            guard let root = try? YAMLParser.parse(bytes), let content = Samples.json(root) else { continue }
            let errors = Self.decodingErrors(bytes, kind)
            let violations = schemas[kind]!.validate(content)
            let place = url.path.replacingOccurrences(of: Self.repository.path + "/", with: "")
            if errors.isEmpty {
                accepted += 1
                #expect(violations.isEmpty, "\(place) is valid, but the schema says \(violations)")
            } else if let structural = errors.first(where: Samples.isStructural) {
                structurallyRejected += 1
                #expect(!violations.isEmpty, "\(place): the decoder says '\(structural.message)', the schema accepts it")
            }
        }
        #expect(accepted >= 50 && structurallyRejected >= 15, "accepted \(accepted), rejected \(structurallyRejected)")
    }

    /// The request and environment files of `requests/`, `environments/` and the end-to-end fixtures and scenarios.
    private static func collectionFiles() throws -> [URL] {
        let folders = ["requests", "environments", "Tests/EndToEndTests/Fixtures", "Tests/EndToEndTests/Scenarios"]
        return try folders.flatMap { folder in
            let root = repository.appendingPathComponent(folder)
            return try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .map { root.appendingPathComponent($0) }
        }
    }
}

/// Small documents of the format, made from the table: the least each mapping needs, and a whole file that holds
/// one mapping.
private enum Samples {
    /// A valid value of a shape (file paths and variables are not checked when a single file is decoded).
    static func value(_ shape: ValueShape) -> JSONValue {
        switch shape {
        case .text, .scalar, .anyValue, .notMapping: .string("x")
        case .filePath: .string("file.json")
        case .string(_, let example): .string(example)
        case .boolean: .bool(true)
        case .integer(let range): .int(range.lowerBound)
        case .number, .positiveNumber: .int(1)
        case .duration: .string("1s")
        case .oneOf(let values): values[0]
        case .list(let element, _): .array([value(element)])
        case .scalarOrList(let element): value(element)
        case .mapping(let element, _): .object(JSONObject([("a", value(element))]))
        case .queries(let element): .object(JSONObject([("$.a", value(element))]))
        case .templates(let element): .object(JSONObject([("{{ a }}", value(element))]))
        case .keys(let name): .object(minimal(FormatKeys.mapping(name)))
        case .anyOf(let shapes): value(shapes[0])
        }
    }

    /// A mapping with its required keys, the first key of a required choice, and a first key when it may not be empty.
    static func minimal(_ mapping: FormatMapping) -> JSONObject {
        var object = JSONObject()
        var keys = mapping.required
        if let choice = mapping.choice, choice.required { keys.append(choice.keys[0]) }
        if keys.isEmpty, mapping.nonEmpty { keys.append(mapping.names[0]) }
        for key in mapping.keys where keys.contains(key.name) { object[key.name] = value(key.shape) }
        return object
    }

    /// `object` with `key` set to `value`, without the keys its choice excludes.
    static func setting(_ key: String, to value: JSONValue, in mapping: FormatMapping) -> JSONObject {
        var object = minimal(mapping)
        if let choice = mapping.choice, choice.keys.contains(key) {
            for other in choice.keys { object[other] = nil }
        }
        object[key] = value
        return object
    }

    /// What a key on the way needs beside it: `stopWhen` is allowed only where `retry` polls.
    private static let companions: [String: JSONObject] = [
        "stopWhen": JSONObject([("on", .array([.string("expectations")])), ("attempts", .int(2))]),
    ]

    /// A whole file of `kind` in which the mapping `target` is `object`; nil when such files do not hold it. The
    /// shortest way there is taken (so `expect` is a request's, not the one inside `options.retry.stopWhen`).
    static func document(_ kind: FormatSchema.FileKind, placing object: JSONObject, at target: FormatMapping.Name) -> JSONValue? {
        let file = kind == .request ? FormatKeys.requestFile : FormatKeys.environmentFile
        return (1...FormatMapping.Name.allCases.count).lazy.compactMap { depth in
            place(object, at: target, in: file, passing: [], depth: depth)
        }.first
    }

    /// A value of `shape` that leads to `target`, which holds `object`, through at most `depth` mappings; the first
    /// way the table lists.
    private static func place(_ object: JSONObject, at target: FormatMapping.Name, in shape: ValueShape,
                              passing visited: Set<FormatMapping.Name>, depth: Int) -> JSONValue? {
        func place(_ shape: ValueShape, passing visited: Set<FormatMapping.Name>) -> JSONValue? {
            Self.place(object, at: target, in: shape, passing: visited, depth: depth)
        }
        switch shape {
        case .keys(let name) where name == target:
            return .object(object)
        case .keys(let name) where !visited.contains(name) && visited.count < depth:
            let mapping = FormatKeys.mapping(name)
            for key in mapping.keys {
                if let inner = place(key.shape, passing: visited.union([name])) {
                    var placed = setting(key.name, to: inner, in: mapping)
                    for (companion, value) in companions[key.name]?.members ?? [] { placed[companion] = value }
                    return .object(placed)
                }
            }
            return nil
        case .anyOf(let shapes):
            return shapes.lazy.compactMap { place($0, passing: visited) }.first
        case .list(let element, _):
            return place(element, passing: visited).map { .array([$0]) }
        case .scalarOrList(let element):
            return place(element, passing: visited)
        case .mapping(let element, _):
            return place(element, passing: visited).map { .object(JSONObject([("a", $0)])) }
        case .queries(let element):
            return place(element, passing: visited).map { .object(JSONObject([("$.a", $0)])) }
        case .templates(let element):
            return place(element, passing: visited).map { .object(JSONObject([("{{ a }}", $0)])) }
        default:
            return nil
        }
    }

    /// Whether a diagnostic rejects `key` as unknown where it is written.
    static func rejectsAsUnknown(_ diagnostic: Diagnostic, _ key: String) -> Bool {
        let message = diagnostic.message
        return message.contains("'\(key)'")
            && (message.hasPrefix("unknown key") || message.hasPrefix("unknown matcher operator") || message.hasPrefix("operator '"))
    }

    /// Whether a decoder error is about the file's structure: unknown, missing or excluded keys, or a value of the
    /// wrong type or out of its range.
    static func isStructural(_ diagnostic: Diagnostic) -> Bool {
        let message = diagnostic.message
        let prefixes = ["unknown key", "unknown matcher operator", "operator '", "missing key", "more than one", "a multipart part",
                        "empty matcher", "'steps' is empty", "'auth' is empty", "'expect.status' is an empty list",
                        "invalid status", "unknown backoff", "unknown retry condition", "unknown error kind", "unknown type"]
        return prefixes.contains { message.hasPrefix($0) } || (message.hasPrefix("expected ") && message.contains(", found "))
    }

    /// A YAML node as a JSON value (keys as their text); nil for a tree too large to check.
    static func json(_ node: Node) -> JSONValue? {
        var budget = 100_000
        return json(node, budget: &budget)
    }

    private static func json(_ node: Node, budget: inout Int) -> JSONValue? {
        budget -= 1
        guard budget > 0 else { return nil }
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case .string(let text): return .string(text)
            }
        case .sequence(let items):
            var elements: [JSONValue] = []
            for item in items {
                guard let element = json(item, budget: &budget) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case .mapping(let pairs):
            var object = JSONObject()
            for pair in pairs {
                guard let value = json(pair.value, budget: &budget) else { return nil }
                object[pair.key.scalarText ?? ""] = value
            }
            return .object(object)
        }
    }
}
