public import Foundation
internal import Synchronization

/// Cookies stored from `Set-Cookie` answers and chosen for later requests by RFC 6265's rules (sections 5.2 to 5.4):
/// domain and host-only matching, path matching, `Secure`, `Expires` and `Max-Age` (which wins).
///
/// `HttpOnly` is kept with the cookie; it changes nothing for a client without scripts. Public suffixes are not
/// known: a `Domain` attribute is accepted whenever the request's host is inside it.
public final class CookieJar: Sendable {
    /// One stored cookie.
    public struct Cookie: Sendable, Equatable {
        public var name: String
        public var value: String
        /// Lowercased, without a leading dot.
        public var domain: String
        /// Sent to `domain` itself only, not to its subdomains (no `Domain` attribute).
        public var hostOnly: Bool
        public var path: String
        public var secure: Bool
        public var httpOnly: Bool
        /// When it expires; nil for a cookie that lasts as long as the jar.
        public var expires: Date?
        /// Orders cookies of equal path length, oldest first.
        var created: Date
    }

    private let cookies = Mutex<[Cookie]>([])
    private let now: @Sendable () -> Date

    /// Creates an empty jar; `now` tells the time expiry is judged at.
    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Whether the jar holds no cookie (expired ones included).
    public var isEmpty: Bool { cookies.withLock { $0.isEmpty } }

    /// Every cookie not expired, in the order they were stored.
    public var storedCookies: [Cookie] {
        let now = now()
        return cookies.withLock { $0.filter { !$0.isExpired(at: now) } }
    }

    /// Stores the cookies of the `Set-Cookie` headers of an answer to `url`: a cookie of the same name, domain and
    /// path as a stored one replaces it in its place, and one already expired removes it. An answer over `http` sets no
    /// `Secure` cookie, nor one named as a stored `Secure` cookie it would shadow (RFC 6265bis, as browsers do).
    public func store(setCookieHeaders headers: [String], from url: URL) {
        guard !headers.isEmpty, let host = url.host?.lowercased() else { return }
        let now = now()
        let secureOrigin = url.scheme?.lowercased() == "https"
        let parsed = headers.compactMap { Self.cookie(parsing: $0, host: host, requestPath: url.path, now: now) }
            .filter { secureOrigin || !$0.secure }
        cookies.withLock { stored in
            for var cookie in parsed {
                let shadows = { (old: Cookie) in
                    old.secure && old.name == cookie.name && (Self.domainMatches(old.domain, cookie.domain) || Self.domainMatches(cookie.domain, old.domain))
                        && Self.pathMatches(cookie.path, old.path)
                }
                if !secureOrigin, stored.contains(where: shadows) { continue }
                let old = stored.firstIndex { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if let old {
                    cookie.created = stored[old].created
                    stored[old] = cookie
                } else {
                    stored.append(cookie)
                }
            }
            stored.removeAll { $0.isExpired(at: now) }
        }
    }

    /// The `Cookie` header value for a request to `url` (RFC 6265 section 5.4), nil when no cookie applies.
    public func cookieHeader(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let secure = url.scheme?.lowercased() == "https"
        let path = url.path.isEmpty ? "/" : url.path
        let now = now()
        let chosen = cookies.withLock { stored in
            stored.filter { cookie in
                !cookie.isExpired(at: now) && (!cookie.secure || secure) && Self.pathMatches(path, cookie.path)
                    && (cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain))
            }
        }
        guard !chosen.isEmpty else { return nil }
        return chosen
            .sorted { $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

    /// The cookie a `Set-Cookie` value sets for an answer from `host` to a request for `requestPath`
    /// (RFC 6265 section 5.2 and 5.3); nil when it is ignored.
    static func cookie(parsing header: String, host: String, requestPath: String, now: Date) -> Cookie? {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(name: name, value: pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces),
                            domain: host, hostOnly: true, path: defaultPath(requestPath), secure: false, httpOnly: false,
                            expires: nil, created: now)
        var maxAge: Date?, expires: Date?
        for attribute in parts.dropFirst() {
            let (key, value) = splitAttribute(attribute)
            switch key.lowercased() {
            case "expires":
                if let date = HTTPDate.parse(value) { expires = date }
            case "max-age":
                guard let first = value.first, first == "-" || first.isASCII && first.isNumber,
                      value.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
                let seconds = Int(value) ?? (first == "-" ? Int.min : Int.max)
                maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(min(Double(seconds), 1e10))
            case "domain":
                guard !value.isEmpty else { continue }
                let domain = (value.hasPrefix(".") ? String(value.dropFirst()) : value).lowercased()
                guard domainMatches(host, domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                if value.hasPrefix("/") { cookie.path = value }
            case "secure":
                cookie.secure = true
            case "httponly":
                cookie.httpOnly = true
            default:
                continue
            }
        }
        cookie.expires = maxAge ?? expires
        return cookie
    }

    /// An attribute's name and value, both trimmed; the value is empty without `=`.
    private static func splitAttribute(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else { return (attribute.trimmingCharacters(in: .whitespaces), "") }
        return (attribute[..<equals].trimmingCharacters(in: .whitespaces),
                attribute[attribute.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }

    /// The path a cookie without `Path` gets: the request path up to, not including, its last `/` (RFC 6265 5.1.4).
    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex
        else { return "/" }
        return String(requestPath[..<slash])
    }

    /// Whether `host` is `domain` or a subdomain of it; an IP address matches itself only (RFC 6265 5.1.3).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// Whether a request path is inside a cookie's path (RFC 6265 5.1.4).
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }
}

extension CookieJar.Cookie {
    /// Whether it has expired at `date`.
    func isExpired(at date: Date) -> Bool { expires.map { $0 <= date } ?? false }
}
