import HTTPCore

/// One compiled subschema: what it asserts, where it is, and which resource it belongs to.
struct SchemaNode: Sendable {
    /// What the subschema does.
    enum Body: Sendable {
        /// A boolean schema; `keyword` names what applied it (`additionalProperties`, `items`, …) for reports.
        case always(Bool, keyword: String)
        case keywords([SchemaKeyword])
    }

    let body: Body
    /// Where it is, as shown in reports: `#/properties/id`, `common.json#/$defs/id`.
    let location: String
    /// The index of its schema resource, for the dynamic scope of `$dynamicRef`.
    let resource: Int
    /// Whether it has `unevaluatedProperties` or `unevaluatedItems`, so its keywords must record what they evaluate.
    let tracksEvaluation: Bool
}

/// One compiled keyword (or group of keywords that act together); subschemas are node indexes.
struct SchemaKeyword: Sendable {
    /// The keyword as written, for reports (the first of a group).
    let name: String
    let rule: Rule

    /// What the keyword checks, with its compiled operands.
    enum Rule: Sendable {
        case types(JSONTypeSet)
        case enumeration([JSONValue])
        case constant(JSONValue)
        /// A bound as written (an integer past 64 bits a double): an instance compares with it exactly, as matchers do.
        case minimum(JSONValue)
        case exclusiveMinimum(JSONValue)
        case maximum(JSONValue)
        case exclusiveMaximum(JSONValue)
        case multipleOf(Double)
        case minLength(Int)
        case maxLength(Int)
        case pattern(String, RegularExpression)
        /// `properties`, `patternProperties` and `additionalProperties` of one schema.
        case properties(named: [String: Int], patterns: [(RegularExpression, Int)], additional: Int?)
        case propertyNames(Int)
        case required([String])
        /// `dependentRequired`, `dependentSchemas`, or draft-07 `dependencies` holding both kinds.
        case dependencies(required: [(String, [String])], schemas: [(String, Int)])
        case minProperties(Int)
        case maxProperties(Int)
        /// `prefixItems` and `items` (draft-07: `items` as a list and `additionalItems`).
        case items(prefix: [Int], rest: Int?)
        /// `contains` with `minContains` (1 unless given) and `maxContains`; `bound` names the keyword of a count failure.
        case contains(Int, minimum: Int, maximum: Int?, minimumKeyword: String)
        case minItems(Int)
        case maxItems(Int)
        case uniqueItems
        case allOf([Int])
        case anyOf([Int])
        case oneOf([Int])
        case not(Int)
        case conditional(if: Int, then: Int?, else: Int?)
        case ref(Int)
        /// A `$dynamicRef` whose initial target bookends `anchor`: it resolves in the dynamic scope.
        case dynamicRef(Int, anchor: String)
        case unevaluatedProperties(Int)
        case unevaluatedItems(Int)
    }
}

/// A set of JSON types, as `type` lists them.
struct JSONTypeSet: OptionSet, Sendable {
    let rawValue: UInt8
    static let null = JSONTypeSet(rawValue: 1), boolean = JSONTypeSet(rawValue: 2), integer = JSONTypeSet(rawValue: 4)
    static let number = JSONTypeSet(rawValue: 8), string = JSONTypeSet(rawValue: 16), array = JSONTypeSet(rawValue: 32)
    static let object = JSONTypeSet(rawValue: 64)

    static let names: [(String, JSONTypeSet)] = [
        ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number), ("string", .string),
        ("array", .array), ("object", .object),
    ]

    /// Whether `value` has one of the types (`integer`: a number without a fraction).
    func contains(typeOf value: JSONValue) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .int: !isDisjoint(with: [.integer, .number])
        case .double(let number):
            contains(.number) || (contains(.integer) && number.isFinite && number.rounded(.towardZero) == number)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }

    /// `integer or string`, in the order of `names`.
    var description: String { Self.names.filter { contains($0.1) }.map(\.0).joined(separator: " or ") }
}

