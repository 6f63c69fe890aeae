/// A GraphQL query document as the demo API reads it.
///
/// This is a small hand-written recognizer for the part of GraphQL the demo API answers, not a full GraphQL
/// parser: query operations (`{ … }` or `query Name($id: ID!) { … }`), fields with aliases, arguments that are
/// variables or scalars (strings, numbers, booleans, null, enum names) and nested selections. Fragments,
/// directives, mutations, subscriptions, block strings and list or object arguments are refused with an error.
struct GraphQLDocument {
    /// One `query` operation.
    struct Operation {
        var name: String?
        /// The declared variables with their default values, if any.
        var variables: [String: GraphQLValue?]
        var selections: [GraphQLField]
    }

    var operations: [Operation]

    /// Reads `text`; throws the first syntax error or unsupported construct.
    init(parsing text: String) throws(GraphQLError) {
        var parser = GraphQLParser(tokens: try GraphQLTokenizer.tokens(of: text))
        operations = []
        while !parser.atEnd {
            operations.append(try parser.operation())
        }
        if operations.isEmpty { throw GraphQLError("the document has no operation") }
    }
}

/// A field selection: `alias: name(argument: value) { selections }`.
struct GraphQLField {
    var alias: String?
    var name: String
    var arguments: [String: GraphQLValue]
    var selections: [GraphQLField]

    /// The key of the field in the response: the alias, or the name.
    var responseKey: String { alias ?? name }
}

/// An argument or default value.
enum GraphQLValue: Equatable {
    case variable(String)
    case string(String)
    case int(Int)
    case float(Double)
    case bool(Bool)
    case null
    case enumValue(String)
}

/// A GraphQL request error, answered in `{"errors": [{"message": …}]}`.
struct GraphQLError: Error {
    let message: String

    init(_ message: String) { self.message = message }
}

/// The tokens of a GraphQL document.
private enum GraphQLToken: Equatable {
    case punctuator(String)
    case name(String)
    case int(Int)
    case float(Double)
    case string(String)
}

/// Splits GraphQL text into tokens, dropping whitespace, commas and `#` comments.
private enum GraphQLTokenizer {
    static func tokens(of text: String) throws(GraphQLError) -> [GraphQLToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [GraphQLToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "#" {
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
            } else if scalar.properties.isWhitespace || scalar == "," || scalar == "\u{FEFF}" {
                index += 1
            } else if "!$()[]{}:=@|&".unicodeScalars.contains(scalar) {
                tokens.append(.punctuator(String(scalar)))
                index += 1
            } else if scalar == "." {
                guard index + 2 < scalars.count, scalars[index + 1] == ".", scalars[index + 2] == "." else {
                    throw GraphQLError("unexpected '.'")
                }
                tokens.append(.punctuator("..."))
                index += 3
            } else if scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic) {
                let start = index
                while index < scalars.count, scalars[index] == "_" || (scalars[index].isASCII && scalars[index].properties.isAlphabetic)
                    || ("0"..."9").contains(scalars[index]) { index += 1 }
                tokens.append(.name(String(String.UnicodeScalarView(scalars[start..<index]))))
            } else if scalar == "-" || ("0"..."9").contains(scalar) {
                let start = index
                index += 1
                while index < scalars.count, ("0"..."9").contains(scalars[index]) || ".eE+-".unicodeScalars.contains(scalars[index]) {
                    index += 1
                }
                let number = String(String.UnicodeScalarView(scalars[start..<index]))
                if let int = Int(number) { tokens.append(.int(int)) } else if let float = Double(number) { tokens.append(.float(float)) } else {
                    throw GraphQLError("invalid number '\(number)'")
                }
            } else if scalar == "\"" {
                tokens.append(.string(try string(in: scalars, at: &index)))
            } else {
                throw GraphQLError("unexpected character '\(scalar)'")
            }
        }
        return tokens
    }

    /// The string starting at the quote at `index`, with its escapes resolved; `index` moves past the closing quote.
    private static func string(in scalars: [Unicode.Scalar], at index: inout Int) throws(GraphQLError) -> String {
        if index + 2 < scalars.count, scalars[index + 1] == "\"", scalars[index + 2] == "\"" {
            throw GraphQLError("block strings (\"\"\") are not supported by the demo API")
        }
        var text = String.UnicodeScalarView()
        index += 1
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"": return String(text)
            case "\n", "\r": throw GraphQLError("unterminated string")
            case "\\":
                guard index < scalars.count else { throw GraphQLError("unterminated string") }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "b": text.append("\u{8}")
                case "f": text.append("\u{C}")
                case "\"", "\\", "/": text.append(escaped)
                case "u":
                    guard index + 4 <= scalars.count,
                          let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
                          let decoded = Unicode.Scalar(code) else { throw GraphQLError("invalid \\u escape") }
                    text.append(decoded)
                    index += 4
                default: throw GraphQLError("invalid escape '\\\(escaped)'")
                }
            default: text.append(scalar)
            }
        }
        throw GraphQLError("unterminated string")
    }
}

