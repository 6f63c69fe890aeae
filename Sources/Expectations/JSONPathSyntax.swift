import HTTPCore

/// A parsed query: the root (`$`) or current node (`@`) followed by segments.
struct PathQuery: Sendable {
    let isAbsolute: Bool
    let segments: [PathSegment]

    /// Only child segments with one name or index selector each.
    var isSingular: Bool {
        segments.allSatisfy { segment in
            guard !segment.isDescendant, segment.selectors.count == 1 else { return false }
            switch segment.selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }
}

/// A child (`[…]`, `.name`) or descendant (`..[…]`) segment with its selectors.
struct PathSegment: Sendable {
    let isDescendant: Bool
    let selectors: [PathSelector]
}

/// One selector inside a segment.
enum PathSelector: Sendable {
    case name(String)
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(LogicalExpression)
}

/// A filter expression producing a logical value.
indirect enum LogicalExpression: Sendable {
    case or([LogicalExpression])
    case and([LogicalExpression])
    case not(LogicalExpression)
    case comparison(ComparisonOperand, ComparisonOperator, ComparisonOperand)
    /// An existence test: the query selects at least one node.
    case exists(PathQuery)
    /// A function returning LogicalType (or NodesType, tested for non-emptiness).
    case function(FunctionCall)
}

/// A side of a comparison: always a single value or Nothing.
enum ComparisonOperand: Sendable {
    case literal(JSONValue)
    case singularQuery(PathQuery)
    case function(FunctionCall)
}

/// The six comparison operators.
enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// The RFC 9535 function expression types.
enum FunctionType: Sendable {
    case value, logical, nodes
}

/// The functions RFC 9535 defines.
enum FunctionName: String, Sendable, CaseIterable {
    case length, count, match, search, value

    var parameterTypes: [FunctionType] {
        switch self {
        case .length: [.value]
        case .count, .value: [.nodes]
        case .match, .search: [.value, .value]
        }
    }

    var resultType: FunctionType {
        switch self {
        case .length, .count, .value: .value
        case .match, .search: .logical
        }
    }
}

/// A call of a function with well-typed arguments.
struct FunctionCall: Sendable {
    let name: FunctionName
    let arguments: [FunctionArgument]
    /// For `match`/`search` with a literal pattern: the compiled pattern (nil when not I-Regexp).
    let literalPattern: CompiledPattern?
}

/// An argument already checked against its parameter type.
enum FunctionArgument: Sendable {
    case literal(JSONValue)
    case query(PathQuery)
    case logical(LogicalExpression)
    case function(FunctionCall)
}

/// A pattern compiled once, or known to be invalid.
enum CompiledPattern: Sendable {
    case valid(RegularExpression)
    case invalid
}
