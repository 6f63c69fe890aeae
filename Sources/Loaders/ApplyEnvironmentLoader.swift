public import HTTPCore

/// Fills what a request leaves unset from a `ServerEnvironment`: scheme, host, port, path prefix,
/// headers and query items.
public struct ApplyEnvironmentLoader: HTTPLoader {
    public let environment: ServerEnvironment
    public let next: any HTTPLoader

    public init(environment: ServerEnvironment, next: any HTTPLoader) {
        self.environment = environment
        self.next = next
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try await next.load(Self.apply(environment, to: request))
    }

    /// The request completed from the environment; an absolute URL keeps its origin and path. (Taken, not
    /// borrowed, so that the request is changed in place rather than copied.)
    public static func apply(_ environment: ServerEnvironment, to request: consuming HTTPRequest) -> HTTPRequest {
        var request = request
        // The scheme goes first: setting it on components that have a host makes Foundation read the host again.
        if request.scheme == nil { request.scheme = environment.scheme }
        if request.host?.isEmpty ?? true {
            request.host = environment.host
            request.port = environment.port
            request.components.percentEncodedPath = environment.joinedPath(request.components.percentEncodedPath)
        }
        request.headers.addMissing(from: environment.headers)
        for item in environment.query where !request.hasQueryItem(named: item.name) {
            request.appendQueryItem(name: item.name, value: item.value)
        }
        return request
    }
}

extension LoaderLayer {
    /// Completes relative requests from `environment`.
    public static func applyEnvironment(_ environment: ServerEnvironment) -> LoaderLayer {
        LoaderLayer { ApplyEnvironmentLoader(environment: environment, next: $0) }
    }
}
