internal import Foundation

/// An HTTP proxy: where it listens and the credentials it is sent in `Proxy-Authorization`.
public struct HTTPProxy: Sendable, Hashable {
    /// The host name or IP address, an IPv6 address without its brackets.
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

    /// Why a text is not a proxy URL, in words that follow "not a proxy URL: ".
    public struct URLProblem: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// The ports a proxy URL may name.
    public static let ports = 1...65535

    /// The proxy of a URL such as `http://user:pass@proxy.internal:3128` (scheme `http`, or none; port 1080 when
    /// absent, as curl assumes; an IPv6 address in brackets, `http://[::1]:3128`), or why the text is not one.
    public static func parse(_ text: String) -> Result<HTTPProxy, URLProblem> {
        let hasScheme = text.contains("://")
        let written = hasScheme ? text : "http://" + text
        let problem = { (description: String) in Result<HTTPProxy, URLProblem>.failure(URLProblem(description: description)) }
        // `http//host`, a colon short: read as a host named `http` with a path, which would say nothing of the cause.
        if !hasScheme, let typo = ["http//", "https//"].first(where: { text.lowercased().hasPrefix($0) }) {
            let written = text.prefix(typo.count)
            return problem("'\(written)' lacks the colon of '\(written.dropLast(2))://'; a proxy URL starts with http://")
        }
        // `http:proxy:3128` or `http:\\proxy:3128`: the slashes left out or turned (it would be read as host `http`).
        if !hasScheme, let scheme = ["https:", "http:"].first(where: { text.lowercased().hasPrefix($0) }) {
            return problem("'\(text.prefix(scheme.count))' is not followed by '//'; a proxy URL starts with http://")
        }
        // A password holding `#`, `?`, `/` or `@` would be read as the host and port, and named as the port.
        if let misplaced = URLCredentials.misplacedDelimiterProblem(inProxyURL: written) { return problem(misplaced) }
        if let portProblem = URLComponents.writtenPortProblem(inURL: written) { return problem(portProblem) }
        // Without `://` the text is read as `host:port`; when it is not one, the scheme is what is missing.
        let noScheme = hasScheme ? "" : ", read as host:port as it does not start with http://"
        // Read as request URLs are (an international host as its IDNA name), so that both name a bad host alike.
        guard let components = PercentEncoding.components(ofURL: written) else { return problem("it is not a URL" + noScheme) }
        guard components.scheme?.lowercased() == "http" else {
            return problem("the scheme is '\(components.scheme ?? "")'; a proxy URL starts with http://")
        }
        // A host no name can be (`[zz]`, `a..b`, a space, `xn--zz`) would be looked up as written.
        if components.encodedHost?.isEmpty == false, let hostProblem = components.requestURLProblem {
            return problem(hostProblem + noScheme)
        }
        // The host as it is looked up: an international name as its IDNA name (`xn--…`).
        guard var host = components.encodedHost ?? components.host, !host.isEmpty else { return problem("it has no host" + noScheme) }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            return problem("it has a path, query or fragment" + noScheme + "; a proxy URL is http://host:port")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return .success(HTTPProxy(host: host, port: components.port ?? 1080, username: components.user, password: components.password))
    }

    /// The proxy of a URL `parse(_:)` accepts; nil when the text is not such a URL.
    public init?(url text: String) {
        guard case .success(let proxy) = Self.parse(text) else { return nil }
        self = proxy
    }

    /// `host:port`, as messages name the proxy (`[::1]:port` for an IPv6 address).
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

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
    /// `NO_PROXY` entries: host suffixes, IP addresses and CIDR ranges, with optional ports, a leading dot allowed,
    /// `*` for every host.
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
    /// over the upper-case one; a variable whose value is not a proxy URL is left out (`malformedVariables(in:)`
    /// names it).
    public init(environment: [String: String]) {
        let proxies = Self.proxyVariables.map { Self.variable($0, in: environment).flatMap { try? HTTPProxy.parse($0.value).get() } }
        self.init(http: proxies[0], https: proxies[1],
                  bypass: Self.variable("NO_PROXY", in: environment).map {
                      $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                  } ?? [])
    }

    /// The proxy variables the process environment is read from, in the order of `http` and `https`.
    private static let proxyVariables = ["HTTP_PROXY", "HTTPS_PROXY"]

    /// Every spelling of the variables read: `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`, in both cases.
    public static let variableNames = (proxyVariables + ["NO_PROXY"]).flatMap { [$0.lowercased(), $0] }

    /// The spellings of `NO_PROXY`, which a `--proxy` URL still reads.
    public static let bypassVariableNames = ["no_proxy", "NO_PROXY"]

