public import HTTPCore
internal import CLibXML2
internal import Synchronization

/// A prefix and the namespace URI it stands for in XPath expressions.
public struct XPathNamespace: Sendable, Hashable {
    public var prefix: String
    public var uri: String

    public init(prefix: String, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// A compiled XPath 1.0 expression (libxml2's engine) with the namespace prefixes it may use, e.g.
/// `count(//s:slide)`; one instance may be shared by concurrent checks.
public final class XPath: @unchecked Sendable {
    /// The expression as written.
    public let text: String
    public let namespaces: [XPathNamespace]
    /// libxml2's compiled expression, never changed by this class; libxml2 caches function lookups inside it while
    /// evaluating, so evaluations take turns through `turns`.
    private let compiled: OpaquePointer
    private let turns = Mutex(())
    /// For a whole expression `string(PATH)`, `number(PATH)` or `normalize-space(PATH)`: PATH, which, selecting nothing,
    /// makes the expression select nothing (XPath would give `""` or NaN, which no capture or `exists` could tell apart).
    private let argument: XPath?

    /// Compiles `text` and tries it once on an empty document, so that syntax errors, unknown functions, wrong
    /// argument counts and undeclared prefixes are found here rather than when a response arrives.
    public convenience init(_ text: String, namespaces: [XPathNamespace] = []) throws(XPathError) {
        try self.init(text, namespaces: namespaces, asPredicate: false)
    }

    /// `init(_:namespaces:)`; `asPredicate` tries it as a predicate is evaluated, for one node of one (`position()` and
    /// `last()` then give 1).
    private init(_ text: String, namespaces: [XPathNamespace], asPredicate: Bool) throws(XPathError) {
        self.text = text
        self.namespaces = namespaces
        let (compiled, errors) = LibXML.collectingErrors { () -> OpaquePointer? in
            guard let empty = xmlNewDoc(nil) else { return nil }
            defer { xmlFreeDoc(empty) }
            let context = Self.newContext(on: empty, namespaces: namespaces)
            defer { xmlXPathFreeContext(context) }
            if asPredicate { (context.pointee.contextSize, context.pointee.proximityPosition) = (1, 1) }
            // Compiling with a context bounds the nesting depth of the expression.
            guard let compiled = LibXML.withXMLString(text, { xmlXPathCtxtCompile(context, $0) }) else { return nil }
            guard let result = xmlXPathCompiledEval(compiled, context) else {
                xmlXPathFreeCompExpr(compiled)
                return nil
            }
            xmlXPathFreeObject(result)
            return compiled
        }
        guard let compiled else {
            // A problem libxml2 gives no place for (a wrong number of arguments) is placed at the part that has it, when
            // one has it alone (`//a or count(1, 2)`).
            let error = Self.error(from: errors, in: text, namespaces: namespaces)
            throw error.offset == nil ? Self.partProblem(in: text, namespaces: namespaces, asPredicate: asPredicate) ?? error : error
        }
        if let problem = Self.partProblem(in: text, namespaces: namespaces, asPredicate: asPredicate) {
            xmlXPathFreeCompExpr(compiled)
            throw problem
        }
        self.compiled = compiled
        argument = Self.wrappedPath(in: text).flatMap { try? XPath($0, namespaces: namespaces) }
    }

    /// The first problem of a part of `text` that trying it on an empty document does not evaluate, each part tried alone
    /// (`asPredicate` for one in a predicate), its own parts in turn: a predicate (`//a[foo()]`), which an empty document
    /// gives no node to be evaluated for, and an operand of `and` or `or` (`false() and foo()`), which one before it
    /// decides. So an unknown function, a wrong number of arguments, a type error, a variable or an undeclared prefix in
    /// one is found when the file is read, not on a response that has such nodes (or never, on one that has none).
    private static func partProblem(in text: String, namespaces: [XPathNamespace], asPredicate: Bool) -> XPathError? {
        let parts = operands(of: text).map { ($0, asPredicate) } + predicates(of: text).map { ($0, true) }
        for ((offset, part), predicate) in parts {
            do throws(XPathError) { _ = try XPath(part, namespaces: namespaces, asPredicate: predicate) } catch {
                return XPathError(message: error.message, offset: error.offset.map { $0 + offset } ?? offset,
                                  undeclaredPrefix: error.undeclaredPrefix)
            }
        }
        return nil
    }

    /// The operands of the `and` and `or` at the top of `text` (outside brackets and string literals), with their offsets
    /// in Unicode scalars; none when it has no such operator.
    private static func operands(of text: String) -> [(offset: Int, text: String)] {
        let scalars = Array(text.unicodeScalars)
        var parts: [(offset: Int, text: String)] = []
        var (depth, start, quote) = (0, 0, Unicode.Scalar?.none)
        func isEdge(_ index: Int) -> Bool { index < 0 || index >= scalars.count || " \t\n\r()[]'\"".unicodeScalars.contains(scalars[index]) }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" {
                quote = scalar
            } else if scalar == "(" || scalar == "[" {
                depth += 1
            } else if scalar == ")" || scalar == "]" {
                depth -= 1
            } else if depth == 0, isEdge(index - 1), let word = ["and", "or"].first(where: { word in
                scalars[index...].starts(with: word.unicodeScalars) && isEdge(index + word.unicodeScalars.count)
            }) {
                parts.append((start, String(String.UnicodeScalarView(scalars[start..<index]))))
                index += word.unicodeScalars.count
                start = index
                continue
            }
            index += 1
        }
        guard !parts.isEmpty else { return [] }
        // Each from its first character, so that a problem with no place of its own is shown at the operand.
        return (parts + [(start, String(String.UnicodeScalarView(scalars[start...])))]).map { offset, text in
            let blanks = text.unicodeScalars.prefix { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.count
            return (offset + blanks, String(text.unicodeScalars.dropFirst(blanks)))
        }
    }

    /// The predicates at the top of `text` (`[...]`, outside string literals; nested ones are their own parts), with the
    /// offsets of their contents.
    private static func predicates(of text: String) -> [(offset: Int, text: String)] {
        var found: [(offset: Int, text: String)] = []
        var (depth, start, quote) = (0, 0, Unicode.Scalar?.none)
        var inner = String.UnicodeScalarView()
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if depth > 0 { inner.append(scalar) }
            if let open = quote {
                if scalar == open { quote = nil }
                continue
            }
            switch scalar {
            case "'", "\"": quote = scalar
            case "[":
                depth += 1
                if depth == 1 { (start, inner) = (offset + 1, String.UnicodeScalarView()) }
            case "]":
                depth -= 1
                guard depth == 0 else { continue }
                inner.removeLast()
                found.append((start, String(inner)))
            default: continue
            }
        }
        return found
    }

