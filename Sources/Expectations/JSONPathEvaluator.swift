import HTTPCore

/// A location built by appending to a parent, so selecting does not copy whole paths.
final class PathLocation: Sendable {
    let parent: PathLocation?
    let element: JSONPathElement

    init(parent: PathLocation?, element: JSONPathElement) {
        self.parent = parent
        self.element = element
    }

    /// The elements from the root to here.
    var elements: [JSONPathElement] {
        var elements: [JSONPathElement] = []
        var link: PathLocation? = self
        while let current = link {
            elements.append(current.element)
            link = current.parent
        }
        return elements.reversed()
    }
}

/// A value selected during evaluation, with its location when locations are tracked.
struct SelectedNode {
    let value: JSONValue
    let location: PathLocation?
}

/// The result of a ValueType expression: a value or Nothing.
typealias OptionalValue = JSONValue?

/// Evaluates parsed queries against a document (RFC 9535 §2.3–2.6).
struct JSONPathEvaluator {
    let root: JSONValue
    /// Whether to record locations (only the outer query needs them).
    let tracksLocations: Bool

    /// The nodelist of `query`, starting from the root or from `current`.
    func evaluate(_ query: PathQuery, current: JSONValue) -> [SelectedNode] {
        var nodes = [SelectedNode(value: query.isAbsolute ? root : current, location: nil)]
        for segment in query.segments {
            var next: [SelectedNode] = []
            for node in nodes {
                if segment.isDescendant {
                    visitDescendants(of: node) { apply(segment.selectors, to: $0, into: &next) }
                } else {
                    apply(segment.selectors, to: node, into: &next)
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// Calls `body` with `node` and then every descendant, in document order.
    private func visitDescendants(of node: SelectedNode, _ body: (SelectedNode) -> Void) {
        body(node)
        switch node.value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                visitDescendants(of: child(element, of: node, .index(index)), body)
            }
        case .object(let object):
            for member in object.members {
                visitDescendants(of: child(member.value, of: node, .name(member.key)), body)
            }
        default: break
        }
    }

    private func child(_ value: JSONValue, of node: SelectedNode, _ element: JSONPathElement) -> SelectedNode {
        SelectedNode(value: value, location: tracksLocations ? PathLocation(parent: node.location, element: element) : nil)
    }

    private func apply(_ selectors: [PathSelector], to node: SelectedNode, into output: inout [SelectedNode]) {
        for selector in selectors { apply(selector, to: node, into: &output) }
    }

    private func apply(_ selector: PathSelector, to node: SelectedNode, into output: inout [SelectedNode]) {
        switch (selector, node.value) {
        case (.name(let name), .object(let object)):
            if let value = object[name] { output.append(child(value, of: node, .name(name))) }
        case (.wildcard, .array(let elements)):
            for (index, element) in elements.enumerated() { output.append(child(element, of: node, .index(index))) }
        case (.wildcard, .object(let object)):
            for member in object.members { output.append(child(member.value, of: node, .name(member.key))) }
        case (.index(let index), .array(let elements)):
            let normalized = index >= 0 ? index : elements.count + index
            if normalized >= 0 && normalized < elements.count {
                output.append(child(elements[normalized], of: node, .index(normalized)))
            }
        case (.slice(let start, let end, let step), .array(let elements)):
            for index in Self.sliceIndexes(start: start, end: end, step: step, count: elements.count) {
                output.append(child(elements[index], of: node, .index(index)))
            }
        case (.filter(let expression), .array(let elements)):
            for (index, element) in elements.enumerated() where test(expression, current: element) {
                output.append(child(element, of: node, .index(index)))
            }
        case (.filter(let expression), .object(let object)):
            for member in object.members where test(expression, current: member.value) {
                output.append(child(member.value, of: node, .name(member.key)))
            }
        default:
            break
        }
    }

    /// The indexes a slice selects in an array of `count` elements (RFC 9535 §2.3.4.2.2).
    static func sliceIndexes(start: Int?, end: Int?, step: Int?, count: Int) -> [Int] {
        let step = step ?? 1
        guard step != 0 else { return [] }
        func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            return lower < upper ? Array(stride(from: lower, to: upper, by: step)) : []
        }
        let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
        let lower = min(max(normalize(end ?? -count - 1), -1), count - 1)
        return lower < upper ? Array(stride(from: upper, to: lower, by: step)) : []
    }

    // MARK: Filters

    private func test(_ expression: LogicalExpression, current: JSONValue) -> Bool {
        switch expression {
        case .or(let operands): return operands.contains { test($0, current: current) }
        case .and(let operands): return operands.allSatisfy { test($0, current: current) }
        case .not(let operand): return !test(operand, current: current)
        case .exists(let query): return !evaluate(query, current: current).isEmpty
        case .function(let call): return logicalResult(of: call, current: current)
        case .comparison(let left, let comparison, let right):
            return Self.compare(value(of: left, current: current), comparison, value(of: right, current: current))
        }
    }

    private func value(of operand: ComparisonOperand, current: JSONValue) -> OptionalValue {
        switch operand {
        case .literal(let value): value
        case .singularQuery(let query): evaluate(query, current: current).first?.value
        case .function(let call): valueResult(of: call, current: current)
        }
    }

    private func valueArgument(_ argument: FunctionArgument, current: JSONValue) -> OptionalValue {
        switch argument {
        case .literal(let value): value
        case .query(let query): evaluate(query, current: current).first?.value
        case .function(let call): valueResult(of: call, current: current)
        case .logical: nil
        }
    }

    private func nodesArgument(_ argument: FunctionArgument, current: JSONValue) -> [SelectedNode] {
        guard case .query(let query) = argument else { return [] }
        return evaluate(query, current: current)
    }

    private func valueResult(of call: FunctionCall, current: JSONValue) -> OptionalValue {
        switch call.name {
        case .length:
            switch valueArgument(call.arguments[0], current: current) {
            case .string(let string): return .int(string.unicodeScalars.count)
            case .array(let elements): return .int(elements.count)
            case .object(let object): return .int(object.count)
            default: return nil
            }
        case .count:
            return .int(nodesArgument(call.arguments[0], current: current).count)
        case .value:
            let nodes = nodesArgument(call.arguments[0], current: current)
            return nodes.count == 1 ? nodes[0].value : nil
        case .match, .search:
            return nil
        }
    }

    private func logicalResult(of call: FunctionCall, current: JSONValue) -> Bool {
        guard call.name == .match || call.name == .search,
              case .string(let text)? = valueArgument(call.arguments[0], current: current) else { return false }
        let expression: RegularExpression?
        switch call.literalPattern {
        case .valid(let compiled): expression = compiled
        case .invalid: expression = nil
        case nil:
            guard case .string(let pattern)? = valueArgument(call.arguments[1], current: current) else { return false }
            expression = IRegexpTranslator.compile(pattern, fullMatch: call.name == .match)
        }
        return expression?.hasMatch(in: text) ?? false
    }

    // MARK: Comparison

    /// RFC 9535 §2.3.5.2.2 comparison, where nil is Nothing.
    static func compare(_ left: OptionalValue, _ comparison: ComparisonOperator, _ right: OptionalValue) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    private static func equal(_ left: OptionalValue, _ right: OptionalValue) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case let (left?, right?): deepEqual(left, right)
        default: false
        }
    }

    /// Equality with numbers by value and strings by Unicode scalars.
    static func deepEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case let (.string(a), .string(b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { deepEqual($0, $1) }
        case let (.object(a), .object(b)):
            return a.count == b.count && a.members.allSatisfy { member in
                b[member.key].map { deepEqual(member.value, $0) } ?? false
            }
        default: return left == right
        }
    }

    private static func less(_ left: OptionalValue, _ right: OptionalValue) -> Bool {
        switch (left, right) {
        case let (.int(a)?, .int(b)?): a < b
        case let (.string(a)?, .string(b)?): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        case let (a?, b?): JSONValue.numericOrder(a, b) == -1
        default: false
        }
    }
}
