public import Foundation
internal import CLibXML2

/// An XML or HTML document parsed by libxml2, for XPath queries.
///
/// XML is parsed strictly (a document that is not well-formed is an error) without reading anything from the
/// network or the disk: external entities and DTDs are not loaded, and entity expansion is bounded by libxml2.
/// HTML is parsed leniently, as a browser would: unclosed and misnested tags, bare attribute values and
/// unknown entities are repaired, element and attribute names are lower case, and `html` and `body` are implied.
/// Without a charset, HTML that is valid UTF-8 is read as UTF-8, other HTML by its `<meta>` charset, else as
/// ISO-8859-1.
public final class MarkupDocument {
    /// How the bytes are read.
    public enum Syntax: Sendable {
        case xml, html
    }

    /// The parsed tree, owned by this object.
    let tree: xmlDocPtr
    public let syntax: Syntax

    /// Parses `bytes` as `syntax`; `charset` (from a Content-Type) overrides the encoding the document declares.
    public init(parsing bytes: Data, as syntax: Syntax, charset: String? = nil) throws(MarkupParseError) {
        self.syntax = syntax
        guard bytes.count <= Int(Int32.max) else { throw MarkupParseError(description: "the document is too large to parse") }
        let (tree, errors) = LibXML.collectingErrors { () -> xmlDocPtr? in
            bytes.withUnsafeBytes { buffer in
                let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                let sniffed = syntax == .html && String(validating: buffer, as: UTF8.self) != nil ? "UTF-8" : nil
                return Self.parse(base, count: Int32(buffer.count), as: syntax, charset: charset ?? sniffed)
            }
        }
        guard let tree else {
            let error = errors.first { !$0.isWarning } ?? errors.first
            throw MarkupParseError(description: error.map(Self.describe) ?? "the document could not be parsed")
        }
        self.tree = tree
    }

    deinit {
        xmlFreeDoc(tree)
    }

    private static func parse(_ base: UnsafePointer<CChar>?, count: Int32, as syntax: Syntax, charset: String?) -> xmlDocPtr? {
        switch syntax {
        case .xml:
            guard let context = xmlNewParserCtxt() else { return nil }
            defer { xmlFreeParserCtxt(context) }
            let options = [XML_PARSE_NONET, XML_PARSE_NOERROR, XML_PARSE_NOWARNING].reduce(0) { $0 | Int32($1.rawValue) }
            return xmlCtxtReadMemory(context, base, count, nil, charset, options)
        case .html:
            guard let context = htmlNewParserCtxt() else { return nil }
            defer { htmlFreeParserCtxt(context) }
            let options = [HTML_PARSE_RECOVER, HTML_PARSE_NONET, HTML_PARSE_NOERROR, HTML_PARSE_NOWARNING]
                .reduce(0) { $0 | Int32($1.rawValue) }
            return htmlCtxtReadMemory(context, base, count, nil, charset, options)
        }
    }

    /// `line 3, column 7: Opening and ending tag mismatch: b line 1 and a`; libxml2's depth limit in words a reader can
    /// act on (its own message advises an option runner does not give).
    private static func describe(_ error: LibXMLError) -> String {
        var message = error.message
        if message.hasPrefix("Excessive depth in document: "), let depth = message.split(separator: " ").dropFirst(4).first {
            message = "elements nested deeper than \(depth) levels, which is as deep as a document may be"
        }
        guard error.line > 0 else { return message }
        let column = error.column > 0 ? ", column \(error.column)" : ""
        return "line \(error.line)\(column): \(message)"
    }
}

/// Why bytes could not be parsed as XML (or, rarely, as HTML): the parser's first error, with its line and column.
public struct MarkupParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
}