    /// The argument of a whole expression that converts one value (`string(//a/@id)`), when it is one.
    private static func wrappedPath(in text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let name = ["string", "number", "normalize-space"].first(where: { trimmed.hasPrefix($0) }) else { return nil }
        let rest = trimmed.dropFirst(name.count).drop { $0 == " " }
        guard rest.first == "(", rest.last == ")" else { return nil }
        // The `(` after the name must close at the very end (not `string(a) = string(b)`), outside string literals.
        var depth = 0, quote: Character?
        for (offset, character) in rest.enumerated() {
            if let open = quote { if character == open { quote = nil }; continue }
            switch character {
            case "'", "\"": quote = character
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 && offset != rest.count - 1 { return nil }
            default: break
            }
        }
        let inner = rest.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        // One argument only (`string()` reads the context node).
        return inner.isEmpty || inner.contains(",") ? nil : inner
    }

    deinit {
        xmlXPathFreeCompExpr(compiled)
    }

    /// The value an expectation or capture sees (docs/format.md): nil for an empty node-set (and for `string()`,
    /// `number()` or `normalize-space()` of one), the string value of one node, a list of the string values of several,
    /// and numbers, strings and booleans as themselves.
    public func comparableValue(in document: MarkupDocument) throws(XPathError) -> JSONValue? {
        if let argument, try argument.comparableValue(in: document) == nil { return nil }
        let (value, errors) = withExtendedLifetime(document) {
            LibXML.collectingErrors { () -> JSONValue?? in
                let context = Self.newContext(on: document.tree, namespaces: namespaces)
                defer { xmlXPathFreeContext(context) }
                return turns.withLock { _ -> JSONValue?? in
                    guard let result = xmlXPathCompiledEval(compiled, context) else { return .none }
                    defer { xmlXPathFreeObject(result) }
                    return .some(Self.value(of: result.pointee))
                }
            }
        }
        guard let value else { throw Self.error(from: errors, in: text, namespaces: namespaces) }
        return value
    }

    /// A context for evaluating at the document node, with the prefixes registered.
    private static func newContext(on document: xmlDocPtr, namespaces: [XPathNamespace]) -> xmlXPathContextPtr {
        let context = xmlXPathNewContext(document)!
        context.pointee.node = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
        for namespace in namespaces {
            LibXML.withXMLString(namespace.prefix) { prefix in
                LibXML.withXMLString(namespace.uri) { uri in _ = xmlXPathRegisterNs(context, prefix, uri) }
            }
        }
        return context
    }

    /// The comparable value of an evaluation's result (see `comparableValue(in:)`).
    private static func value(of result: xmlXPathObject) -> JSONValue? {
        switch result.type {
        case XPATH_NODESET, XPATH_XSLT_TREE:
            guard let set = result.nodesetval, set.pointee.nodeNr > 0, let nodes = set.pointee.nodeTab else { return nil }
            let texts = (0..<Int(set.pointee.nodeNr)).map { index in
                nodes[index].map { JSONValue.string(LibXML.stringValue(of: $0)) } ?? .string("")
            }
            return texts.count == 1 ? texts[0] : .array(texts)
        case XPATH_BOOLEAN:
            return .bool(result.boolval != 0)
        case XPATH_NUMBER:
            return number(result.floatval)
        default:
            return .string(result.stringval.map { LibXML.string($0) } ?? "")
        }
    }