/// The result of compiling: the nodes, the root's index and the `$dynamicAnchor` nodes of each resource.
struct CompiledSchema {
    let nodes: [SchemaNode]
    let root: Int
    let dynamicAnchors: [[String: Int]]
}

/// Turns schema documents into `SchemaNode`s: each subschema location compiles once, references become indexes.
struct SchemaCompiler {
    private var registry: SchemaRegistry
    private var nodes: [SchemaNode?] = []
    private var indexes: [SchemaLocation: Int] = [:]
    private var pending: [(index: Int, location: SchemaLocation)] = []
    /// Whether some `$dynamicRef` resolves dynamically, so every `$dynamicAnchor` must be compiled.
    private var usesDynamicScope = false

    /// A compiler for one schema; nothing is read until `compile(root:)`.
    init(options: JSONSchema.Options) {
        registry = SchemaRegistry(options: options)
    }

    /// Compiles the schema, every subschema in its document (used or not) and everything its references reach.
    mutating func compile(root value: JSONValue) throws(JSONSchemaError) -> CompiledSchema {
        let rootLocation = try registry.addRoot(value)
        guard value.isSchemaShaped else { throw registry.error("a schema must be an object or a boolean", at: rootLocation) }
        let root = node(at: rootLocation)
        let rootDocumentSchemas = registry.scanned.keys.filter { $0.document == 0 }.sorted { $0.pointer < $1.pointer }
        for location in rootDocumentSchemas { _ = node(at: location) }
        var anchorIndexes: [[String: Int]] = []
        repeat {
            while let next = pending.popLast() {
                nodes[next.index] = try compileNode(at: next.location)
            }
            if usesDynamicScope {
                anchorIndexes = []
                for resource in registry.resources {
                    var anchors: [String: Int] = [:]
                    for (name, location) in resource.dynamicAnchors { anchors[name] = node(at: location) }
                    anchorIndexes.append(anchors)
                }
            }
        } while !pending.isEmpty
        let compiled = nodes.map { $0! }
        try checkInPlaceCycles(compiled)
        return CompiledSchema(nodes: compiled, root: root, dynamicAnchors: anchorIndexes)
    }

    /// The node index of the subschema at `location`, queued for compilation the first time.
    private mutating func node(at location: SchemaLocation) -> Int {
        if let index = indexes[location] { return index }
        nodes.append(nil)
        indexes[location] = nodes.count - 1
        pending.append((nodes.count - 1, location))
        return nodes.count - 1
    }

    /// The node of a subschema written under `keyword` (and `token`s below it) of the schema at `location`.
    private mutating func subschema(_ value: JSONValue, of location: SchemaLocation, _ tokens: String...)
        throws(JSONSchemaError) -> Int {
        var target = location
        for token in tokens { target = target.appending(token) }
        guard value.isSchemaShaped else {
            throw registry.error("\(tokens.joined(separator: "/")) must be a schema (an object or a boolean)", at: target)
        }
        return node(at: target)
    }

    /// A location as reports show it: `#/properties/id`, `common.json#/$defs/id`.
    private func display(_ location: SchemaLocation) -> String {
        registry.documents.displayName(of: location.document) + "#" + location.pointer
    }