    /// The variable of that name (the lower-case one winning) with its name as set, nil when unset or empty.
    private static func variable(_ name: String, in environment: [String: String]) -> (name: String, value: String)? {
        for spelling in [name.lowercased(), name] {
            if let value = environment[spelling] { return value.isEmpty ? nil : (spelling, value) }
        }
        return nil
    }

    /// `HTTP_PROXY` and `HTTPS_PROXY` (as they are spelt in `environment`) when their values are not proxy URLs,
    /// each with why.
    public static func malformedVariables(in environment: [String: String]) -> [(name: String, problem: HTTPProxy.URLProblem)] {
        proxyVariables.compactMap { variable($0, in: environment) }.compactMap { variable in
            guard case .failure(let problem) = HTTPProxy.parse(variable.value) else { return nil }
            return (variable.name, problem)
        }
    }

    /// The credential texts of its proxies (each password, and `user:password` in base64), which outputs hide.
    public var credentialTexts: [String] {
        [http, https].compactMap { $0 }.flatMap { proxy -> [String] in
            guard let username = proxy.username else { return [] }
            let password = proxy.password ?? ""
            // Without a password the user name is the credential (an API token given as the user).
            return [password.isEmpty ? username : password, Data("\(username):\(password)".utf8).base64EncodedString()]
        }
    }

    /// The proxy for a request to `scheme://host:port`, nil when it goes directly.
    public func proxy(scheme: String, host: String, port: Int) -> HTTPProxy? {
        guard let proxy = scheme.lowercased() == "https" ? https : http else { return nil }
        return bypasses(host: host, port: port) ? nil : proxy
    }

    /// Whether a `NO_PROXY` entry names the host, and its port when the entry has one: a host name matches an entry
    /// naming it or a domain it is in; an IP address matches the same address or a CIDR range holding it (never a
    /// suffix of its text).
    public func bypasses(host: String, port: Int) -> Bool {
        let host = Self.unbracketed(host.lowercased())
        let address = IPAddress(host)
        return bypass.contains { Self.entry($0.lowercased(), matches: host, address: address, port: port) }
    }

    private static func entry(_ entry: String, matches host: String, address: IPAddress?, port: Int) -> Bool {
        var name = entry
        if name == "*" { return true }
        // A port follows `host`, `a.b.c.d` or `[v6]`; a bare IPv6 address (several colons) has none.
        if let colon = name.lastIndex(of: ":"),
           name.hasPrefix("[") ? name[..<colon].hasSuffix("]") : name.firstIndex(of: ":") == colon {
            guard Int(name[name.index(after: colon)...]) == port else { return false }
            name = String(name[..<colon])
        }
        name = unbracketed(name)
        if let slash = name.firstIndex(of: "/") {
            guard let address, let network = IPAddress(String(name[..<slash])),
                  let length = Int(name[name.index(after: slash)...]) else { return false }
            return network.contains(address, prefixLength: length)
        }
        if let address { return IPAddress(name) == address }
        if name.hasPrefix(".") { name.removeFirst() }
        return !name.isEmpty && (host == name || host.hasSuffix("." + name))
    }

    private static func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }
}

/// An IPv4 or IPv6 address as its bytes, for `NO_PROXY` ranges.
struct IPAddress: Hashable {
    let bytes: [UInt8]

    /// The address written in `text` (dotted IPv4, or IPv6 without brackets); nil for anything else.
    init?(_ text: String) {
        for (family, size) in [(AF_INET, 4), (AF_INET6, 16)] {
            var bytes = [UInt8](repeating: 0, count: size)
            if inet_pton(family, text, &bytes) == 1 {
                self.bytes = bytes
                return
            }
        }
        return nil
    }

    /// Whether `address` is in the range of this address's first `prefixLength` bits (false across families).
    func contains(_ address: IPAddress, prefixLength: Int) -> Bool {
        guard address.bytes.count == bytes.count, (0...bytes.count * 8).contains(prefixLength) else { return false }
        for index in bytes.indices {
            let bits = min(8, max(0, prefixLength - index * 8))
            let mask: UInt8 = bits == 0 ? 0 : ~UInt8(0) << (8 - bits)
            if bytes[index] & mask != address.bytes[index] & mask { return false }
        }
        return true
    }
}

extension HTTPRequest {
    /// The proxy the request goes through (its `options.proxy` for its scheme and host), nil when it goes directly.
    public var proxy: HTTPProxy? {
        guard let settings = options.proxy, let scheme = scheme?.lowercased(), let host else { return nil }
        return settings.proxy(scheme: scheme, host: host, port: port ?? (scheme == "https" ? 443 : 80))
    }
}
