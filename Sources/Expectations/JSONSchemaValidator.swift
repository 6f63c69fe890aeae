import HTTPCore

/// What the keywords of a subschema evaluated at one instance location: the annotations `unevaluatedProperties`
/// and `unevaluatedItems` read (draft 2020-12 §11).
struct EvaluatedParts {
    var allProperties = false
    var properties: Set<String> = []
    var allItems = false
    /// Items `0..<itemPrefix` were evaluated (by `prefixItems`).
    var itemPrefix = 0
    /// Further items evaluated (those `contains` matched).
    var items: Set<Int> = []

    /// Adds what `other` evaluated.
    mutating func merge(_ other: EvaluatedParts) {
        allProperties = allProperties || other.allProperties
        if !allProperties { properties.formUnion(other.properties) }
        allItems = allItems || other.allItems
        itemPrefix = max(itemPrefix, other.itemPrefix)
        if !allItems { items.formUnion(other.items) }
    }

    /// Whether the property `name` was evaluated.
    func hasEvaluated(property name: String) -> Bool { allProperties || properties.contains(name) }
    /// Whether item `index` was evaluated.
    func hasEvaluated(item index: Int) -> Bool { allItems || index < itemPrefix || items.contains(index) }
}

/// Applies compiled schema nodes to an instance, collecting violations with their instance and schema locations.
///
/// Subschemas whose failures do not make the instance invalid by themselves (`anyOf` and `oneOf` branches,
/// `not`, `if`, `contains`) are evaluated muted: they report nothing, and stop at their first failure unless
/// what they evaluate is needed. What a failing branch of `anyOf`, `oneOf` or `if` evaluated does not count
/// for `unevaluated*`; what a failing `allOf` member or `$ref` evaluated does, since the schema fails anyway.
struct SchemaValidator {
    let nodes: [SchemaNode]
    let dynamicAnchors: [[String: Int]]
    let root: Int
    /// Whether violations are reported; `isValid` only needs the verdict.
    let reports: Bool
    private(set) var violations: [JSONSchemaViolation] = []
    /// How many muted subschemas enclose the current one.
    private var muted = 0
    /// The instance location being evaluated, as names and indexes.
    private var path: [JSONPathElement] = []
    /// The schema resources entered, outermost first (the dynamic scope of `$dynamicRef`).
    private var scope: [Int] = []
    /// The references being followed, with the instance depth each was followed at, to catch loops that
    /// apply a subschema to the same value again.
    private var references: [(node: Int, depth: Int)] = []
    /// Nested subschema applications, bounded so that no instance or loop exhausts the stack: 512 take about
    /// 350 KB of stack in a release build (a 512 KB thread stack is the smallest one to plan for), enough for a
    /// recursive schema over a value nested 250 levels deep.
    private var depth = 0
    static let maximumDepth = 512

    /// A validator of `schema`; with `reports` false it only finds the verdict.
    init(schema: JSONSchema, reports: Bool) {
        nodes = schema.nodes
        dynamicAnchors = schema.dynamicAnchors
        root = schema.root
        self.reports = reports
    }

    /// Validates `instance` against the root node; returns whether it is valid.
    @discardableResult
    mutating func validateRoot(_ instance: JSONValue) -> Bool {
        var none: EvaluatedParts?
        return validate(instance, against: root, evaluated: &none)
    }

    private var isReporting: Bool { reports && muted == 0 }