    /// Throws when subschemas apply one another to the same value in a loop (`$ref`s, through `allOf` and the
    /// like, back to where they started), which would never end, naming the loop.
    private func checkInPlaceCycles(_ compiled: [SchemaNode]) throws(JSONSchemaError) {
        var locations = [SchemaLocation](repeating: SchemaLocation(document: 0, pointer: ""), count: compiled.count)
        for (location, index) in indexes { locations[index] = location }
        /// Depth-first search state of a node.
        enum Mark { case unvisited, active, done }
        var marks = [Mark](repeating: .unvisited, count: compiled.count)
        var trail: [Int] = []
        /// Visits what `index` applies in place, throwing on reaching a node still being visited.
        func visit(_ index: Int) throws(JSONSchemaError) {
            marks[index] = .active
            trail.append(index)
            for (keyword, next) in Self.inPlaceApplications(of: compiled[index]) {
                switch marks[next] {
                case .active:
                    let loop = trail[trail.lastIndex(of: next)!...].map { compiled[$0].location } + [compiled[next].location]
                    throw registry.error("infinite loop: \(loop.joined(separator: " → ")) apply each other to the same value "
                                         + "without end", at: locations[index], keyword: keyword)
                case .unvisited: try visit(next)
                case .done: break
                }
            }
            trail.removeLast()
            marks[index] = .done
        }
        for index in compiled.indices where marks[index] == .unvisited { try visit(index) }
    }

    /// The subschemas a node applies to the very value it is given, with the keyword that applies each.
    private static func inPlaceApplications(of node: SchemaNode) -> [(String, Int)] {
        guard case .keywords(let keywords) = node.body else { return [] }
        var applications: [(String, Int)] = []
        for keyword in keywords {
            switch keyword.rule {
            case .allOf(let list), .anyOf(let list), .oneOf(let list):
                applications += list.map { (keyword.name, $0) }
            case .not(let schema), .ref(let schema), .dynamicRef(let schema, _): applications.append((keyword.name, schema))
            case .conditional(let condition, let then, let otherwise):
                applications += [condition, then, otherwise].compactMap { $0 }.map { (keyword.name, $0) }
            case .dependencies(_, let schemas): applications += schemas.map { (keyword.name, $0.1) }
            default: break
            }
        }
        return applications
    }

    // MARK: Nodes

    /// The node of the subschema at `location`, its keywords compiled (draft-07: `$ref` alone when present).
    private mutating func compileNode(at location: SchemaLocation) throws(JSONSchemaError) -> SchemaNode {
        guard let scanned = registry.scanned[location] else {
            throw registry.error("a schema must be an object or a boolean", at: location)
        }
        let value = scanned.value
        guard case .object(let schema) = value else {
            guard case .bool(let accepts) = value else { throw registry.error("a schema must be an object or a boolean", at: location) }
            return SchemaNode(body: .always(accepts, keyword: Self.applyingKeyword(location)), location: display(location),
                              resource: scanned.resource, tracksEvaluation: false)
        }
        var keywords: [SchemaKeyword] = []
        var context = KeywordContext(schema: schema, location: location, dialect: scanned.dialect)
        if scanned.dialect.draft == .draft7, let reference = schema["$ref"] {
            // Draft-07: $ref ignores its siblings.
            keywords.append(try referenceKeyword("$ref", reference, context))
        } else {
            for name in schema.keys {
                guard let keyword = try compileKeyword(name, schema[name]!, &context) else { continue }
                keywords.append(keyword)
            }
            // unevaluated* see what every other keyword evaluated, so they come last.
            keywords = keywords.filter { !Self.isUnevaluated($0.rule) } + keywords.filter { Self.isUnevaluated($0.rule) }
        }
        return SchemaNode(body: .keywords(keywords), location: display(location), resource: scanned.resource,
                          tracksEvaluation: keywords.contains { Self.isUnevaluated($0.rule) })
    }

    /// Whether the rule is `unevaluatedProperties` or `unevaluatedItems`.
    private static func isUnevaluated(_ rule: SchemaKeyword.Rule) -> Bool {
        switch rule {
        case .unevaluatedItems, .unevaluatedProperties: true
        default: false
        }
    }

    /// The keyword that applies a boolean subschema at `location`, for reports: `additionalProperties`,
    /// `properties` for `#/properties/a`, `items` for `#/prefixItems/0`…
    private static func applyingKeyword(_ location: SchemaLocation) -> String {
        let tokens = location.tokens
        guard let last = tokens.last else { return "false" }
        if tokens.count >= 2, Self.containerKeywords.contains(tokens[tokens.count - 2]) { return tokens[tokens.count - 2] }
        return last
    }

