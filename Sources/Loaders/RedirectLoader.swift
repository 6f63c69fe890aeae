public import HTTPCore
internal import Foundation

/// Follows 301, 302, 303, 307 and 308 responses up to `options.maxRedirects`.
///
/// 303 (and 301/302 after a POST) continue as GET without a body. A hop to another scheme, host or port
/// drops `Authorization`, `Cookie` and `Proxy-Authorization`; a later hop back to the first request's origin
/// carries that request's credentials again. Targets that are not http(s) are refused,
/// and a hop back to a URL already visited with the same method is reported as a cycle.
public struct RedirectLoader: HTTPLoader {
    public let next: any HTTPLoader

    /// Headers that never cross to another origin.
    public static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    public init(next: any HTTPLoader) { self.next = next }

    public func load(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var current = request
        // Filled at the first redirect: most responses are not redirects and need no visit keys.
        var visited: Set<String> = []
        var hops = 0
        while true {
            let response = try await next.load(current)
            guard request.options.followRedirects, response.status.isFollowableRedirect,
                  let location = response.headers["Location"] else { return response }
            if visited.isEmpty { visited.insert(Self.visitKey(request)) }
            guard hops < request.options.maxRedirects else {
                throw HTTPError(.tooManyRedirects, request: current, response: response,
                                message: "more than \(request.options.maxRedirects) redirects, starting at \(request.displayURL)")
            }
            current = Self.restoringCredentials(of: request, in: try Self.nextRequest(after: response, location: location))
            guard visited.insert(Self.visitKey(current)).inserted else {
                throw HTTPError(.tooManyRedirects, request: current, response: response,
                                message: "redirect cycle: \(response.request.displayURL) leads back to \(current.displayURL)")
            }
            hops += 1
        }
    }

    /// The request for the hop to `location`, as RFC 9110 section 15.4 describes.
    static func nextRequest(after response: HTTPResponse, location: String) throws(HTTPError) -> HTTPRequest {
        let previous = response.request
        guard let base = previous.url, let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let components = URLComponents(url: target, resolvingAgainstBaseURL: true)
        else {
            throw HTTPError(.invalidResponse, request: previous, response: response,
                            message: "\(previous.displayURL) redirected to an invalid URL: \(location)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.host?.isEmpty == false
        else {
            throw HTTPError(.invalidResponse, request: previous, response: response,
                            message: "refused to follow a redirect from \(previous.displayURL) to \(location): only http and https are followed")
        }
        var next = previous
        next.components = components
        let code = response.status.code
        if code == 303 && previous.method != .head || (code == 301 || code == 302) && previous.method == .post {
            next.method = .get
            next.body = EmptyBody()
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.headers.remove(name: name) }
        }
        if !sameOrigin(previous, next) {
            for name in credentialHeaders { next.headers.remove(name: name) }
        }
        return next
    }

    /// `hop` with the credential headers of `original` when it goes back to `original`'s origin.
    static func restoringCredentials(of original: HTTPRequest, in hop: HTTPRequest) -> HTTPRequest {
        guard sameOrigin(original, hop) else { return hop }
        var restored = hop
        for name in credentialHeaders {
            let values = original.headers.values(for: name)
            guard !values.isEmpty, !restored.headers.contains(name) else { continue }
            for value in values { restored.headers.add(name: name, value: value) }
        }
        return restored
    }

    /// Whether two requests share scheme, host and (default-filled) port.
    static func sameOrigin(_ a: HTTPRequest, _ b: HTTPRequest) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ request: HTTPRequest) -> Int? {
        request.port ?? (request.scheme?.lowercased() == "https" ? 443 : 80)
    }

    private static func visitKey(_ request: HTTPRequest) -> String {
        request.method.rawValue + " " + (request.url?.absoluteString ?? request.displayURL)
    }
}

extension LoaderLayer {
    /// Follows redirects as each request's options say.
    public static let redirects = LoaderLayer { RedirectLoader(next: $0) }
}