    /// Validates `instance` (at `path`) against node `index`, adding what it evaluated to `evaluated` when given.
    private mutating func validate(_ instance: JSONValue, against index: Int, evaluated: inout EvaluatedParts?) -> Bool {
        guard case .keywords(let keywords) = nodes[index].body, depth < Self.maximumDepth else {
            return rejectsOutright(index)
        }
        let node = nodes[index]
        depth += 1
        let entersResource = scope.last != node.resource
        if entersResource { scope.append(node.resource) }
        var own: EvaluatedParts? = evaluated != nil || node.tracksEvaluation ? EvaluatedParts() : nil
        var valid = true
        for keyword in keywords {
            guard !apply(keyword, to: instance, in: node, evaluated: &own) else { continue }
            // A failing subschema's verdict is settled; only a report needs the rest of its violations.
            valid = false
            if !isReporting { break }
        }
        if let own, evaluated != nil { evaluated!.merge(own) }
        depth -= 1
        if entersResource { scope.removeLast() }
        return valid
    }

    /// The verdict of a boolean schema, or of any schema past the depth limit (a violation, not a crash).
    /// Kept apart from `validate` so that the recursion's frames stay small.
    private mutating func rejectsOutright(_ index: Int) -> Bool {
        let node = nodes[index]
        switch node.body {
        case .always(let accepts, let keyword):
            if !accepts && isReporting { report(Self.falseSchemaMessage(at: path.last), keyword: keyword, schemaPath: node.location) }
            return accepts
        case .keywords:
            if isReporting {
                report("the schema applies subschemas deeper than \(Self.maximumDepth) levels here", keyword: "depth limit",
                       schemaPath: node.location)
            }
            return false
        }
    }

    /// Validates without reporting (a branch whose failure is not itself a violation).
    private mutating func validateMuted(_ instance: JSONValue, against index: Int, evaluated: inout EvaluatedParts?) -> Bool {
        muted += 1
        defer { muted -= 1 }
        return validate(instance, against: index, evaluated: &evaluated)
    }

    /// Validates a member or element of the instance; what it evaluates is its own business.
    private mutating func validate(_ instance: JSONValue, at element: JSONPathElement, against index: Int) -> Bool {
        path.append(element)
        defer { path.removeLast() }
        var none: EvaluatedParts?
        return validate(instance, against: index, evaluated: &none)
    }

    // MARK: Keywords

    // Recursion passes through `apply` and one small function per applicator; the assertions, with their
    // messages, live in `assert`, which recursion never passes through, so each nesting level costs little stack.

    /// Applies one keyword; returns whether the instance satisfies it.
    private mutating func apply(_ keyword: SchemaKeyword, to instance: JSONValue, in node: SchemaNode,
                                evaluated: inout EvaluatedParts?) -> Bool {
        switch keyword.rule {
        case .properties(let named, let patterns, let additional):
            guard case .object(let object) = instance else { return true }
            return applyProperties(object, named: named, patterns: patterns, additional: additional, evaluated: &evaluated)
        case .propertyNames(let schema):
            guard case .object(let object) = instance else { return true }
            return applyPropertyNames(object, schema: schema)
        case .dependencies(let required, let schemas):
            guard case .object(let object) = instance else { return true }
            return applyDependencies(object, required: required, schemas: schemas, keyword: keyword, node: node,
                                     evaluated: &evaluated)
        case .items(let prefix, let rest):
            guard case .array(let elements) = instance else { return true }
            return applyItems(elements, prefix: prefix, rest: rest, evaluated: &evaluated)
        case .contains(let schema, let minimum, let maximum, let minimumKeyword):
            guard case .array(let elements) = instance else { return true }
            return applyContains(elements, schema: schema, minimum: minimum, maximum: maximum,
                                 minimumKeyword: minimumKeyword, node: node, evaluated: &evaluated)
        case .allOf(let schemas):
            return applyAllOf(schemas, to: instance, evaluated: &evaluated)
        case .anyOf(let schemas):
            return applyAnyOf(schemas, to: instance, keyword: keyword, node: node, evaluated: &evaluated)
        case .oneOf(let schemas):
            return applyOneOf(schemas, to: instance, keyword: keyword, node: node, evaluated: &evaluated)
        case .not(let schema):
            return applyNot(schema, to: instance, keyword: keyword, node: node)
        case .conditional(let condition, let then, let otherwise):
            return applyConditional(condition, then: then, else: otherwise, to: instance, evaluated: &evaluated)
        case .ref(let target):
            return follow(target, instance: instance, keyword: keyword, node: node, evaluated: &evaluated)
        case .dynamicRef(let target, let anchor):
            return follow(dynamicTarget(target, anchor: anchor), instance: instance, keyword: keyword, node: node,
                          evaluated: &evaluated)
        case .unevaluatedProperties(let schema):
            guard case .object(let object) = instance else { return true }
            return applyUnevaluatedProperties(object, schema: schema, evaluated: &evaluated)
        case .unevaluatedItems(let schema):
            guard case .array(let elements) = instance else { return true }
            return applyUnevaluatedItems(elements, schema: schema, evaluated: &evaluated)
        default:
            return assert(keyword, on: instance, in: node)
        }
    }

