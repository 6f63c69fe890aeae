public import HTTPCore
internal import Foundation

/// Changes each request with a closure before handing it on.
public struct ModifyRequestLoader: HTTPLoader {
    public let modify: @Sendable (HTTPRequest) -> HTTPRequest
    public let next: any HTTPLoader

    public init(next: any HTTPLoader, modify: @escaping @Sendable (HTTPRequest) -> HTTPRequest) {
        self.modify = modify
        self.next = next
    }

    public func load(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try await next.load(modify(request))
    }
}

extension LoaderLayer {
    /// Changes each request with `modify`.
    public static func modifyRequest(_ modify: @escaping @Sendable (HTTPRequest) -> HTTPRequest) -> LoaderLayer {
        LoaderLayer { ModifyRequestLoader(next: $0, modify: modify) }
    }

    /// Sets a header on requests that do not already have it; `value` is asked once per request.
    public static func defaultHeader(_ name: String, value: @escaping @Sendable () -> String) -> LoaderLayer {
        modifyRequest { request in
            guard !request.headers.contains(name) else { return request }
            var request = request
            request.headers[name] = value()
            return request
        }
    }

    /// Sets `User-Agent` unless the request has one.
    public static func userAgent(_ userAgent: String) -> LoaderLayer {
        defaultHeader("User-Agent") { userAgent }
    }

    /// Gives each request a fresh UUID in `header` unless it has one.
    public static func requestID(header: String = "X-Request-ID") -> LoaderLayer {
        defaultHeader(header) { UUID().uuidString }
    }
}
