public import Foundation

/// An HTTP request as a value: method, URL components, headers, body and typed options.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The URL; scheme and host may be unset for a path relative to the environment.
    public var components: URLComponents
    public var headers: HTTPHeaders
    public var body: any HTTPBody
    public var options: HTTPRequestOptions
    /// When the request must be complete, set by the timeout loader for each attempt; the transport
    /// ends it with `timedOut` then (redirect hops and a token fetch share their request's deadline).
    public var deadline: ContinuousClock.Instant?

    /// Creates a request from URL components.
    public init(
        method: HTTPMethod = .get, components: URLComponents, headers: HTTPHeaders = [:],
        body: any HTTPBody = EmptyBody(), options: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        self.method = method
        self.components = components
        self.headers = headers
        self.body = body
        self.options = options
    }

    /// Creates a request for a URL.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:],
        body: any HTTPBody = EmptyBody(), options: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true) ?? URLComponents()
        self.init(method: method, components: components, headers: headers, body: body, options: options)
    }

    /// Creates a request from an absolute or relative URL string; nil when the string is not a URL.
    public init?(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = [:],
        body: any HTTPBody = EmptyBody(), options: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        guard let components = URLComponents(string: url) else { return nil }
        self.init(method: method, components: components, headers: headers, body: body, options: options)
    }

    public var scheme: String? {
        get { components.scheme }
        set { components.scheme = newValue }
    }

    /// The host, decoded (percent-escapes and IDNA `xn--` labels as Unicode), as `URLComponents.host` gives it.
    public var host: String? {
        get {
            // `URLComponents.host` runs IDNA decoding on every read; a host of plain ASCII without `%` or an
            // `xn--` label reads the same encoded, which is several times cheaper.
            if let encoded = components.encodedHost, Self.decodesToItself(encoded) { return encoded }
            return components.host
        }
        set { components.host = newValue }
    }

    /// The host as it goes on the wire (`Host`, a proxy's `CONNECT`): an international name as its IDNA `xn--` labels.
    public var hostAsSent: String? { components.encodedHost }

    /// Whether an encoded host is also its decoded form: ASCII, without percent-escapes or IDNA labels.
    static func decodesToItself(_ host: String) -> Bool {
        var utf8 = host.utf8.makeIterator()
        // Bytes since the start of the current label, up to four, to find an `xn--` prefix (any case).
        var labelStart: UInt32 = 0
        var labelLength = 0
        while let byte = utf8.next() {
            guard byte < 0x80, byte != UInt8(ascii: "%") else { return false }
            if byte == UInt8(ascii: ".") {
                labelStart = 0
                labelLength = 0
                continue
            }
            if labelLength < 4 {
                labelStart = labelStart << 8 | UInt32(byte | (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0))
                labelLength += 1
                if labelLength == 4, labelStart == 0x786E_2D2D { return false } // "xn--"
            }
        }
        return true
    }

    public var port: Int? {
        get { components.port }
        set { components.port = newValue }
    }

    public var path: String {
        get { components.path }
        set { components.path = newValue }
    }

    /// The full URL, nil while the components do not form one.
    public var url: URL? { components.url }

    /// The URL as text for messages, even while it is relative; a `CONNECT`'s `host:port` (its request target).
    public var displayURL: String {
        if method == .connect, let host = hostAsSent, let port = components.port {
            return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
        return components.string ?? path
    }

    /// Whether scheme and host are set.
    public var isAbsolute: Bool { components.scheme != nil && components.host != nil }

    /// Whether the scheme is `https` (in any case): the exchange goes over TLS.
    public var usesTLS: Bool { scheme?.lowercased() == "https" }

    /// The port the request goes to: the URL's, else its scheme's default (443 for `https`, else 80).
    public var effectivePort: Int { port ?? (usesTLS ? 443 : 80) }

    /// The decoded query items in order.
    public var queryItems: [URLQueryItem] { components.queryItems ?? [] }

    /// Whether the query has an item with this name.
    public func hasQueryItem(named name: String) -> Bool {
        queryItems.contains { $0.name == name }
    }

    /// Appends a query item, percent-encoding all but RFC 3986 unreserved characters (so `+` and `&` survive).
    public mutating func appendQueryItem(name: String, value: String?) {
        var items = components.percentEncodedQueryItems ?? []
        items.append(URLQueryItem(
            name: PercentEncoding.encode(name),
            value: value.map { PercentEncoding.encode($0) }))
        components.percentEncodedQueryItems = items
    }
}

extension HTTPRequest {
    /// The headers a redirect never carries to another origin: the credential headers (`Authorization`, `Cookie`, ...),
    /// those named as credentials (`X-Api-Key`, `X-Auth-Token`, whatever gives their values) and those holding a secret.
    public var headersKeptFromOtherOrigins: [String] {
        HTTPHeaders.credentialNames + options.secretHeaders + headers.map(\.name).filter(HTTPHeaders.namesCredential)
    }
}