    /// Applies a keyword that has no subschemas.
    private mutating func assert(_ keyword: SchemaKeyword, on instance: JSONValue, in node: SchemaNode) -> Bool {
        switch keyword.rule {
        case .types(let types):
            return check(types.contains(typeOf: instance), keyword.name, node) {
                "\(Self.show(instance)) is not of type \(types.description)"
            }
        case .enumeration(let values):
            return check(values.contains { $0.isIdentical(to: instance) }, keyword.name, node) {
                "\(Self.show(instance)) is not one of \(JSONValue.array(values).compactDescription(maxLength: 80))"
            }
        case .constant(let value):
            return check(instance.isIdentical(to: value), keyword.name, node) {
                "\(Self.show(instance)) is not equal to \(value.compactDescription(maxLength: 80))"
            }
        case .minimum(let bound):
            guard let order = JSONValue.numericOrder(instance, bound) else { return true }
            return check(order >= 0, keyword.name, node) { "\(Self.show(instance)) is less than the minimum \(Self.show(bound))" }
        case .exclusiveMinimum(let bound):
            guard let order = JSONValue.numericOrder(instance, bound) else { return true }
            return check(order > 0, keyword.name, node) { "\(Self.show(instance)) is not greater than \(Self.show(bound))" }
        case .maximum(let bound):
            guard let order = JSONValue.numericOrder(instance, bound) else { return true }
            return check(order <= 0, keyword.name, node) { "\(Self.show(instance)) is greater than the maximum \(Self.show(bound))" }
        case .exclusiveMaximum(let bound):
            guard let order = JSONValue.numericOrder(instance, bound) else { return true }
            return check(order < 0, keyword.name, node) { "\(Self.show(instance)) is not less than \(Self.show(bound))" }
        case .multipleOf(let divisor):
            guard let number = instance.numberValue else { return true }
            return check(Self.isMultiple(number, of: divisor, instance: instance), keyword.name, node) {
                "\(Self.show(instance)) is not a multiple of \(Self.show(divisor))"
            }
        case .minLength(let minimum):
            guard case .string(let text) = instance else { return true }
            return check(text.unicodeScalars.count >= minimum, keyword.name, node) {
                "\(Self.show(instance)) is shorter than \(Self.counted(minimum, "character"))"
            }
        case .maxLength(let maximum):
            guard case .string(let text) = instance else { return true }
            return check(text.unicodeScalars.count <= maximum, keyword.name, node) {
                "\(Self.show(instance)) is longer than \(Self.counted(maximum, "character"))"
            }
        case .pattern(let pattern, let expression):
            guard case .string(let text) = instance else { return true }
            return check(expression.hasMatch(in: text), keyword.name, node) {
                "\(Self.show(instance)) does not match the pattern '\(pattern)'"
            }
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            let missing = names.filter { object[$0] == nil }
            return check(missing.isEmpty, keyword.name, node) {
                "missing required \(missing.count == 1 ? "property" : "properties") "
                    + missing.map { "'\($0)'" }.joined(separator: ", ")
            }
        case .minProperties(let minimum):
            guard case .object(let object) = instance else { return true }
            return check(object.count >= minimum, keyword.name, node) {
                "has \(Self.counted(object.count, "property")), fewer than \(minimum)"
            }
        case .maxProperties(let maximum):
            guard case .object(let object) = instance else { return true }
            return check(object.count <= maximum, keyword.name, node) {
                "has \(Self.counted(object.count, "property")), more than \(maximum)"
            }
        case .minItems(let minimum):
            guard case .array(let elements) = instance else { return true }
            return check(elements.count >= minimum, keyword.name, node) {
                "has \(Self.counted(elements.count, "item")), fewer than \(minimum)"
            }
        case .maxItems(let maximum):
            guard case .array(let elements) = instance else { return true }
            return check(elements.count <= maximum, keyword.name, node) {
                "has \(Self.counted(elements.count, "item")), more than \(maximum)"
            }
        case .uniqueItems:
            guard case .array(let elements) = instance else { return true }
            // Hashing groups values equal up to Unicode normalization; identity decides within a group.
            var seen: [JSONValue: [Int]] = [:]
            for (offset, element) in elements.enumerated() {
                if let first = seen[element]?.first(where: { elements[$0].isIdentical(to: element) }) {
                    return check(false, keyword.name, node) { "items [\(first)] and [\(offset)] are equal; items must be unique" }
                }
                seen[element, default: []].append(offset)
            }
            return true
        default:
            return true
        }
    }