    private static let containerKeywords: Set<String> = [
        "properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions", "prefixItems",
        "allOf", "anyOf", "oneOf", "items",
    ]

    /// What compiling one keyword needs to know about its schema object.
    private struct KeywordContext {
        let schema: JSONObject
        let location: SchemaLocation
        let dialect: SchemaDialect
        /// Groups already compiled at their first keyword (`properties` with `additionalProperties`, …).
        var compiledGroups: Set<String> = []

        var isDraft7: Bool { dialect.draft == .draft7 }
    }

    // MARK: Keywords

    /// One keyword of a schema object compiled, or nil when it asserts nothing (annotations, unknown keywords,
    /// a group member compiled with the group's first keyword).
    private mutating func compileKeyword(_ name: String, _ value: JSONValue, _ context: inout KeywordContext)
        throws(JSONSchemaError) -> SchemaKeyword? {
        guard let vocabulary = Self.vocabulary(of: name, draft: context.dialect.draft) else { return nil }
        guard vocabulary.isEmpty || context.dialect.vocabularies.contains(vocabulary) else { return nil }
        let location = context.location
        /// The keyword `name` with `rule`.
        func keyword(_ rule: SchemaKeyword.Rule) -> SchemaKeyword { SchemaKeyword(name: name, rule: rule) }
        switch name {
        case "$ref", "$dynamicRef": return try referenceKeyword(name, value, context)
        case "type": return keyword(.types(try types(value, at: location)))
        case "enum":
            guard case .array(let values) = value else { throw wrongType(name, "an array", at: location) }
            return keyword(.enumeration(values))
        case "const": return keyword(.constant(value))
        case "minimum": return keyword(.minimum(try bound(value, name, at: location)))
        case "maximum": return keyword(.maximum(try bound(value, name, at: location)))
        case "exclusiveMinimum": return keyword(.exclusiveMinimum(try bound(value, name, at: location)))
        case "exclusiveMaximum": return keyword(.exclusiveMaximum(try bound(value, name, at: location)))
        case "multipleOf":
            let divisor = try number(value, name, at: location)
            guard divisor > 0 else { throw wrongType(name, "a number greater than 0", at: location) }
            return keyword(.multipleOf(divisor))
        case "minLength": return keyword(.minLength(try count(value, name, at: location)))
        case "maxLength": return keyword(.maxLength(try count(value, name, at: location)))
        case "pattern":
            guard case .string(let pattern) = value else { throw wrongType(name, "a string", at: location) }
            return keyword(.pattern(pattern, try regularExpression(pattern, at: location, name)))
        case "properties", "patternProperties", "additionalProperties":
            guard context.compiledGroups.insert("properties").inserted else { return nil }
            return keyword(try properties(context))
        case "propertyNames": return keyword(.propertyNames(try subschema(value, of: location, name)))
        case "required":
            return keyword(.required(try strings(value, name, at: location)))
        case "dependentRequired", "dependentSchemas", "dependencies":
            let split = try dependencies(value, name, context)
            return keyword(.dependencies(required: split.required, schemas: split.schemas))
        case "minProperties": return keyword(.minProperties(try count(value, name, at: location)))
        case "maxProperties": return keyword(.maxProperties(try count(value, name, at: location)))
        case "prefixItems", "items", "additionalItems":
            guard context.compiledGroups.insert("items").inserted else { return nil }
            return try items(name, context)
        case "contains", "minContains", "maxContains":
            guard let containsValue = context.schema["contains"] else { return nil }
            guard context.compiledGroups.insert("contains").inserted else { return nil }
            return try contains(containsValue, context)
        case "minItems": return keyword(.minItems(try count(value, name, at: location)))
        case "maxItems": return keyword(.maxItems(try count(value, name, at: location)))
        case "uniqueItems":
            guard case .bool(let unique) = value else { throw wrongType(name, "a boolean", at: location) }
            return unique ? keyword(.uniqueItems) : nil
        case "allOf": return keyword(.allOf(try schemaList(value, name, at: location)))
        case "anyOf": return keyword(.anyOf(try schemaList(value, name, at: location)))
        case "oneOf": return keyword(.oneOf(try schemaList(value, name, at: location)))
        case "not": return keyword(.not(try subschema(value, of: location, name)))
        case "if":
            let then = try context.schema["then"].map { (branch) throws(JSONSchemaError) in try subschema(branch, of: location, "then") }
            let otherwise = try context.schema["else"].map { (branch) throws(JSONSchemaError) in try subschema(branch, of: location, "else") }
            return keyword(.conditional(if: try subschema(value, of: location, name), then: then, else: otherwise))
        case "then", "else":
            // Compiled with `if`; without it they do nothing, but must still be schemas.
            _ = try subschema(value, of: location, name)
            return nil
        case "unevaluatedProperties": return keyword(.unevaluatedProperties(try subschema(value, of: location, name)))
        case "unevaluatedItems": return keyword(.unevaluatedItems(try subschema(value, of: location, name)))
        case "$defs", "definitions":
            guard case .object = value else { throw wrongType(name, "an object of schemas", at: location) }
            return nil
        default: return nil
        }
    }