/// Reads operations, selections and values from the tokens.
private struct GraphQLParser {
    let tokens: [GraphQLToken]
    var position = 0

    var atEnd: Bool { position == tokens.count }

    mutating func operation() throws(GraphQLError) -> GraphQLDocument.Operation {
        var operation = GraphQLDocument.Operation(name: nil, variables: [:], selections: [])
        if case .name(let keyword) = peek {
            switch keyword {
            case "query": position += 1
            case "mutation", "subscription": throw GraphQLError("\(keyword) operations are not supported by the demo API; send a query")
            case "fragment": throw GraphQLError("fragments are not supported by the demo API")
            default: throw GraphQLError("unexpected '\(keyword)': an operation starts with 'query' or '{'")
            }
            if case .name(let name) = peek {
                operation.name = name
                position += 1
            }
            if peek == .punctuator("(") { operation.variables = try variableDefinitions() }
        }
        operation.selections = try selectionSet()
        return operation
    }

    /// `($id: ID! = 1, …)`: the variable names and default values (types are read and not checked).
    private mutating func variableDefinitions() throws(GraphQLError) -> [String: GraphQLValue?] {
        try expect("(")
        var variables: [String: GraphQLValue?] = [:]
        while peek != .punctuator(")") {
            try expect("$")
            let variable = try name()
            try expect(":")
            try type()
            if peek == .punctuator("=") {
                position += 1
                variables[variable] = .some(try value())
            } else {
                variables[variable] = .some(nil)
            }
        }
        position += 1
        return variables
    }

    /// A type such as `ID`, `ID!` or `[String!]!`.
    private mutating func type() throws(GraphQLError) {
        if peek == .punctuator("[") {
            position += 1
            try type()
            try expect("]")
        } else {
            _ = try name()
        }
        if peek == .punctuator("!") { position += 1 }
    }

    private mutating func selectionSet() throws(GraphQLError) -> [GraphQLField] {
        try expect("{")
        var fields: [GraphQLField] = []
        while peek != .punctuator("}") {
            if peek == .punctuator("...") { throw GraphQLError("fragments are not supported by the demo API") }
            if peek == .punctuator("@") { throw GraphQLError("directives are not supported by the demo API") }
            fields.append(try field())
        }
        position += 1
        if fields.isEmpty { throw GraphQLError("a selection set cannot be empty") }
        return fields
    }

    private mutating func field() throws(GraphQLError) -> GraphQLField {
        var field = GraphQLField(alias: nil, name: try name(), arguments: [:], selections: [])
        if peek == .punctuator(":") {
            position += 1
            field.alias = field.name
            field.name = try name()
        }
        if peek == .punctuator("(") {
            position += 1
            while peek != .punctuator(")") {
                let argument = try name()
                try expect(":")
                field.arguments[argument] = try value()
            }
            position += 1
        }
        if peek == .punctuator("@") { throw GraphQLError("directives are not supported by the demo API") }
        if peek == .punctuator("{") { field.selections = try selectionSet() }
        return field
    }

    private mutating func value() throws(GraphQLError) -> GraphQLValue {
        let token = try next()
        switch token {
        case .punctuator("$"): return .variable(try name())
        case .int(let int): return .int(int)
        case .float(let float): return .float(float)
        case .string(let string): return .string(string)
        case .name("true"): return .bool(true)
        case .name("false"): return .bool(false)
        case .name("null"): return .null
        case .name(let name): return .enumValue(name)
        case .punctuator("["), .punctuator("{"): throw GraphQLError("list and object arguments are not supported by the demo API")
        default: throw GraphQLError("expected a value, found \(Self.describe(token))")
        }
    }

    private mutating func name() throws(GraphQLError) -> String {
        let token = try next()
        guard case .name(let name) = token else { throw GraphQLError("expected a name, found \(Self.describe(token))") }
        return name
    }

    private mutating func expect(_ punctuator: String) throws(GraphQLError) {
        let token = try next()
        guard token == .punctuator(punctuator) else { throw GraphQLError("expected '\(punctuator)', found \(Self.describe(token))") }
    }

    private var peek: GraphQLToken? { atEnd ? nil : tokens[position] }

    private mutating func next() throws(GraphQLError) -> GraphQLToken {
        guard let token = peek else { throw GraphQLError("unexpected end of the document") }
        position += 1
        return token
    }

    private static func describe(_ token: GraphQLToken) -> String {
        switch token {
        case .punctuator(let text), .name(let text): "'\(text)'"
        case .int(let int): "'\(int)'"
        case .float(let float): "'\(float)'"
        case .string: "a string"
        }
    }
}