    /// `dependentRequired` and `dependentSchemas` (draft-07 `dependencies`) for the properties present.
    private mutating func applyDependencies(_ object: JSONObject, required: [(String, [String])], schemas: [(String, Int)],
                                            keyword: SchemaKeyword, node: SchemaNode,
                                            evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for (name, names) in required where object[name] != nil {
            let missing = names.filter { object[$0] == nil }
            valid = check(missing.isEmpty, keyword.name, node) {
                missing.map { "'\($0)'" }.joined(separator: ", ") + " \(missing.count == 1 ? "is" : "are") required "
                    + "when '\(name)' is present"
            } && valid
            if !valid && !isReporting { return false }
        }
        for (name, schema) in schemas where object[name] != nil {
            valid = validate(.object(object), against: schema, evaluated: &evaluated) && valid
            if !valid && !isReporting { return false }
        }
        return valid
    }

    /// `prefixItems` then `items` (draft-07: `items` as a list, then `additionalItems`), item by item.
    private mutating func applyItems(_ elements: [JSONValue], prefix: [Int], rest: Int?,
                                     evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for (offset, element) in elements.enumerated() {
            guard let schema = offset < prefix.count ? prefix[offset] : rest else { break }
            valid = validate(element, at: .index(offset), against: schema) && valid
            if !valid && !isReporting { return false }
        }
        if evaluated != nil {
            if rest != nil { evaluated!.allItems = true }
            evaluated!.itemPrefix = max(evaluated!.itemPrefix, min(prefix.count, elements.count))
        }
        return valid
    }

    /// Every subschema to the same value.
    private mutating func applyAllOf(_ schemas: [Int], to instance: JSONValue, evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for schema in schemas {
            valid = validate(instance, against: schema, evaluated: &evaluated) && valid
            if !valid && !isReporting { return false }
        }
        return valid
    }

    /// At least one subschema must match (branches muted; what matching ones evaluated counts).
    private mutating func applyAnyOf(_ schemas: [Int], to instance: JSONValue, keyword: SchemaKeyword, node: SchemaNode,
                                     evaluated: inout EvaluatedParts?) -> Bool {
        var matched = false
        for schema in schemas {
            var branch: EvaluatedParts? = evaluated == nil ? nil : EvaluatedParts()
            if validateMuted(instance, against: schema, evaluated: &branch) {
                matched = true
                // What every matching branch evaluated counts, so all are tried when that is needed.
                guard let branch else { break }
                evaluated!.merge(branch)
            }
        }
        let closest = matched || !isReporting ? "" : closestBranch(of: schemas, to: instance)
        return check(matched, keyword.name, node) { "matches none of the \(schemas.count) anyOf schemas" + closest }
    }