    /// The vocabulary a keyword belongs to (empty for core), or nil when the draft has no such asserting keyword.
    private static func vocabulary(of name: String, draft: JSONSchemaDraft) -> SchemaVocabularies? {
        if draft == .draft7 { return draft7Keywords.contains(name) ? [] : nil }
        return keywords2020[name]
    }

    private static let keywords2020: [String: SchemaVocabularies] = {
        var table: [String: SchemaVocabularies] = ["$ref": [], "$dynamicRef": [], "$defs": [], "definitions": []]
        for name in ["prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
                     "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"] {
            table[name] = .applicator
        }
        for name in ["unevaluatedItems", "unevaluatedProperties"] { table[name] = .unevaluated }
        for name in ["type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
                     "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
                     "minContains", "maxProperties", "minProperties", "required", "dependentRequired"] {
            table[name] = .validation
        }
        return table
    }()

    private static let draft7Keywords: Set<String> = [
        "$ref", "definitions", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
        "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "additionalItems", "maxItems", "minItems",
        "uniqueItems", "contains", "maxProperties", "minProperties", "required", "properties", "patternProperties",
        "additionalProperties", "dependencies", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not",
    ]

    /// `$ref`, or `$dynamicRef`, which resolves in the dynamic scope when its initial target has a
    /// `$dynamicAnchor` of the fragment's name (the bookend) and behaves as `$ref` otherwise.
    private mutating func referenceKeyword(_ name: String, _ value: JSONValue, _ context: KeywordContext)
        throws(JSONSchemaError) -> SchemaKeyword {
        guard case .string(let reference) = value else { throw wrongType(name, "a URI reference string", at: context.location) }
        let target = try registry.resolve(reference, from: context.location, keyword: name)
        let index = node(at: target)
        if name == "$dynamicRef", let fragment = URIReference(reference).fragment, !fragment.isEmpty, !fragment.hasPrefix("/"),
           case .object(let targetSchema) = registry.value(at: target), targetSchema["$dynamicAnchor"] == .string(fragment) {
            usesDynamicScope = true
            return SchemaKeyword(name: name, rule: .dynamicRef(index, anchor: fragment))
        }
        return SchemaKeyword(name: name, rule: .ref(index))
    }

