public import HTTPCore
internal import Foundation

/// Sends the cookies of the current task's jar (`CookieJar.current`) and stores the ones each answer sets.
///
/// Placed after the redirect loader, it sees every hop. Its cookies join a `Cookie` header the request already has;
/// the response's `request` is the request as handed to it, so a loader before it never sees the jar's cookies (a
/// redirect hop gets the cookies that apply to its own URL). Requests with `options.cookies` false, and requests
/// made outside a jar, pass through untouched.
public struct CookieLoader: HTTPLoader {
    public let next: any HTTPLoader

    public init(next: any HTTPLoader) { self.next = next }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard request.options.cookies, let jar = CookieJar.current else {
            return try await next.load(request)
        }
        // The request as handed over, when the jar's cookies were added to it; the URL is built only for a jar
        // that holds cookies, and (in `store`) for an answer that sets some.
        var original: HTTPRequest?
        if !jar.isEmpty, let url = request.url, let cookies = jar.cookieHeader(for: url) {
            original = copy request
            request.headers["Cookie"] = (request.headers.values(for: "Cookie") + [cookies]).joined(separator: "; ")
        }
        do {
            var response = try await next.load(request)
            Self.store(response, in: jar)
            if let original { response.request = original }
            return response
        } catch {
            if let response = error.response { Self.store(response, in: jar) }
            throw error
        }
    }

    /// Keeps the cookies `response` sets, as an answer to the URL of its request.
    private static func store(_ response: HTTPResponse, in jar: CookieJar) {
        let headers = response.headers.values(for: "Set-Cookie")
        guard !headers.isEmpty, let url = response.request.url else { return }
        jar.store(setCookieHeaders: headers, from: url)
    }
}

extension CookieJar {
    /// The jar of the request file running in the current task; nil outside a run's file.
    @TaskLocal public static var current: CookieJar?
}

extension LoaderLayer {
    /// Keeps cookies in the current task's jar.
    public static let cookies = LoaderLayer { CookieLoader(next: $0) }
}