    /// Why the branch of `schemas` that `instance` comes closest to matching (the fewest violations, then the one whose
    /// first is deepest in the instance: its shape held further; the first of equals) fails, for a message saying none matched: ` (closest, schema 2 of 2: $.lives: '9' is not of type integer)`. Asked only
    /// when reporting: each branch is validated again, reporting on its own.
    private mutating func closestBranch(of schemas: [Int], to instance: JSONValue) -> String {
        var closest: (offset: Int, violations: [JSONSchemaViolation])?
        for (offset, schema) in schemas.enumerated() {
            let kept = violations
            violations = []
            var none: EvaluatedParts?
            _ = validate(instance, against: schema, evaluated: &none)
            if let first = violations.first, closest.map({ violations.count < $0.violations.count
                || violations.count == $0.violations.count && first.instancePointer.count > $0.violations[0].instancePointer.count }) ?? true {
                closest = (offset, violations)
            }
            violations = kept
        }
        guard let closest, let first = closest.violations.first else { return "" }
        let more = closest.violations.count > 1 ? " and \(closest.violations.count - 1) more" : ""
        return " (closest, schema \(closest.offset + 1) of \(schemas.count): \(first.instancePath): \(first.message)\(more))"
    }

    /// Exactly one subschema must match; a violation names the matching ones.
    private mutating func applyOneOf(_ schemas: [Int], to instance: JSONValue, keyword: SchemaKeyword, node: SchemaNode,
                                     evaluated: inout EvaluatedParts?) -> Bool {
        var matches: [Int] = []
        var parts: EvaluatedParts?
        for (offset, schema) in schemas.enumerated() {
            var branch: EvaluatedParts? = evaluated == nil ? nil : EvaluatedParts()
            if validateMuted(instance, against: schema, evaluated: &branch) {
                matches.append(offset)
                parts = branch
                if matches.count > 1 && !isReporting { break }
            }
        }
        if matches.count == 1, let parts { evaluated?.merge(parts) }
        let closest = !matches.isEmpty || !isReporting ? "" : closestBranch(of: schemas, to: instance)
        return check(matches.count == 1, keyword.name, node) {
            matches.isEmpty ? "matches none of the \(schemas.count) oneOf schemas; exactly one must match" + closest
                : "matches oneOf schemas \(matches.map(String.init).joined(separator: " and ")); exactly one must match"
        }
    }

    /// The subschema must not match.
    private mutating func applyNot(_ schema: Int, to instance: JSONValue, keyword: SchemaKeyword, node: SchemaNode) -> Bool {
        var none: EvaluatedParts?
        let matched = validateMuted(instance, against: schema, evaluated: &none)
        return check(!matched, keyword.name, node) { "\(Self.show(instance)) must not match the schema in 'not'" }
    }

    /// `if` (muted) decides whether `then` or `else` applies.
    private mutating func applyConditional(_ condition: Int, then: Int?, else otherwise: Int?, to instance: JSONValue,
                                           evaluated: inout EvaluatedParts?) -> Bool {
        var conditionParts: EvaluatedParts? = evaluated == nil ? nil : EvaluatedParts()
        if validateMuted(instance, against: condition, evaluated: &conditionParts) {
            if let conditionParts { evaluated!.merge(conditionParts) }
            guard let then else { return true }
            return validate(instance, against: then, evaluated: &evaluated)
        }
        guard let otherwise else { return true }
        return validate(instance, against: otherwise, evaluated: &evaluated)
    }