    /// An XPath number: integers as integers, NaN and the infinities as XPath writes them (JSON has no such numbers).
    private static func number(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value > 0 ? "Infinity" : "-Infinity") }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return .int(Int(value)) }
        return .double(value)
    }

    /// The error to report for a failed compile or evaluation: a bracket that does not pair, else libxml2's syntax error
    /// with its place, else the undeclared prefix, unknown function or variable the expression writes, else libxml2's
    /// first error (`count(` is "invalid number of arguments" to libxml2, with no place).
    private static func error(from errors: [LibXMLError], in text: String, namespaces: [XPathNamespace]) -> XPathError {
        if let unpaired = unpairedBracket(in: text) { return unpaired }
        let first = errors.first { !$0.isWarning } ?? errors.first
        if let first, let byteOffset = first.expressionOffset {
            return XPathError(message: lowercasingFirstLetter(first.message), offset: scalarOffset(ofByte: byteOffset, in: text))
        }
        let names = XPathWrittenName.scan(text)
        for name in names {
            if let prefix = name.prefix, !namespaces.contains(where: { $0.prefix == prefix }) {
                return XPathError(message: "undeclared namespace prefix '\(prefix)'", offset: name.offset, undeclaredPrefix: prefix)
            }
            if name.role == .function, !isFunction(name.local) {
                return XPathError(message: "unknown function '\(name.local)()'", offset: name.offset)
            }
            if name.role == .variable {
                return XPathError(message: "undefined variable '$\(name.local)': XPath variables cannot be set here", offset: name.offset)
            }
        }
        return XPathError(message: first.map { lowercasingFirstLetter($0.message) } ?? "the expression cannot be evaluated", offset: nil)
    }

    /// A string literal, `(` or `[` never closed, or a `)` or `]` that closes none (outside string literals); nil when
    /// they all pair. A closing bracket of the other kind names the open one (`//a[(1]`: the `(` is not closed).
    private static func unpairedBracket(in text: String) -> XPathError? {
        var open: [(bracket: Unicode.Scalar, offset: Int)] = []
        var quote: (mark: Unicode.Scalar, offset: Int)?
        let notClosed = { (bracket: Unicode.Scalar, offset: Int) in XPathError(message: "'\(bracket)' is not closed", offset: offset) }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if let opened = quote {
                if scalar == opened.mark { quote = nil }
                continue
            }
            switch scalar {
            case "'", "\"": quote = (scalar, offset)
            case "(", "[": open.append((scalar, offset))
            case ")", "]":
                let opening: Unicode.Scalar = scalar == ")" ? "(" : "["
                guard let last = open.popLast() else { return XPathError(message: "'\(scalar)' closes no '\(opening)'", offset: offset) }
                if last.bracket != opening { return notClosed(last.bracket, last.offset) }
            default: continue
            }
        }
        if let quote { return XPathError(message: "the string literal begun by \(quote.mark) is not closed", offset: quote.offset) }
        return open.last.map { notClosed($0.bracket, $0.offset) }
    }

    /// Whether libxml2 has an XPath function of this name.
    private static func isFunction(_ name: String) -> Bool {
        guard let context = xmlXPathNewContext(nil) else { return true }
        defer { xmlXPathFreeContext(context) }
        return LibXML.withXMLString(name) { xmlXPathFunctionLookup(context, $0) } != nil
    }

    /// The offset in Unicode scalars of a UTF-8 byte offset (clamped to the text).
    private static func scalarOffset(ofByte byteOffset: Int, in text: String) -> Int {
        let utf8 = text.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: min(max(byteOffset, 0), utf8.count))
        return text.unicodeScalars[..<end].count
    }

    /// libxml2 writes `Invalid expression`; messages here start in lower case.
    private static func lowercasingFirstLetter(_ message: String) -> String {
        guard let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase ?? true else { return message }
        return first.lowercased() + message.dropFirst()
    }
}

/// Why an XPath expression does not compile or cannot be evaluated: libxml2's message, and where in the
/// expression when it says.
public struct XPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `invalid expression`.
    public let message: String
    /// The 0-based offset of the problem in the expression, in Unicode scalars; nil when not known.
    public let offset: Int?
    /// The prefix the expression uses without a namespace for it, when that is the problem.
    public let undeclaredPrefix: String?

    public init(message: String, offset: Int?, undeclaredPrefix: String? = nil) {
        self.message = message
        self.offset = offset
        self.undeclaredPrefix = undeclaredPrefix
    }

    public var description: String { message }
}
