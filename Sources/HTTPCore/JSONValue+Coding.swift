public import Foundation

/// Why JSON text could not be parsed, and where (0-based byte offset, 1-based line and column in characters).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `expected ',' or ']' in array`.
    public let message: String
    /// The 0-based byte offset of the problem in the input.
    public let offset: Int
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column (in Unicode scalars) of the problem within its line.
    public let column: Int
    /// How to fix the file the text was read from, when there is more to say than the message (text in UTF-16).
    public var fileSuggestion: String?

    /// Creates an error; `line` and `column` are derived by the parser.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts before failing with an error.
    public static let maximumParseDepth = 512

    /// Parses RFC 8259 JSON text given as UTF-8 bytes.
    ///
    /// Integers without fraction or exponent that fit `Int` become `.int`, other numbers `.double`;
    /// object member order is kept (a repeated key keeps its first position and its last value);
    /// an escaped lone surrogate (`\uD800`) becomes U+FFFD. Invalid UTF-8 is an error.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseResult(buffer)
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parseResult($0) }.get()
    }

    /// Parses RFC 8259 JSON text given as UTF-8 bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { parseResult($0) }.get()
    }

    /// Parses RFC 8259 JSON text given as UTF-8 data.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try data.withUnsafeBytes { raw in parseResult(raw.bindMemory(to: UInt8.self)) }.get()
    }

    /// Parses RFC 8259 JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parseResult($0) }.get()
    }

    private static func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        // Text in UTF-16 or UTF-32 fails at its first bytes: said so, not as a byte that starts no value.
        if let (encoding, why) = WideEncoding.guess(buffer) {
            var error = JSONParseError(message: "the text is not UTF-8 but \(encoding): \(why)", offset: 0, line: 1, column: 1)
            error.fileSuggestion = "save the file as UTF-8"
            return .failure(error)
        }
        var parser = JSONByteParser(bytes: buffer)
        do throws(JSONParseError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

/// A recursive-descent RFC 8259 parser over a contiguous byte buffer.
private struct JSONByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw error("unexpected \(describeByte(at: position)) after the JSON value") }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeByte(at: position)), expected a value")
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumParseDepth {
            throw error("nesting deeper than \(JSONValue.maximumParseDepth) arrays and objects")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        var comma: Int?
        while true {
            skipWhitespace()
            // Past the first element, a `]` follows a comma: the error is at the comma.
            if peek() == UInt8(ascii: "]"), let comma {
                position = comma
                throw error(Self.trailingComma("]"))
            }
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                comma = position
                position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default: throw error("expected ',' or ']' in array, found \(describeByte(at: position))")
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        var comma: Int?
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                // Past the first member, a `}` follows a comma: the error is at the comma.
                if peek() == UInt8(ascii: "}"), let comma {
                    position = comma
                    throw error(Self.trailingComma("}"))
                }
                throw error("expected a string key in object, found \(describeByte(at: position))")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("expected ':' after object key, found \(describeByte(at: position))")
            }
            position += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                comma = position
                position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(object)
            default: throw error("expected ',' or '}' in object, found \(describeByte(at: position))")
            }
        }
    }

    /// The message for a comma just before `closing`, which JSON does not allow (JavaScript and JSON5 do).
    static func trailingComma(_ closing: Character) -> String {
        "a comma before '\(closing)' starts no \(closing == "]" ? "element" : "member"): JSON allows no trailing comma, remove it"
    }

    mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = position
        let length = word.utf8CodeUnitCount
        let matches = start + length <= bytes.count
            && (0..<length).allSatisfy { bytes[start + $0] == word.utf8Start[$0] }
        guard matches else { throw error("invalid literal, expected '\(word)'") }
        position += length
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit in number") }
        var integer = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed in numbers") }
        } else {
            while let digit = peek(), isDigit(digit) {
                let value = Int(digit &- UInt8(ascii: "0"))
                if !overflow {
                    let (times10, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = negative ? times10.subtractingReportingOverflow(value)
                                             : times10.addingReportingOverflow(value)
                    if o1 || o2 { overflow = true } else { integer = sum }
                }
                position += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw error("expected a digit after '.' in number") }
            while let digit = peek(), isDigit(digit) { position += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("expected a digit in number exponent") }
            while let digit = peek(), isDigit(digit) { position += 1 }
        }
        if isInteger && !overflow { return .int(integer) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text) else {
            position = start
            throw error("invalid number '\(text)'")
        }
        return .double(double)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Strings

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<position]), at: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("unescaped control character in string") }
            position += 1
        }
        guard position < bytes.count else { throw error("unterminated string", at: start - 1) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try scratch.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw error("unescaped control character in string")
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw error("unterminated string", at: start - 1)
    }

    func makeString(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError) -> String {
        if #available(macOS 15, *) {
            guard let text = String(validating: buffer, as: UTF8.self) else {
                throw error("invalid UTF-8 in string", at: offset)
            }
            return text
        }
        let invalid = transcode(buffer.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        if invalid { throw error("invalid UTF-8 in string", at: offset) }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Parses one escape sequence at `position` (the backslash) into `scratch`.
    mutating func parseEscape() throws(JSONParseError) {
        position += 1
        guard let byte = peek() else { throw error("unterminated escape sequence") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = try parseHex4()
            if (0xD800...0xDBFF).contains(code) {
                let save = position
                if peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") {
                    position += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = save
                        code = 0xFFFD
                    }
                } else {
                    code = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(code) {
                code = 0xFFFD
            }
            scratch.append(contentsOf: Unicode.Scalar(code).map { Array(String($0).utf8) } ?? [0xEF, 0xBF, 0xBD])
        default:
            position -= 2
            // A character that cannot be shown as it is (a line break would break the message's line) is named.
            guard (0x20..<0x7F).contains(byte) else {
                let what = switch byte {
                case 0x0A: "a line break"
                case 0x0D: "a carriage return"
                case 0x09: "a tab"
                default: "the byte 0x" + String(byte, radix: 16, uppercase: true)
                }
                throw error("invalid escape sequence: '\\' before \(what)")
            }
            throw error("invalid escape sequence '\\\(Unicode.Scalar(byte))'")
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after '\\u'") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hex digits after '\\u'")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: Helpers

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Columns count characters (Unicode scalars), as editors and every other diagnostic do: UTF-8's continuation bytes
        // are no characters of their own.
        let column = bytes[lineStart..<offset].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONParseError(message: message, offset: offset, line: line, column: column)
    }
}