    /// The outermost resource of the dynamic scope with a `$dynamicAnchor` called `anchor` decides; `target`
    /// (the initial resolution) when none has one.
    private func dynamicTarget(_ target: Int, anchor: String) -> Int {
        for resource in scope {
            if let outermost = dynamicAnchors[resource][anchor] { return outermost }
        }
        return target
    }

    /// The subschema to every property nothing else evaluated.
    private mutating func applyUnevaluatedProperties(_ object: JSONObject, schema: Int,
                                                     evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for key in object.keys where evaluated?.hasEvaluated(property: key) != true {
            valid = validate(object[key]!, at: .name(key), against: schema) && valid
            if !valid && !isReporting { return false }
        }
        evaluated?.allProperties = true
        return valid
    }

    /// The subschema to every item nothing else evaluated.
    private mutating func applyUnevaluatedItems(_ elements: [JSONValue], schema: Int,
                                                evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for (offset, element) in elements.enumerated() where evaluated?.hasEvaluated(item: offset) != true {
            valid = validate(element, at: .index(offset), against: schema) && valid
            if !valid && !isReporting { return false }
        }
        evaluated?.allItems = true
        return valid
    }

    /// `$ref`/`$dynamicRef`: the target applies to the same value; one already being applied to it at this
    /// depth would apply forever, which fails with a violation instead.
    private mutating func follow(_ target: Int, instance: JSONValue, keyword: SchemaKeyword, node: SchemaNode,
                                 evaluated: inout EvaluatedParts?) -> Bool {
        for reference in references.reversed() {
            guard reference.depth == path.count else { break }
            if reference.node == target {
                let loopStart = nodes[target].location
                return check(false, keyword.name, node) {
                    "\(keyword.name) loops back to \(loopStart) without consuming any of the value"
                }
            }
        }
        references.append((target, path.count))
        defer { references.removeLast() }
        return validate(instance, against: target, evaluated: &evaluated)
    }

    /// Each member against its `properties` entry, matching `patternProperties`, or else `additionalProperties`.
    private mutating func applyProperties(_ object: JSONObject, named: [String: Int], patterns: [(RegularExpression, Int)],
                                          additional: Int?, evaluated: inout EvaluatedParts?) -> Bool {
        var valid = true
        for key in object.keys {
            let value = object[key]!
            var matched = false
            if let schema = named[key] {
                matched = true
                valid = validate(value, at: .name(key), against: schema) && valid
            }
            for (expression, schema) in patterns where expression.hasMatch(in: key) {
                matched = true
                valid = validate(value, at: .name(key), against: schema) && valid
            }
            if !matched, let additional {
                matched = true
                valid = validate(value, at: .name(key), against: additional) && valid
            }
            if matched { evaluated?.properties.insert(key) }
            if !valid && !isReporting { return false }
        }
        return valid
    }

    /// Each property name, as a string, against the `propertyNames` schema; a violation names the property.
    private mutating func applyPropertyNames(_ object: JSONObject, schema: Int) -> Bool {
        var valid = true
        for key in object.keys {
            let before = violations.count
            var none: EvaluatedParts?
            if !validate(.string(key), against: schema, evaluated: &none) {
                valid = false
                if !isReporting { return false }
                for index in before..<violations.count {
                    let violation = violations[index]
                    violations[index] = JSONSchemaViolation(
                        instancePath: violation.instancePath, instancePointer: violation.instancePointer,
                        keyword: violation.keyword, schemaPath: violation.schemaPath,
                        message: "property name \(Self.show(.string(key))): \(violation.message)")
                }
            }
        }
        return valid
    }

