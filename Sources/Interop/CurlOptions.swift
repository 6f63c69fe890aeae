import HTTPCore

/// The curl options `runner import curl` knows: what each does to the request, or that it has no equivalent.
enum CurlOption: Sendable {
    /// What an option means for the request.
    enum Effect: Sendable, Hashable {
        case method, header, url, user, cookie, userAgent, referer, oauth2Bearer, maxTime, proxy, maxRedirects
        case data(CurlData.Kind)
        case json
        /// `-F` (true: `@file`, `<file` and `;type=` are read) or `--form-string` (false: the value as written).
        case form(parsesFiles: Bool)
        case get, head, location, insecure
        /// `--location-trusted`: follow redirects, sending the credentials to every host they lead to.
        case locationTrusted
        /// `-g`: the URL's `{}` and `[]` are literal, as runner always reads them.
        case globOff
        /// `-T FILE`: the file as the body, sent with PUT.
        case uploadFile
        /// `-r RANGE`: a `Range: bytes=RANGE` header.
        case range
        /// `--basic`, `--digest`, `--ntlm`, `--negotiate`, `--anyauth`: how `-u`'s credentials are sent (the last wins).
        case authScheme
        /// What runner does anyway: `--compressed` (it asks for gzip and deflate and decodes them).
        case alreadyDone
        /// Something runner has no key for (`-o`, `--limit-rate`): listed, never applied.
        case noEquivalent
    }

    /// An option's names, whether it takes a value, and its effect.
    struct Definition: Sendable {
        var long: String
        var short: Character?
        var takesValue: Bool
        var effect: Effect

        /// Whether it is an on/off option, which `--no-` before its name switches off, as curl reads it.
        var isSwitch: Bool { !takesValue && !CurlOption.notSwitches.contains(long) }
    }

    /// Options without a value that curl 8 refuses `--no-` before: they choose something (a version, an address
    /// family, the next URL's options) rather than switch it on.
    private static let notSwitches: Set<String> = [
        "anyauth", "ftp-pasv", "http1.0", "http1.1", "http2", "http2-prior-knowledge", "http3", "http3-only", "ipv4", "ipv6",
        "next", "proxy-tlsv1", "sslv2", "sslv3", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2", "tlsv1.3",
    ]

    /// Every known option.
    static let all: [Definition] = known + withoutEquivalent

    private static let known: [Definition] = [
        Definition(long: "request", short: "X", takesValue: true, effect: .method),
        Definition(long: "header", short: "H", takesValue: true, effect: .header),
        Definition(long: "url", short: nil, takesValue: true, effect: .url),
        Definition(long: "data", short: "d", takesValue: true, effect: .data(.ascii)),
        Definition(long: "data-ascii", short: nil, takesValue: true, effect: .data(.ascii)),
        Definition(long: "data-raw", short: nil, takesValue: true, effect: .data(.raw)),
        Definition(long: "data-binary", short: nil, takesValue: true, effect: .data(.binary)),
        Definition(long: "data-urlencode", short: nil, takesValue: true, effect: .data(.urlencode)),
        Definition(long: "json", short: nil, takesValue: true, effect: .json),
        Definition(long: "form", short: "F", takesValue: true, effect: .form(parsesFiles: true)),
        Definition(long: "form-string", short: nil, takesValue: true, effect: .form(parsesFiles: false)),
        Definition(long: "user", short: "u", takesValue: true, effect: .user),
        Definition(long: "get", short: "G", takesValue: false, effect: .get),
        Definition(long: "head", short: "I", takesValue: false, effect: .head),
        Definition(long: "location", short: "L", takesValue: false, effect: .location),
        Definition(long: "location-trusted", short: nil, takesValue: false, effect: .locationTrusted),
        Definition(long: "max-redirs", short: nil, takesValue: true, effect: .maxRedirects),
        Definition(long: "insecure", short: "k", takesValue: false, effect: .insecure),
        Definition(long: "compressed", short: nil, takesValue: false, effect: .alreadyDone),
        Definition(long: "cookie", short: "b", takesValue: true, effect: .cookie),
        Definition(long: "user-agent", short: "A", takesValue: true, effect: .userAgent),
        Definition(long: "referer", short: "e", takesValue: true, effect: .referer),
        Definition(long: "oauth2-bearer", short: nil, takesValue: true, effect: .oauth2Bearer),
        Definition(long: "max-time", short: "m", takesValue: true, effect: .maxTime),
        Definition(long: "proxy", short: "x", takesValue: true, effect: .proxy),
        Definition(long: "globoff", short: "g", takesValue: false, effect: .globOff),
        Definition(long: "upload-file", short: "T", takesValue: true, effect: .uploadFile),
        Definition(long: "range", short: "r", takesValue: true, effect: .range),
        Definition(long: "basic", short: nil, takesValue: false, effect: .authScheme),
        Definition(long: "digest", short: nil, takesValue: false, effect: .authScheme),
        Definition(long: "ntlm", short: nil, takesValue: false, effect: .authScheme),
        Definition(long: "negotiate", short: nil, takesValue: false, effect: .authScheme),
        Definition(long: "anyauth", short: nil, takesValue: false, effect: .authScheme),
    ]