// MARK: - Serialising

extension JSONValue {
    /// The value as JSON text: compact, or indented by two spaces with `pretty`.
    ///
    /// Strings escape `"`, `\` and control characters; doubles print in Swift's shortest round-trip
    /// form (an integral double keeps its `.0`, so `1.0` stays a double when parsed back); NaN and
    /// infinities, which JSON cannot express, are written as `null`.
    public func serialized(pretty: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        JSONWriter(pretty: pretty).write(self, into: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` as written between the quotes of a JSON string (`"` and `\` escaped, control characters as escapes).
    public static func stringContents(_ text: String) -> String {
        String(JSONValue.string(text).serialized().dropFirst().dropLast())
    }
}

/// Writes `JSONValue`s as UTF-8 JSON text.
private struct JSONWriter {
    let pretty: Bool

    func write(_ value: JSONValue, into output: inout [UInt8], indent: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): output.append(contentsOf: String(int).utf8)
        case .double(let double):
            // A number past a double's range (a body's `1e400`) is infinite: written as a number that reads back as it,
            // not as `null`, which it is not (bodies sent refuse it before they are written: JSONBody).
            output.append(contentsOf: (double.isFinite ? double.description : double.isNaN ? "null" : double < 0 ? "-1e999" : "1e999").utf8)
        case .string(let string): Self.writeString(string, into: &output)
        case .array(let elements):
            writeContainer(open: "[", close: "]", elements, into: &output, indent: indent) { element, output in
                write(element, into: &output, indent: indent + 1)
            }
        case .object(let object):
            writeContainer(open: "{", close: "}", object.members, into: &output, indent: indent) { member, output in
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, into: &output, indent: indent + 1)
            }
        }
    }

    func writeContainer<Element>(
        open: Unicode.Scalar, close: Unicode.Scalar, _ elements: [Element], into output: inout [UInt8], indent: Int,
        writeElement: (Element, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { newline(into: &output, indent: indent + 1) }
            writeElement(element, &output)
        }
        if pretty && !elements.isEmpty { newline(into: &output, indent: indent) }
        output.append(UInt8(ascii: close))
    }

    func newline(into output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Writes `string` as a quoted JSON string; control characters, C1 controls (U+0080–U+009F) included, as escapes,
    /// so that JSON text (a report read on a terminal) never carries them raw.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        // In UTF-8 a C1 control is 0xC2 followed by 0x80–0x9F.
        var c1Lead = false
        for byte in string.utf8 {
            if c1Lead {
                c1Lead = false
                if (0x80...0x9F).contains(byte) {
                    output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                               hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                    continue
                }
                output.append(0xC2)
            }
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            case 0xC2: c1Lead = true
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