    /// `properties`, `patternProperties` and `additionalProperties` of one schema object as one rule.
    private mutating func properties(_ context: KeywordContext) throws(JSONSchemaError) -> SchemaKeyword.Rule {
        let schema = context.schema
        let location = context.location
        var named: [String: Int] = [:]
        if let value = schema["properties"] {
            guard case .object(let properties) = value else { throw wrongType("properties", "an object of schemas", at: location) }
            for key in properties.keys { named[key] = try subschema(properties[key]!, of: location, "properties", key) }
        }
        var patterns: [(RegularExpression, Int)] = []
        if let value = schema["patternProperties"] {
            guard case .object(let properties) = value else {
                throw wrongType("patternProperties", "an object of schemas", at: location)
            }
            for key in properties.keys {
                patterns.append((try regularExpression(key, at: location, "patternProperties"),
                                 try subschema(properties[key]!, of: location, "patternProperties", key)))
            }
        }
        let additional = try schema["additionalProperties"].map { (value) throws(JSONSchemaError) in
            try subschema(value, of: location, "additionalProperties")
        }
        return .properties(named: named, patterns: patterns, additional: additional)
    }

    /// `prefixItems` with `items`; in draft-07 `items` (a schema, or a list with `additionalItems` for the rest).
    private mutating func items(_ first: String, _ context: KeywordContext) throws(JSONSchemaError) -> SchemaKeyword? {
        let schema = context.schema
        let location = context.location
        if context.isDraft7 {
            switch schema["items"] {
            case .array(let list)?:
                let prefix = try schemaList(.array(list), "items", at: location, allowsEmpty: true)
                let rest = try schema["additionalItems"].map { (value) throws(JSONSchemaError) in
                    try subschema(value, of: location, "additionalItems")
                }
                return SchemaKeyword(name: "items", rule: .items(prefix: prefix, rest: rest))
            case let value?:
                return SchemaKeyword(name: "items", rule: .items(prefix: [], rest: try subschema(value, of: location, "items")))
            case nil:
                return nil
            }
        }
        if case .array? = schema["items"] {
            throw registry.error("items must be a schema in draft 2020-12; a list of schemas is prefixItems there "
                                 + "(or declare \"$schema\": \"\(JSONSchemaDraft.draft7.rawValue)\")",
                                 at: location, keyword: "items")
        }
        guard schema["prefixItems"] != nil || schema["items"] != nil else { return nil }
        let prefix = try schema["prefixItems"].map { (value) throws(JSONSchemaError) in
            try schemaList(value, "prefixItems", at: location)
        } ?? []
        let rest = try schema["items"].map { (value) throws(JSONSchemaError) in try subschema(value, of: location, "items") }
        return SchemaKeyword(name: first, rule: .items(prefix: prefix, rest: rest))
    }

    /// `contains` with its bounds (draft-07 has none: at least one item must match).
    private mutating func contains(_ value: JSONValue, _ context: KeywordContext) throws(JSONSchemaError) -> SchemaKeyword {
        let location = context.location
        var minimum = 1
        var maximum: Int?
        var minimumKeyword = "contains"
        if !context.isDraft7, context.dialect.vocabularies.contains(.validation) {
            if let given = context.schema["minContains"] {
                minimum = try count(given, "minContains", at: location)
                minimumKeyword = "minContains"
            }
            maximum = try context.schema["maxContains"].map { (given) throws(JSONSchemaError) in
                try count(given, "maxContains", at: location)
            }
        }
        return SchemaKeyword(name: "contains", rule: .contains(try subschema(value, of: location, "contains"),
                                                               minimum: minimum, maximum: maximum,
                                                               minimumKeyword: minimumKeyword))
    }

    /// `dependentRequired`/`dependentSchemas`, or draft-07 `dependencies` holding both kinds.
    private mutating func dependencies(_ value: JSONValue, _ name: String, _ context: KeywordContext)
        throws(JSONSchemaError) -> (required: [(String, [String])], schemas: [(String, Int)]) {
        guard case .object(let members) = value else { throw wrongType(name, "an object", at: context.location) }
        var required: [(String, [String])] = []
        var schemas: [(String, Int)] = []
        for key in members.keys {
            let member = members[key]!
            if name != "dependentSchemas", case .array = member {
                required.append((key, try strings(member, name, at: context.location)))
            } else if name != "dependentRequired" {
                schemas.append((key, try subschema(member, of: context.location, name, key)))
            } else {
                throw wrongType(name, "an object of string arrays", at: context.location)
            }
        }
        return (required, schemas)
    }