    /// Counts the items matching `contains` (muted) against its bounds; matches count as evaluated.
    private mutating func applyContains(_ elements: [JSONValue], schema: Int, minimum: Int, maximum: Int?,
                                        minimumKeyword: String, node: SchemaNode, evaluated: inout EvaluatedParts?) -> Bool {
        var matches = 0
        for (offset, element) in elements.enumerated() {
            path.append(.index(offset))
            var none: EvaluatedParts?
            let matched = validateMuted(element, against: schema, evaluated: &none)
            path.removeLast()
            if matched {
                matches += 1
                evaluated?.items.insert(offset)
                if maximum == nil && evaluated == nil && matches >= minimum { break }
            }
        }
        let name = matches < minimum ? minimumKeyword : "maxContains"
        return check(matches >= minimum && matches <= (maximum ?? Int.max), name, node) {
            if matches < minimum {
                return minimumKeyword == "contains" ? "no item matches the contains schema"
                    : "\(Self.counted(matches, "item")) \(matches == 1 ? "matches" : "match") the contains schema, fewer than \(minimum)"
            }
            return "\(Self.counted(matches, "item")) match the contains schema, more than \(maximum ?? 0)"
        }
    }

    // MARK: Reports

    /// Reports a violation of `keyword` unless `holds`; returns `holds`.
    private mutating func check(_ holds: Bool, _ keyword: String, _ node: SchemaNode, _ message: () -> String) -> Bool {
        if !holds && isReporting {
            report(message(), keyword: keyword, schemaPath: node.location + "/" + SchemaLocation.escape(keyword))
        }
        return holds
    }

    /// Adds a violation at the current instance location.
    private mutating func report(_ message: String, keyword: String, schemaPath: String) {
        violations.append(JSONSchemaViolation(
            instancePath: JSONPathElement.readablePath(path), instancePointer: Self.pointer(path), keyword: keyword,
            schemaPath: schemaPath, message: message))
    }

    /// The message of a `false` schema: what it forbids, by the instance location's last step.
    private static func falseSchemaMessage(at last: JSONPathElement?) -> String {
        switch last {
        case .name(let name)?: "property '\(name)' is not allowed"
        case .index(let index)?: "item \(index) is not allowed"
        case nil: "no value is allowed: the schema is false"
        }
    }

    /// The instance location as an RFC 6901 JSON pointer.
    private static func pointer(_ path: [JSONPathElement]) -> String {
        var pointer = ""
        for element in path {
            switch element {
            case .name(let name): pointer += "/" + SchemaLocation.escape(name)
            case .index(let index): pointer += "/" + String(index)
            }
        }
        return pointer
    }

    /// A value as a message shows it: a string in single quotes, anything else as compact JSON, both cut short.
    static func show(_ value: JSONValue) -> String {
        guard case .string(let text) = value else { return value.compactDescription(maxLength: 60) }
        return text.count > 60 ? "'\(text.prefix(59))…'" : "'\(text)'"
    }

    /// `1 item`, `3 items`; `property` becomes `properties`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        guard count != 1 else { return "1 \(noun)" }
        return noun.hasSuffix("y") ? "\(count) \(noun.dropLast())ies" : "\(count) \(noun)s"
    }

    /// Whether `number` is a multiple of `divisor`, exactly for integers, within rounding error otherwise.
    private static func isMultiple(_ number: Double, of divisor: Double, instance: JSONValue) -> Bool {
        if case .int(let integer) = instance, divisor == divisor.rounded(), divisor < 9e18 {
            return integer % Int(divisor) == 0
        }
        let quotient = number / divisor
        // A quotient too large for a Double is still exact for remainders (fmod does not round).
        guard quotient.isFinite else { return number.truncatingRemainder(dividingBy: divisor) == 0 }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// A bound as written: `5` rather than `5.0` for integral values.
    static func show(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

extension JSONValue {
    /// JSON Schema equality: `==` (numbers by value, `1 == 1.0`), except that strings must have the same Unicode
    /// scalars (Swift's `==` also equates canonically equivalent strings: `"é"` and `"e\u{301}"`).
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.string(a), .string(b)):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case let (.object(a), .object(b)):
            return a.count == b.count && a.keys.allSatisfy { key in b[key].map { a[key]!.isIdentical(to: $0) } ?? false }
        default:
            return self == other
        }
    }
}
