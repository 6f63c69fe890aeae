internal import CLibXML2

/// One problem libxml2 reported while parsing a document or compiling and evaluating an XPath expression.
struct LibXMLError: Sendable {
    /// libxml2's message, without its trailing line break.
    let message: String
    /// Whether it is only a warning.
    let isWarning: Bool
    /// The 1-based line in a parsed document; 0 when not known.
    let line: Int
    /// The 1-based column in a parsed document; 0 when not known.
    let column: Int
    /// The byte offset in an XPath expression where compiling stopped; nil for other errors.
    let expressionOffset: Int?

    init(_ error: xmlError) {
        message = error.message.map { String(cString: $0) }?.trimmingTrailingWhitespace() ?? "unknown error"
        isWarning = error.level == XML_ERR_WARNING
        line = Int(error.line)
        column = Int(error.int2)
        // XPath errors carry the expression while it is being compiled, not while a compiled one is evaluated.
        expressionOffset = error.domain == Int32(XML_FROM_XPATH.rawValue) && error.str1 != nil ? Int(error.int1) : nil
    }
}

/// Calls into libxml2 with its reports caught: nothing is printed, and the errors go back to the caller.
enum LibXML {
    /// `xmlInitParser`, once per process, before any other call.
    private static let initialized: Void = xmlInitParser()

    /// Runs `body` with libxml2's errors on this thread collected instead of printed; returns the result and the
    /// errors in the order reported. libxml2 keeps its error handlers per thread, and `body` runs without suspending.
    static func collectingErrors<Result>(_ body: () -> Result) -> (result: Result, errors: [LibXMLError]) {
        _ = initialized
        clibxml2_silence_generic_errors()
        let collector = ErrorCollector()
        let result = withExtendedLifetime(collector) {
            xmlSetStructuredErrorFunc(Unmanaged.passUnretained(collector).toOpaque()) { context, error in
                guard let context, let error else { return }
                Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue().errors.append(LibXMLError(error.pointee))
            }
            defer { xmlSetStructuredErrorFunc(nil, nil) }
            return body()
        }
        return (result, collector.errors)
    }

    /// The string value of a node (XPath's string-value: the text of an element's descendants, an attribute's value).
    static func stringValue(of node: xmlNodePtr) -> String {
        guard let text = xmlXPathCastNodeToString(node) else { return "" }
        defer { clibxml2_free(text) }
        return string(text)
    }

    /// A libxml2 string as a Swift string (libxml2 strings are UTF-8).
    static func string(_ text: UnsafePointer<xmlChar>) -> String {
        String(decoding: UnsafeBufferPointer(start: text, count: Int(xmlStrlen(text))), as: UTF8.self)
    }

    /// Calls `body` with `text` as a libxml2 string.
    static func withXMLString<Result>(_ text: String, _ body: (UnsafePointer<xmlChar>) -> Result) -> Result {
        text.withCString { pointer in
            pointer.withMemoryRebound(to: xmlChar.self, capacity: text.utf8.count + 1, body)
        }
    }
}

/// The errors libxml2 reports during one `LibXML.collectingErrors` call.
private final class ErrorCollector {
    var errors: [LibXMLError] = []
}

extension String {
    /// The string without the spaces and line breaks at its end.
    func trimmingTrailingWhitespace() -> String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