    /// The nodes of a list of subschemas (`allOf`, `prefixItems`, …).
    private mutating func schemaList(_ value: JSONValue, _ name: String, at location: SchemaLocation,
                                     allowsEmpty: Bool = false) throws(JSONSchemaError) -> [Int] {
        guard case .array(let schemas) = value, allowsEmpty || !schemas.isEmpty else {
            throw wrongType(name, "a non-empty array of schemas", at: location)
        }
        var indexes: [Int] = []
        for (offset, schema) in schemas.enumerated() {
            indexes.append(try subschema(schema, of: location, name, String(offset)))
        }
        return indexes
    }

    /// The types `type` names: one name or a list of them.
    private func types(_ value: JSONValue, at location: SchemaLocation) throws(JSONSchemaError) -> JSONTypeSet {
        let names: [JSONValue]
        switch value {
        case .string: names = [value]
        case .array(let list): names = list
        default: throw wrongType("type", "a type name or an array of them", at: location)
        }
        var types: JSONTypeSet = []
        for name in names {
            guard case .string(let text) = name, let type = JSONTypeSet.names.first(where: { $0.0 == text })?.1 else {
                throw registry.error("unknown type \(name.compactDescription()); expected one of "
                                     + JSONTypeSet.names.map(\.0).joined(separator: ", "), at: location, keyword: "type")
            }
            types.insert(type)
        }
        return types
    }

    /// A list of strings (`required`, a `dependentRequired` entry).
    private func strings(_ value: JSONValue, _ name: String, at location: SchemaLocation) throws(JSONSchemaError) -> [String] {
        guard case .array(let elements) = value else { throw wrongType(name, "an array of strings", at: location) }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrongType(name, "an array of strings", at: location) }
            strings.append(text)
        }
        return strings
    }

    /// A numeric operand.
    /// A number operand as written, for comparing exactly.
    private func bound(_ value: JSONValue, _ name: String, at location: SchemaLocation) throws(JSONSchemaError) -> JSONValue {
        _ = try number(value, name, at: location)
        return value
    }

    private func number(_ value: JSONValue, _ name: String, at location: SchemaLocation) throws(JSONSchemaError) -> Double {
        guard let number = value.numberValue else { throw wrongType(name, "a number", at: location) }
        return number
    }

    /// A non-negative integer operand (`2.0` counts); huge values are capped, since no instance reaches them.
    private func count(_ value: JSONValue, _ name: String, at location: SchemaLocation) throws(JSONSchemaError) -> Int {
        guard JSONTypeSet.integer.contains(typeOf: value), let number = value.numberValue, number >= 0 else {
            throw wrongType(name, "a non-negative integer", at: location)
        }
        return number >= Double(Int.max / 2) ? Int.max / 2 : Int(number)
    }

    /// A compiled ICU pattern (shared through the expression cache).
    private func regularExpression(_ pattern: String, at location: SchemaLocation, _ name: String)
        throws(JSONSchemaError) -> RegularExpression {
        do {
            return try RegularExpression.cached(icuPattern: pattern)
        } catch {
            throw registry.error("invalid regular expression '\(pattern)': \(error.reason)", at: location, keyword: name)
        }
    }

    /// The error of a keyword whose value has the wrong form.
    private func wrongType(_ name: String, _ expected: String, at location: SchemaLocation) -> JSONSchemaError {
        registry.error("\(name) must be \(expected)", at: location, keyword: name)
    }
}

extension JSONValue {
    /// Whether the value can be a schema: an object or a boolean.
    var isSchemaShaped: Bool {
        switch self {
        case .object, .bool: true
        default: false
        }
    }
}
