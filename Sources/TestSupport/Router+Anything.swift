internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// The `/anything` route: the request echoed the way httpbin echoes it, so that redaction is tested on its forms.
extension Router {
    /// `/anything[?ascii=1]`: JSON with `url`, the request's URL with its non-ASCII characters decoded (an IRI, as
    /// Werkzeug shows it: `?s=pass%20wörd`), and `headers`, each value's bytes read as ISO-8859-1 (as WSGI servers read
    /// them: `Grüße` becomes `GrÃ¼Ã\u{9F}e`), and `data`, the body as text; with `ascii`, every non-ASCII character as
    /// `\uXXXX` (Python's default).
    func anything(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let host = request.header("Host") ?? "127.0.0.1"
        let url = "http://\(host)" + Self.iri(request.uri)
        var headers: [String: String] = [:]
        for header in request.headers {
            headers[header.name] = String(String.UnicodeScalarView(header.value.utf8.map { Unicode.Scalar($0) }))
        }
        let body: [String: Any] = ["url": url, "headers": headers, "data": String(decoding: request.body, as: UTF8.self)]
        let text = String(decoding: JSONText.bytes(of: body), as: UTF8.self)
        guard request.query("ascii") != nil else { return writer.sendJSONText(.ok, text) }
        var ascii = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                ascii.unicodeScalars.append(scalar)
            } else {
                for unit in String(scalar).utf16 { ascii += String(format: "\\u%04x", unit) }
            }
        }
        writer.sendJSONText(.ok, ascii)
    }

    /// A URI with the percent-escapes of non-ASCII characters decoded and the others kept.
    private static func iri(_ uri: String) -> String {
        var bytes: [UInt8] = []
        var rest = uri.utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16), value >= 0x80 {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
