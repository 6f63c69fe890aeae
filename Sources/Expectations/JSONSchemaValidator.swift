import HTTPCore

/// Applies compiled schema nodes to an instance, collecting violations.
struct SchemaValidator {
    let nodes: [SchemaNode]
    private(set) var violations: [JSONSchemaViolation] = []
    /// Nested subschema applications, bounded so that `$ref` cycles that consume nothing stop.
    private var depth = 0
    private static let maximumDepth = 256

    init(nodes: [SchemaNode]) {
        self.nodes = nodes
    }

    /// Validates `instance` (at `location`) against node `index`.
    mutating func validate(_ instance: JSONValue, against index: Int, at location: PathLocation?) {
        depth += 1
        defer { depth -= 1 }
        switch nodes[index] {
        case .always(let accepts, let path):
            if !accepts { report("no value is allowed here (schema false)", at: location, schemaPath: path) }
        case .keywords(let keywords, let path):
            guard depth <= Self.maximumDepth else {
                report("schema references nest deeper than \(Self.maximumDepth) levels", at: location, schemaPath: path)
                return
            }
            for keyword in keywords { apply(keyword, to: instance, at: location, schemaPath: path) }
        }
    }

    /// Whether `instance` is valid against node `index`, without reporting.
    private mutating func isValid(_ instance: JSONValue, against index: Int, at location: PathLocation?) -> Bool {
        let saved = violations
        violations = []
        validate(instance, against: index, at: location)
        let valid = violations.isEmpty
        violations = saved
        return valid
    }

    private mutating func report(_ message: String, at location: PathLocation?, schemaPath: String) {
        violations.append(JSONSchemaViolation(
            instancePath: JSONPathElement.readablePath(location?.elements ?? []), schemaPath: schemaPath, message: message))
    }

    // MARK: Keywords

