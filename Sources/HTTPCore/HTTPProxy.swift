internal import Foundation

/// An HTTP proxy: where it listens and the credentials it is sent in `Proxy-Authorization`.
public struct HTTPProxy: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?

    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// The proxy of a URL such as `http://user:pass@proxy.internal:3128` (scheme `http`, or none; port 1080 when
    /// absent, as curl assumes); nil when the text is not such a URL.
    public init?(url text: String) {
        let written = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: written), components.scheme?.lowercased() == "http",
              let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
              components.query == nil, components.fragment == nil
        else { return nil }
        self.init(host: host, port: components.port ?? 1080, username: components.user, password: components.password)
    }

    /// `host:port`, as messages name the proxy.
    public var authority: String { "\(host):\(port)" }

    /// The `Proxy-Authorization` value for its credentials, nil without them.
    public var authorization: String? {
        username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
    }
}

/// Which proxy a request goes through: one for `http://` and one for `https://` targets, and the hosts reached
/// directly (`NO_PROXY`).
public struct ProxySettings: Sendable, Hashable {
    public var http: HTTPProxy?
    public var https: HTTPProxy?
    /// `NO_PROXY` entries: host suffixes with optional ports, a leading dot allowed, `*` for every host.
    public var bypass: [String]

    public init(http: HTTPProxy? = nil, https: HTTPProxy? = nil, bypass: [String] = []) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// No proxy at all.
    public static let direct = ProxySettings()

    /// The same proxy for both schemes.
    public init(proxy: HTTPProxy, bypass: [String] = []) {
        self.init(http: proxy, https: proxy, bypass: bypass)
    }

    /// The settings of `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` in `environment`, the lower-case name winning
    /// over the upper-case one; a variable whose value is not a proxy URL is ignored.
    public init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            (environment[name.lowercased()] ?? environment[name]).flatMap { $0.isEmpty ? nil : $0 }
        }
        self.init(http: value("HTTP_PROXY").flatMap(HTTPProxy.init(url:)), https: value("HTTPS_PROXY").flatMap(HTTPProxy.init(url:)),
                  bypass: value("NO_PROXY").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [])
    }

    /// The credential texts of its proxies (each password, and `user:password` in base64), which outputs hide.
    public var credentialTexts: [String] {
        [http, https].compactMap { $0 }.flatMap { proxy -> [String] in
            guard let username = proxy.username, let password = proxy.password, !password.isEmpty else { return [] }
            return [password, Data("\(username):\(password)".utf8).base64EncodedString()]
        }
    }

    /// The proxy for a request to `scheme://host:port`, nil when it goes directly.
    public func proxy(scheme: String, host: String, port: Int) -> HTTPProxy? {
        guard let proxy = scheme.lowercased() == "https" ? https : http else { return nil }
        return bypasses(host: host, port: port) ? nil : proxy
    }

    /// Whether a `NO_PROXY` entry names the host (itself or a domain it is in), and its port when the entry has one.
    public func bypasses(host: String, port: Int) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bypass.contains { entry in
            var name = entry.lowercased()
            if name == "*" { return true }
            if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"), let entryPort = Int(name[name.index(after: colon)...]) {
                guard entryPort == port else { return false }
                name = String(name[..<colon])
            }
            name = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name.hasPrefix(".") { name.removeFirst() }
            return !name.isEmpty && (host == name || host.hasSuffix("." + name))
        }
    }
}
