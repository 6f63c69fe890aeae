internal import Foundation

/// One part of a `multipart/form-data` body: a field value or a file.
struct MultipartPart: Sendable, Equatable {
    /// The form field name from `Content-Disposition`.
    let name: String
    /// The file name from `Content-Disposition`, present for files.
    let filename: String?
    /// The part's `Content-Type`, when given.
    let contentType: String?
    /// The part's content.
    let body: [UInt8]
}

/// Parsing `multipart/form-data` bodies (RFC 7578) into parts.
enum MultipartForm {
    /// The `boundary` parameter of a `multipart/form-data` Content-Type, or nil for any other type.
    static func boundary(ofContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        return HeaderParameters(parameters.dropFirst())["boundary"]
    }

    /// The parts of `body` delimited by `boundary`, or nil when the body is not well-formed.
    static func parts(of body: [UInt8], boundary: String) -> [MultipartPart]? {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        guard var position = body.firstRange(of: delimiter)?.upperBound else { return nil }
        var parts: [MultipartPart] = []
        while true {
            let rest = body[position...]
            if rest.starts(with: Array("--".utf8)) {
                return parts
            }
            guard rest.starts(with: Array("\r\n".utf8)),
                  let end = body[(position + 2)...].firstRange(of: separator),
                  let part = part(body[(position + 2)..<end.lowerBound])
            else { return nil }
            parts.append(part)
            position = end.upperBound
        }
    }

    /// One part made of its header lines and content, or nil without a `Content-Disposition` name.
    private static func part(_ bytes: ArraySlice<UInt8>) -> MultipartPart? {
        guard let blank = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let headerText = String(decoding: bytes[..<blank.lowerBound], as: UTF8.self)
        var headers: [String: String] = [:]
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let disposition = (headers["content-disposition"] ?? "").split(separator: ";")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard disposition.first?.lowercased() == "form-data" else { return nil }
        let parameters = HeaderParameters(disposition.dropFirst())
        guard let name = parameters["name"] else { return nil }
        return MultipartPart(
            name: name,
            filename: parameters["filename"],
            contentType: headers["content-type"],
            body: Array(bytes[blank.upperBound...])
        )
    }
}

/// The `key=value` parameters of a header value, keys lower-cased, quotes removed.
private struct HeaderParameters {
    private var values: [String: String] = [:]

    /// Parameters from pieces such as `name="avatar"` or `boundary=xyz`.
    init(_ pieces: some Sequence<String>) {
        for piece in pieces {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            values[piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] = value
        }
    }

    /// The value of parameter `key` (lower-case), if present.
    subscript(key: String) -> String? {
        values[key]
    }
}