    private mutating func apply(_ keyword: SchemaKeyword, to instance: JSONValue, at location: PathLocation?,
                                schemaPath: String) {
        func fail(_ keywordName: String, _ message: String) {
            report(message, at: location, schemaPath: "\(schemaPath)/\(keywordName)")
        }
        let shown = instance.compactDescription(maxLength: 60)
        switch keyword {
        case .types(let types):
            if !types.contains(where: instance.hasType) {
                let names = types.map(\.rawValue).sorted().joined(separator: " or ")
                fail("type", "expected type \(names), got \(shown)")
            }
        case .enumeration(let values):
            if !values.contains(instance) {
                fail("enum", "expected one of \(JSONValue.array(values).compactDescription(maxLength: 60)), got \(shown)")
            }
        case .constant(let value):
            if instance != value { fail("const", "expected \(value.compactDescription(maxLength: 60)), got \(shown)") }
        case .minimum(let bound, let exclusive):
            guard let number = instance.numberValue else { return }
            if exclusive ? number <= bound : number < bound {
                fail(exclusive ? "exclusiveMinimum" : "minimum",
                     "expected a number \(exclusive ? "greater than" : "at least") \(Self.show(bound)), got \(shown)")
            }
        case .maximum(let bound, let exclusive):
            guard let number = instance.numberValue else { return }
            if exclusive ? number >= bound : number > bound {
                fail(exclusive ? "exclusiveMaximum" : "maximum",
                     "expected a number \(exclusive ? "less than" : "at most") \(Self.show(bound)), got \(shown)")
            }
        case .multipleOf(let divisor):
            guard let number = instance.numberValue else { return }
            if !Self.isMultiple(number, of: divisor, instance: instance) {
                fail("multipleOf", "expected a multiple of \(Self.show(divisor)), got \(shown)")
            }
        case .minLength(let minimum):
            guard case .string(let text) = instance else { return }
            let length = text.unicodeScalars.count
            if length < minimum { fail("minLength", "expected at least \(minimum) characters, got \(length)") }
        case .maxLength(let maximum):
            guard case .string(let text) = instance else { return }
            let length = text.unicodeScalars.count
            if length > maximum { fail("maxLength", "expected at most \(maximum) characters, got \(length)") }
        case .pattern(let pattern, let expression):
            guard case .string(let text) = instance else { return }
            if !expression.hasMatch(in: text) { fail("pattern", "expected a string matching '\(pattern)', got \(shown)") }
        case .properties(let named, let patterns, let additional):
            guard case .object(let object) = instance else { return }
            applyProperties(object, named: named, patterns: patterns, additional: additional, at: location,
                            schemaPath: schemaPath)
        case .required(let names):
            guard case .object(let object) = instance else { return }
            let missing = names.filter { object[$0] == nil }
            if !missing.isEmpty {
                fail("required", "missing required propert\(missing.count == 1 ? "y" : "ies") "
                     + missing.map { "'\($0)'" }.joined(separator: ", "))
            }
        case .minProperties(let minimum):
            guard case .object(let object) = instance else { return }
            if object.count < minimum { fail("minProperties", "expected at least \(minimum) properties, got \(object.count)") }
        case .maxProperties(let maximum):
            guard case .object(let object) = instance else { return }
            if object.count > maximum { fail("maxProperties", "expected at most \(maximum) properties, got \(object.count)") }
        case .items(let prefix, let rest):
            guard case .array(let elements) = instance else { return }
            for (offset, element) in elements.enumerated() {
                let elementLocation = PathLocation(parent: location, element: .index(offset))
                if offset < prefix.count {
                    validate(element, against: prefix[offset], at: elementLocation)
                } else if let rest {
                    validate(element, against: rest, at: elementLocation)
                }
            }
        case .minItems(let minimum):
            guard case .array(let elements) = instance else { return }
            if elements.count < minimum { fail("minItems", "expected at least \(minimum) items, got \(elements.count)") }
        case .maxItems(let maximum):
            guard case .array(let elements) = instance else { return }
            if elements.count > maximum { fail("maxItems", "expected at most \(maximum) items, got \(elements.count)") }
        case .uniqueItems:
            guard case .array(let elements) = instance else { return }
            var seen: [JSONValue: Int] = [:]
            for (offset, element) in elements.enumerated() {
                if let first = seen.updateValue(offset, forKey: element) {
                    fail("uniqueItems", "expected unique items, but items [\(first)] and [\(offset)] are equal")
                    return
                }
            }
        case .allOf(let schemas):
            for schema in schemas { validate(instance, against: schema, at: location) }
        case .anyOf(let schemas):
            if !schemas.contains(where: { isValid(instance, against: $0, at: location) }) {
                fail("anyOf", "expected a value matching at least one of \(schemas.count) schemas (anyOf), got \(shown)")
            }
        case .oneOf(let schemas):
            let matching = schemas.filter { isValid(instance, against: $0, at: location) }.count
            if matching != 1 {
                fail("oneOf", "expected a value matching exactly one of \(schemas.count) schemas (oneOf), "
                     + "but it matches \(matching)")
            }
        case .not(let schema):
            if isValid(instance, against: schema, at: location) {
                fail("not", "expected a value not matching the 'not' schema, got \(shown)")
            }
        case .ref(let target, _):
            validate(instance, against: target, at: location)
        }
    }

    private mutating func applyProperties(
        _ object: JSONObject, named: [(String, Int)], patterns: [(String, RegularExpression, Int)], additional: Int?,
        at location: PathLocation?, schemaPath: String
    ) {
        for member in object.members {
            let memberLocation = PathLocation(parent: location, element: .name(member.key))
            var matched = false
            if let schema = named.first(where: { $0.0 == member.key })?.1 {
                matched = true
                validate(member.value, against: schema, at: memberLocation)
            }
            for (_, expression, schema) in patterns where expression.hasMatch(in: member.key) {
                matched = true
                validate(member.value, against: schema, at: memberLocation)
            }
            guard !matched, let additional else { continue }
            if case .always(false, _) = nodes[additional] {
                report("property '\(member.key)' is not allowed (additionalProperties)", at: memberLocation,
                       schemaPath: "\(schemaPath)/additionalProperties")
            } else {
                validate(member.value, against: additional, at: memberLocation)
            }
        }
    }

    /// Whether `number` is a multiple of `divisor`, exactly for integers, within rounding error otherwise.
    private static func isMultiple(_ number: Double, of divisor: Double, instance: JSONValue) -> Bool {
        if case .int(let integer) = instance, divisor == divisor.rounded(), abs(divisor) < 9e18 {
            return integer % Int(divisor) == 0
        }
        let quotient = number / divisor
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// A bound as written: `5` rather than `5.0` for integral values.
    private static func show(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
