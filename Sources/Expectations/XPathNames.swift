/// A name written in an XPath expression, found to say which one libxml2 could not resolve.
struct XPathWrittenName: Equatable {
    /// What the name is used as.
    enum Role: Equatable {
        /// A node test or function name, possibly with a prefix (`s:slide`, `s:*`).
        case name
        /// A function call: an unprefixed name followed by `(` that is not a node type test such as `text()`.
        case function
        /// A variable reference: `$name`.
        case variable
    }

    /// The prefix before the colon, if any.
    let prefix: String?
    /// The name after the prefix (`*` for `s:*`).
    let local: String
    let role: Role
    /// Where the name starts (its `$` for a variable), in Unicode scalars.
    let offset: Int

    /// The names of an expression in order, outside string literals; axes (`child::`) are not names.
    static func scan(_ text: String) -> [XPathWrittenName] {
        var scanner = Scanner(scalars: Array(text.unicodeScalars))
        return scanner.names()
    }

    /// The node type tests, written like function calls.
    private static let nodeTypes: Set<String> = ["node", "text", "comment", "processing-instruction"]

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func names() -> [XPathWrittenName] {
            var names: [XPathWrittenName] = []
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "'" || scalar == "\"" {
                    index += 1
                    while index < scalars.count, scalars[index] != scalar { index += 1 }
                    index += 1
                } else if scalar == "$" {
                    let start = index
                    index += 1
                    if let name = ncName() { names.append(XPathWrittenName(prefix: nil, local: name, role: .variable, offset: start)) }
                } else if Self.startsName(scalar) {
                    names.append(contentsOf: qualifiedName())
                } else {
                    index += 1
                }
            }
            return names
        }

        /// A name at `index`: `local`, `prefix:local`, `prefix:*`, or an axis (`child::`), which gives nothing.
        private mutating func qualifiedName() -> [XPathWrittenName] {
            let start = index
            guard let first = ncName() else { return [] }
            if at(":"), at(":", offset: 1) {
                index += 2
                return []
            }
            var prefix: String?
            var local = first
            if at(":") {
                index += 1
                prefix = first
                if at("*") {
                    index += 1
                    local = "*"
                } else {
                    local = ncName() ?? ""
                }
            }
            var next = index
            while next < scalars.count, scalars[next].properties.isWhitespace { next += 1 }
            let isCall = next < scalars.count && scalars[next] == "(" && prefix == nil && !XPathWrittenName.nodeTypes.contains(local)
            return [XPathWrittenName(prefix: prefix, local: local, role: isCall ? .function : .name, offset: start)]
        }

        /// An NCName at `index` (letters, digits, `_`, `-`, `.`, not starting with a digit, `-` or `.`).
        private mutating func ncName() -> String? {
            guard index < scalars.count, Self.startsName(scalars[index]) else { return nil }
            let start = index
            while index < scalars.count, Self.continuesName(scalars[index]) { index += 1 }
            return String(String.UnicodeScalarView(scalars[start..<index]))
        }

        private func at(_ scalar: Unicode.Scalar, offset: Int = 0) -> Bool {
            index + offset < scalars.count && scalars[index + offset] == scalar
        }

        private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic
        }

        private static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
            startsName(scalar) || scalar == "-" || scalar == "." || scalar.properties.numericType != nil
        }
    }
}
