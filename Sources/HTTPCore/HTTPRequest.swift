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

    public var host: String? {
        get { components.host }
        set { components.host = newValue }
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

    /// Whether scheme and host are set.
    public var isAbsolute: Bool { components.scheme != nil && components.host != nil }

    /// The decoded query items in order.
    public var queryItems: [URLQueryItem] { components.queryItems ?? [] }

    /// Whether the query has an item with this name.
    public func hasQueryItem(named name: String) -> Bool {
        queryItems.contains { $0.name == name }
    }

    /// Appends a query item, percent-encoding all but ASCII alphanumerics (so `+` and `&` survive).
    public mutating func appendQueryItem(name: String, value: String?) {
        var items = components.percentEncodedQueryItems ?? []
        items.append(URLQueryItem(
            name: PercentEncoding.encodeAllButAlphanumerics(name),
            value: value.map(PercentEncoding.encodeAllButAlphanumerics)))
        components.percentEncodedQueryItems = items
    }
}
