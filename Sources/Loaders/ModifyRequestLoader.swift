public import HTTPCore
internal import Foundation

/// Changes each request in place with a closure before handing it on.
public struct ModifyRequestLoader: HTTPLoader {
    public let modify: @Sendable (inout HTTPRequest) -> Void
    public let next: any HTTPLoader

    public init(next: any HTTPLoader, modify: @escaping @Sendable (inout HTTPRequest) -> Void) {
        self.modify = modify
        self.next = next
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        modify(&request)
        return try await next.load(request)
    }
}

extension LoaderLayer {
    /// Changes each request in place with `modify`.
    public static func modifyRequest(_ modify: @escaping @Sendable (inout HTTPRequest) -> Void) -> LoaderLayer {
        LoaderLayer { ModifyRequestLoader(next: $0, modify: modify) }
    }

    /// Sets a header on requests that do not already have it; `value` is asked once per request.
    public static func defaultHeader(_ name: String, value: @escaping @Sendable () -> String) -> LoaderLayer {
        modifyRequest { request in
            if !request.headers.contains(name) { request.headers[name] = value() }
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
