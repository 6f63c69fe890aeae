public import HTTPCore
internal import Foundation

/// Follows 301, 302, 303, 307 and 308 responses up to `options.maxRedirects`.
///
/// 303 (and 301/302 after a POST) continue as GET without a body. A hop to another scheme, host or port
/// drops `Authorization`, the `Cookie` header the request was given, `Proxy-Authorization`, every header named as a
/// credential and every header whose value holds a secret (`headersKeptFromOtherOrigins`), and a body holding a secret or a
/// credential is not sent there (the hop is an error); a later hop back to the first request's origin carries that
/// request's credentials again. (The cookie jar, a layer below, sends each hop
/// the cookies RFC 6265 gives its URL.) Targets that are not http(s) are refused,
/// and a hop back to a URL already visited with the same method is reported as a cycle, unless a response since then
/// set a cookie (which the hop then sends).
public struct RedirectLoader: HTTPLoader {
    public let next: any HTTPLoader

    public init(next: any HTTPLoader) { self.next = next }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let follows = request.options.followRedirects, limit = request.options.maxRedirects
        var response = try await next.load(request)
        // Most responses are not redirects: the request is handed on as it is, and taken back from the response
        // (which holds it as sent) only when there is a hop to make.
        guard follows, response.status.isFollowableRedirect, response.headers["Location"] != nil else { return response }
        let original = response.request
        var visited: Set<String> = [Self.visitKey(original)]
        var hops = 0
        while response.status.isFollowableRedirect, let location = response.headers["Location"] {
            guard hops < limit else {
                throw HTTPError(.tooManyRedirects, request: response.request, response: response,
                                message: "more than \(limit) \(limit == 1 ? "redirect" : "redirects"), starting at \(original.displayURL)")
            }
            let hop = Self.restoringCredentials(of: original, in: try Self.nextRequest(after: response, location: location))
            // A response that sets a cookie may send the client back where it was, now with the cookie (a login, a consent
            // page): the URLs visited before it are no cycle, and `maxRedirects` still ends a loop.
            if response.headers["Set-Cookie"] != nil && original.options.cookies { visited = [] }
            guard visited.insert(Self.visitKey(hop)).inserted else {
                throw HTTPError(.tooManyRedirects, request: hop, response: response,
                                message: "redirect cycle: \(response.request.displayURL) leads back to \(hop.displayURL)")
            }
            hops += 1
            do {
                response = try await next.load(hop)
            } catch where error.code != .cancelled {
                // The hop's URL alone does not say the request was redirected there.
                var error = error
                error.redirected(from: response.request.displayURL)
                throw error
            }
        }
        return response
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
        if let problem = components.portProblem {
            throw HTTPError(.invalidResponse, request: previous, response: response,
                            message: "\(previous.displayURL) redirected to an invalid URL: \(location) (\(problem))")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError(.invalidResponse, request: previous, response: response,
                            message: "refused to follow a redirect from \(previous.displayURL) to \(location): only http and https are followed")
        }
        guard components.host?.isEmpty == false else {
            throw HTTPError(.invalidResponse, request: previous, response: response,
                            message: "\(previous.displayURL) redirected to an invalid URL: \(location) (no host: \(scheme): is not followed by //)")
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
            for name in previous.headersKeptFromOtherOrigins { next.headers.remove(name: name) }
            if previous.options.bodyHoldsCredential && !next.body.isEmpty {
                throw HTTPError(.invalidResponse, request: previous, response: response,
                                message: "refused to follow the \(code) redirect from \(previous.displayURL) to \(next.displayURL), another "
                                    + "origin: the request's body holds a secret or a credential, which a \(code) sends there again")
            }
        }
        return next
    }

    /// `hop` with the credential headers of `original` when it goes back to `original`'s origin.
    static func restoringCredentials(of original: HTTPRequest, in hop: HTTPRequest) -> HTTPRequest {
        guard sameOrigin(original, hop) else { return hop }
        var restored = hop
        for name in original.headersKeptFromOtherOrigins {
            let values = original.headers.values(for: name)
            guard !values.isEmpty, !restored.headers.contains(name) else { continue }
            for value in values { restored.headers.add(name: name, value: value) }
        }
        return restored
    }

    /// Whether two requests share scheme, host and (default-filled) port.
    static func sameOrigin(_ a: HTTPRequest, _ b: HTTPRequest) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.effectivePort == b.effectivePort
    }

    private static func visitKey(_ request: HTTPRequest) -> String {
        request.method.rawValue + " " + (request.url?.absoluteString ?? request.displayURL)
    }
}

extension LoaderLayer {
    /// Follows redirects as each request's options say.
    public static let redirects = LoaderLayer { RedirectLoader(next: $0) }
}
