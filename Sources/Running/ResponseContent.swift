internal import Foundation
internal import Expectations
internal import HTTPCore

/// A response body read once for every check and capture of a request: as text, and parsed as JSON and as
/// XML or HTML at most once each.
final class ResponseContent {
    let response: HTTPResponse
    private var parsedJSON: Result<JSONValue, BodyProblem>?
    private var decodedText: Result<String, BodyProblem>?
    private var parsedMarkup: Result<MarkupDocument, BodyProblem>?

    /// Bodies above this size are not parsed as JSON, XML or HTML (they are still available as text).
    static let maximumParsedBytes = 8 * 1024 * 1024

    init(_ response: HTTPResponse) {
        self.response = response
    }

    /// Why the body cannot be read the way an expectation or capture needs it.
    struct BodyProblem: Error {
        let message: String
    }

    /// The body as text in the charset its Content-Type names (UTF-8 without one, or with one not known), or why it is
    /// not text.
    var text: Result<String, BodyProblem> {
        if let decodedText { return decodedText }
        let result: Result<String, BodyProblem>
        if let (charset, encoding) = declaredEncoding {
            if let text = String(data: response.body, encoding: encoding) {
                result = .success(text)
            } else {
                result = .failure(BodyProblem(message: "the response body is not valid \(charset) (\(describedBody)), not text"))
            }
        } else if let text = String(validatingUTF8Data: response.body) {
            result = .success(text)
        } else {
            result = .failure(BodyProblem(message: "the response body is binary (\(describedBody)), not text"))
        }
        decodedText = result
        return result
    }

    /// The charset the Content-Type names and its encoding, when it is one other than UTF-8 that bodies are read in.
    private lazy var declaredEncoding: (charset: String, encoding: String.Encoding)? = {
        // Most types have no parameter: no parsing for them.
        guard response.headers["Content-Type"]?.utf8.contains(UInt8(ascii: ";")) == true, let charset = mediaType?.charset else { return nil }
        let encoding: String.Encoding? = switch charset.lowercased() {
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1": .isoLatin1
        case "windows-1252", "cp1252": .windowsCP1252
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "utf-32": .utf32
        case "utf-32le": .utf32LittleEndian
        case "utf-32be": .utf32BigEndian
        default: nil
        }
        return encoding.map { (charset, $0) }
    }()

    /// The body parsed as JSON, or why it is not JSON (empty, binary, too large, malformed).
    var json: Result<JSONValue, BodyProblem> {
        if let parsedJSON { return parsedJSON }
        let result: Result<JSONValue, BodyProblem>
        if response.body.isEmpty {
            result = .failure(BodyProblem(message: "the response body is empty, not JSON"))
        } else if response.body.count > Self.maximumParsedBytes {
            result = .failure(BodyProblem(message: "the response body is too large to parse as JSON (\(describedBody))"))
        } else if case .failure(let problem) = text {
            result = .failure(BodyProblem(message: problem.message.replacingOccurrences(of: "not text", with: "not JSON")))
        } else {
            do {
                // Text in another charset, or UTF-8 after a byte order mark (RFC 8259 lets a parser ignore it), is parsed
                // as the text it decodes to.
                let decoded = declaredEncoding != nil || response.body.starts(with: [0xEF, 0xBB, 0xBF])
                result = .success(try decoded ? JSONValue.parse((try? text.get()) ?? "") : JSONValue.parse(response.body))
            } catch {
                result = .failure(BodyProblem(message: "the response body is not JSON (\(describedBody)): \(error)"))
            }
        }
        parsedJSON = result
        return result
    }

    /// The body parsed as HTML when the Content-Type is `text/html`, else as XML; or why it cannot be (empty,
    /// too large, not well-formed XML).
    var markup: Result<MarkupDocument, BodyProblem> {
        if let parsedMarkup { return parsedMarkup }
        let syntax = markupSyntax
        let name = syntax == .html ? "HTML" : "XML"
        let result: Result<MarkupDocument, BodyProblem>
        if response.body.isEmpty {
            result = .failure(BodyProblem(message: "the response body is empty, not \(name)"))
        } else if response.body.count > Self.maximumParsedBytes {
            result = .failure(BodyProblem(message: "the response body is too large to parse as \(name) (\(describedBody))"))
        } else {
            do {
                result = .success(try MarkupDocument(parsing: response.body, as: syntax, charset: mediaType?.charset))
            } catch {
                result = .failure(BodyProblem(message: "the response body is not \(name) (\(describedBody)): \(error)"))
            }
        }
        parsedMarkup = result
        return result
    }

    /// HTML when the Content-Type is `text/html`, XML otherwise.
    var markupSyntax: MarkupDocument.Syntax { mediaType?.essence == "text/html" ? .html : .xml }

    private var mediaType: MediaType? { response.headers["Content-Type"].map(MediaType.init) }

    /// What an XPath query needs the body to be: `an XML body` or `an HTML body`.
    var expectedMarkup: String { markupSyntax == .html ? "an HTML body" : "an XML body" }

    /// `512 bytes, Content-Type text/html`, and a Content-Encoding the transport does not decode (it asks for gzip and
    /// deflate only): `, Content-Encoding br, which runner does not decode`.
    private var describedBody: String {
        let type = response.headers["Content-Type"].map { ", Content-Type \($0)" } ?? ""
        let encoding = response.headers["Content-Encoding"].flatMap { coding in
            ["gzip", "x-gzip", "deflate", "identity"].contains(coding.lowercased()) ? nil : ", Content-Encoding \(coding), which runner does not decode"
        } ?? ""
        return "\(response.body.count) bytes\(type)\(encoding)"
    }
}

/// The parts of a Content-Type value that choose a parser: `text/html; charset=UTF-8` is `text/html` and `UTF-8`.
struct MediaType {
    /// The type and subtype in lower case, without parameters.
    let essence: String
    /// The `charset` parameter without quotes, if any.
    let charset: String?

    init(_ value: String) {
        let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        essence = parts.first?.lowercased() ?? ""
        charset = parts.dropFirst().lazy.compactMap { parameter -> String? in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "charset" else { return nil }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }.first
    }
}

extension String {
    /// The text of UTF-8 bytes, nil when they are not valid UTF-8 or contain NUL.
    init?(validatingUTF8Data data: Data) {
        let decoded = data.withUnsafeBytes { bytes -> String? in
            guard !bytes.contains(0) else { return nil }
            // Foundation drops a leading byte order mark; without one, the standard library's validation
            // decodes the same text without a detour through Foundation.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(bytes: bytes, encoding: .utf8) }
            return String(validating: bytes, as: UTF8.self)
        }
        guard let decoded else { return nil }
        self = decoded
    }
}