    /// Options people paste that change how curl runs or prints, not a request runner can write.
    private static let withoutEquivalent: [Definition] = [
        ("output", "o", true), ("remote-name", "O", false), ("limit-rate", nil, true), ("silent", "s", false),
        ("show-error", "S", false), ("verbose", "v", false), ("include", "i", false), ("fail", "f", false),
        ("fail-with-body", nil, false), ("write-out", "w", true), ("connect-timeout", nil, true), ("retry", nil, true),
        ("retry-delay", nil, true), ("retry-max-time", nil, true), ("retry-all-errors", nil, false),
        ("http1.0", "0", false), ("http1.1", nil, false), ("http2", nil, false), ("http2-prior-knowledge", nil, false),
        ("http3", nil, false), ("tlsv1.2", nil, false), ("tlsv1.3", nil, false), ("cookie-jar", "c", true),
        ("dump-header", "D", true), ("cacert", nil, true), ("capath", nil, true), ("cert", "E", true), ("key", nil, true),
        ("pass", nil, true), ("progress-bar", "#", false), ("progress-meter", nil, false), ("buffer", "N", false),
        ("path-as-is", nil, false), ("ipv4", "4", false), ("ipv6", "6", false),
        ("resolve", nil, true), ("connect-to", nil, true), ("interface", nil, true), ("max-filesize", nil, true),
        ("trace", nil, true), ("trace-ascii", nil, true), ("stderr", nil, true), ("create-dirs", nil, false),
        ("noproxy", nil, true), ("proxy-user", "U", true), ("keepalive-time", nil, true),
        ("keepalive", nil, false), ("tcp-nodelay", nil, false), ("raw", nil, false), ("styled-output", nil, false),
        ("parallel", "Z", false), ("next", ":", false), ("config", "K", true), ("netrc", "n", false),
        ("netrc-optional", nil, false), ("ssl-no-revoke", nil, false), ("tr-encoding", nil, false),
        ("http0.9", nil, false), ("ignore-content-length", nil, false), ("junk-session-cookies", "j", false),
        ("proxy-header", nil, true), ("proxy-pass", nil, true), ("proxy-cert", nil, true), ("proxy-key", nil, true),
        ("proxy-cacert", nil, true), ("proxy-insecure", nil, false), ("proxy-basic", nil, false), ("proxy-anyauth", nil, false),
        ("proxy-digest", nil, false), ("proxy-ntlm", nil, false), ("tlsuser", nil, true), ("tlspassword", nil, true),
        ("proxy-tlsuser", nil, true), ("proxy-tlspassword", nil, true), ("key-type", nil, true), ("cert-type", nil, true),
        ("socks5", nil, true), ("socks5-hostname", nil, true), ("preproxy", nil, true), ("mail-auth", nil, true),
        ("sasl-authzid", nil, true), ("variable", nil, true), ("url-query", nil, true), ("aws-sigv4", nil, true),
        // How curl connects, negotiates TLS, retries, logs and saves: nothing of the request a file describes.
        ("abstract-unix-socket", nil, true), ("alt-svc", nil, true), ("append", "a", false), ("ca-native", nil, false),
        ("cert-status", nil, false), ("ciphers", nil, true), ("compressed-ssh", nil, false), ("continue-at", "C", true),
        ("create-file-mode", nil, true), ("crlf", nil, false), ("crlfile", nil, true), ("curves", nil, true),
        ("delegation", nil, true), ("disable", "q", false), ("disable-eprt", nil, false), ("disable-epsv", nil, false),
        ("disallow-username-in-url", nil, false), ("dns-interface", nil, true), ("dns-ipv4-addr", nil, true),
        ("dns-ipv6-addr", nil, true), ("dns-servers", nil, true), ("doh-cert-status", nil, false), ("doh-insecure", nil, false),
        ("doh-url", nil, true), ("ech", nil, true), ("egd-file", nil, true), ("engine", nil, true), ("etag-compare", nil, true),
        ("etag-save", nil, true), ("expect100-timeout", nil, true), ("fail-early", nil, false), ("false-start", nil, false),
        ("form-escape", nil, false), ("ftp-account", nil, true), ("ftp-alternative-to-user", nil, true),
        ("ftp-create-dirs", nil, false), ("ftp-method", nil, true), ("ftp-pasv", nil, false), ("ftp-port", "P", true),
        ("ftp-pret", nil, false), ("ftp-skip-pasv-ip", nil, false), ("ftp-ssl", nil, false), ("ftp-ssl-ccc", nil, false), ("ftp-ssl-ccc-mode", nil, true),
        ("ftp-ssl-control", nil, false), ("ftp-ssl-reqd", nil, false), ("haproxy-clientip", nil, true), ("haproxy-protocol", nil, false),
        ("happy-eyeballs-timeout-ms", nil, true), ("help", "h", false), ("hostpubmd5", nil, true), ("hostpubsha256", nil, true),
        ("hsts", nil, true), ("http3-only", nil, false), ("ip-tos", nil, true), ("ipfs-gateway", nil, true),
        ("keepalive-cnt", nil, true), ("knownhosts", nil, true), ("krb", nil, true), ("krb4", nil, true), ("libcurl", nil, true),
        ("list-only", "l", false), ("local-port", nil, true), ("login-options", nil, true), ("mail-from", nil, true),
        ("mail-rcpt", nil, true), ("mail-rcpt-allowfails", nil, false), ("manual", "M", false), ("metalink", nil, false),
        ("mptcp", nil, false), ("netrc-file", nil, true), ("alpn", nil, false), ("clobber", nil, false),
        ("npn", nil, false), ("sessionid", nil, false), ("ntlm-wb", nil, false), ("out-null", nil, false),
        ("output-dir", nil, true), ("parallel-immediate", nil, false), ("parallel-max", nil, true), ("pinnedpubkey", nil, true),
        ("post301", nil, false), ("post302", nil, false), ("post303", nil, false), ("proto", nil, true),
        ("proto-default", nil, true), ("proto-redir", nil, true), ("proxy-ca-native", nil, false), ("proxy-capath", nil, true),
        ("proxy-cert-type", nil, true), ("proxy-ciphers", nil, true), ("proxy-crlfile", nil, true), ("proxy-http2", nil, false),
        ("proxy-key-type", nil, true), ("proxy-negotiate", nil, false), ("proxy-pinnedpubkey", nil, true),
        ("proxy-service-name", nil, true), ("proxy-ssl-allow-beast", nil, false), ("proxy-ssl-auto-client-cert", nil, false),
        ("proxy-tls13-ciphers", nil, true), ("proxy-tlsauthtype", nil, true), ("proxy-tlsv1", nil, false),
        ("proxy1.0", nil, true), ("proxytunnel", "p", false), ("pubkey", nil, true), ("quote", "Q", true), ("random-file", nil, true),
        ("rate", nil, true), ("remote-header-name", "J", false), ("remote-name-all", nil, false), ("remote-time", "R", false),
        ("remove-on-error", nil, false), ("request-target", nil, true), ("retry-connrefused", nil, false),
        ("sasl-ir", nil, false), ("service-name", nil, true), ("sigalgs", nil, true), ("skip-existing", nil, false),
        ("socks4", nil, true), ("socks4a", nil, true), ("socks5-basic", nil, false), ("socks5-gssapi", nil, false),
        ("socks5-gssapi-nec", nil, false), ("socks5-gssapi-service", nil, true), ("speed-limit", "Y", true),
        ("speed-time", "y", true), ("ssl", nil, false), ("ssl-allow-beast", nil, false), ("ssl-auto-client-cert", nil, false),
        ("ssl-reqd", nil, false), ("ssl-revoke-best-effort", nil, false), ("ssl-sessions", nil, true), ("sslv2", "2", false),
        ("sslv3", "3", false), ("suppress-connect-headers", nil, false), ("tcp-fastopen", nil, false),
        ("telnet-option", "t", true), ("tftp-blksize", nil, true), ("tftp-no-options", nil, false), ("time-cond", "z", true),
        ("tls-max", nil, true), ("tls13-ciphers", nil, true), ("tlsauthtype", nil, true), ("tlsv1", "1", false),
        ("tlsv1.0", nil, false), ("tlsv1.1", nil, false), ("trace-config", nil, true), ("trace-ids", nil, false),
        ("trace-time", nil, false), ("unix-socket", nil, true), ("use-ascii", "B", false), ("version", "V", false),
        ("vlan-priority", nil, true), ("xattr", nil, false),
    ].map { Definition(long: $0.0, short: $0.1, takesValue: $0.2, effect: .noEquivalent) }

