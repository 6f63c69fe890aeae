public import Foundation

/// Where relative requests go and what every request gets: scheme, host, port, path prefix, headers, query.
public struct ServerEnvironment: Sendable, Hashable {
    public var scheme: String
    public var host: String
    public var port: Int?
    /// Joined in front of relative paths; empty or starting with `/`, no trailing `/`.
    public var pathPrefix: String
    /// Added to every request that does not set the header.
    public var headers: HTTPHeaders
    /// Added to every request whose query does not have an item of that name.
    public var query: [URLQueryItem]
    /// The user and password of the base URL (`https://ci:pw@host`), percent-encoded, given to relative requests.
    public var user: String?, password: String?

    public init(
        scheme: String = "https", host: String, port: Int? = nil, pathPrefix: String = "",
        headers: HTTPHeaders = [:], query: [URLQueryItem] = []
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathPrefix = Self.normalizedPrefix(pathPrefix)
        self.headers = headers
        self.query = query
    }

    /// Creates an environment from a base URL such as `https://qa.example.com:8443/api`;
    /// nil unless it is an absolute http(s) URL with a host.
    public init?(baseURL: String, headers: HTTPHeaders = [:], query: [URLQueryItem] = []) {
        guard let components = PercentEncoding.components(ofURL: baseURL),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        self.init(scheme: scheme, host: host, port: components.port, pathPrefix: components.percentEncodedPath,
                  headers: headers, query: (components.queryItems ?? []) + query)
        (user, password) = (components.percentEncodedUser, components.percentEncodedPassword)
    }

    /// The request completed from this environment: a relative one gets its scheme, host, port and path prefix; every
    /// one gets the headers and query items it does not set itself; an absolute URL keeps its origin and path.
    /// (Taken, not borrowed, so that the request is changed in place rather than copied.)
    public func complete(_ request: consuming HTTPRequest) -> HTTPRequest {
        var request = request
        // The scheme goes first: setting it on components that have a host makes Foundation read the host again.
        if request.scheme == nil { request.scheme = scheme }
        if request.host?.isEmpty ?? true {
            request.host = host
            request.port = port
            if let user { (request.components.percentEncodedUser, request.components.percentEncodedPassword) = (user, password) }
            request.components.percentEncodedPath = joinedPath(request.components.percentEncodedPath)
        }
        request.headers.addMissing(from: headers)
        for item in query where !request.hasQueryItem(named: item.name) {
            request.appendQueryItem(name: item.name, value: item.value)
        }
        return request
    }

    /// Joins the path prefix and a relative path with exactly one `/` between them.
    public func joinedPath(_ path: String) -> String {
        let relative = path.drop { $0 == "/" }
        if relative.isEmpty { return pathPrefix.isEmpty ? "/" : pathPrefix + (path.hasSuffix("/") ? "/" : "") }
        return pathPrefix + "/" + relative
    }

    private static func normalizedPrefix(_ prefix: String) -> String {
        let trimmed = prefix.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return trimmed.isEmpty ? "" : "/" + trimmed
    }
}
