/// One request as a loopback server received it: method, target, headers and the complete body.
public struct IncomingRequest: Sendable, Equatable {
    /// One header line as received, name in its original spelling.
    public struct Header: Sendable, Equatable {
        /// The header name as sent by the client.
        public let name: String
        /// The header value as sent by the client.
        public let value: String
    }

    /// The protocol version the request arrived over, e.g. "HTTP/1.1" or "HTTP/2.0".
    public let httpVersion: String
    /// The request method, e.g. "GET".
    public let method: String
    /// The request target exactly as received, path and query, e.g. "/echo?a=1".
    public let uri: String
    /// The path part of the target without the query, percent-encoding kept, e.g. "/echo".
    public let path: String
    /// The decoded query parameters in order of appearance.
    public let queryItems: [QueryItem]
    /// All header lines in order of appearance.
    public let headers: [Header]
    /// The complete request body.
    public let body: [UInt8]

    /// The first value of a query parameter, or nil when absent.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The values of a header (case-insensitive name) joined with ", ", or nil when absent.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The body decoded as UTF-8, or nil when it is not valid UTF-8.
    public var bodyText: String? {
        String(validating: body, as: UTF8.self)
    }
}

/// One decoded `name=value` pair of a query string or a form body.
public struct QueryItem: Sendable, Equatable {
    /// The decoded parameter name.
    public let name: String
    /// The decoded parameter value ("" when the pair had no "=").
    public let value: String

    /// Parses `a=1&b=x%20y` (also `+` as space, as in forms) into decoded items.
    public static func parse(_ text: Substring) -> [QueryItem] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? parts[1] : ""
            return QueryItem(name: percentDecoded(parts[0]), value: percentDecoded(value))
        }
    }

    /// Decodes `%XX` escapes and `+` into the UTF-8 text they stand for; malformed escapes stay as they are.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                      let decoded = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(decoded)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