    /// What curl would send differently for an option without equivalent that changes the request, which its warning
    /// says; options that only change how curl connects, prints or saves have none.
    static let requestChanges: [String: String] = [
        "continue-at": "curl would ask for the rest of the resource with a Range header",
        "time-cond": "curl would send an If-Modified-Since or If-Unmodified-Since header (write it with -H)",
        "etag-compare": "curl would send an If-None-Match header read from the file",
        "request-target": "curl would send this target in the request line instead of the URL's path",
        "unix-socket": "curl would send the request through this socket, not to the URL's host",
        "abstract-unix-socket": "curl would send the request through this socket, not to the URL's host",
        "post301": "curl would keep POST when following a 301 redirect", "post302": "curl would keep POST when following a 302 redirect",
        "post303": "curl would keep POST when following a 303 redirect",
        "proxy1.0": "curl would send the request through this HTTP/1.0 proxy",
        "crlf": "curl would convert line breaks of an upload to CRLF",
        "http1.0": "curl would send the request as HTTP/1.0",
    ]

    /// The credentials `value` holds for an option without equivalent: the password of `--proxy-user`, `--cert` and
    /// `--proxy-cert` (after `:`), the whole value of `--pass` and the TLS passwords, a credential header of
    /// `--proxy-header`, a `--variable` named like a credential; none for other options.
    static func credentials(of option: Definition, in value: String) -> [String] {
        switch option.long {
        case "pass", "proxy-pass", "tlspassword", "proxy-tlspassword": [value]
        case "proxy-user", "cert", "proxy-cert":
            value.firstIndex(of: ":").map { [String(value[value.index(after: $0)...])] } ?? []
        case "proxy-header":
            value.firstIndex(of: ":").map {
                CredentialNames.headerCredentials(name: String(value[..<$0]), value: String(value[value.index(after: $0)...]))
            } ?? []
        case "variable", "url-query": CredentialNames.secretFields(value)
        case "preproxy", "socks5", "socks5-hostname": URLCredentials.password(of: value, proxy: true).map { [$0] } ?? []
        default: []
        }
    }

    /// The option with this long name (without `--`).
    static func named(_ long: String) -> Definition? {
        all.first { $0.long == long }
    }

    /// The option a long name (without `--`) gives, and whether it switches it on: `no-location` is `location` switched
    /// off, as curl reads `--no-` before any option name (and refuses it before one that is no switch).
    static func reading(_ long: String) -> (option: Definition, on: Bool)? {
        if let option = named(long) { return (option, true) }
        guard long.hasPrefix("no-"), let option = named(String(long.dropFirst(3))) else { return nil }
        return (option, false)
    }

    /// Every long option as written, `--no-` forms of switches included: what an unknown one may be a typo of.
    static var writtenNames: [String] {
        all.flatMap { ["--" + $0.long] + ($0.isSwitch ? ["--no-" + $0.long] : []) }
    }

    /// The option with this letter (without `-`).
    static func lettered(_ short: Character) -> Definition? {
        all.first { $0.short == short }
    }
}
