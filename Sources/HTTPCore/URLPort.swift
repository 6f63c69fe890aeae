public import Foundation

extension URLComponents {
    /// The ports a URL may name: a socket takes 16 bits of whatever number is written, so port 99999 would reach 34463.
    public static let validPorts = 1...65535

    /// How to fix a URL whose port is out of range.
    public static let portSuggestion = "write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)"

    /// How to fix `problem`, one of this URL's `requestURLProblem`s: `portSuggestion` when it is the port's, else nil (a
    /// host that is no name and a port out of range in one URL: the host is reported, without the port's help).
    public func requestURLSuggestion(for problem: String) -> String? {
        problem == portProblem(quoting: true) || problem == portProblem(quoting: false) ? Self.portSuggestion : nil
    }

    /// Why the URL's port cannot be used ("the port 99999 is not a number from 1 to 65535"), also for a number too
    /// large for an `Int`, which `port` reads as none (the request would go to the scheme's default port); nil when it
    /// has no port or a valid one.
    public var portProblem: String? { portProblem(quoting: true) }

    /// `portProblem`, naming the port only when `quoting` (not when a secret gave it).
    public func portProblem(quoting: Bool) -> String? {
        let written: Substring
        if let port {
            guard !Self.validPorts.contains(port) else { return nil }
            written = Substring(String(port))
        } else {
            guard let range = rangeOfPort, let text = string else { return nil }
            written = text[range]
        }
        return "the port \(quoting ? written + " " : "")is not a number from 1 to 65535"
    }

    /// Why the port written in URL `text` cannot be used ("the port '-1' is not a number from 1 to 65535"), read from
    /// the text, which need not parse (a negative port or a word does not); nil when it names none or a valid one.
    /// `quoting` says whether the port may be named (not when a secret gave it).
    public static func writtenPortProblem(inURL text: String, quoting: Bool = true) -> String? {
        // Digits only: `Int` would read `+80` as 80, which no URL parser takes.
        guard let port = writtenPort(inURL: text),
              !port.allSatisfy({ ("0"..."9").contains($0) }) || Int(port).map({ !validPorts.contains($0) }) ?? true else { return nil }
        return "the port \(quoting ? "'\(port)' " : "")is not a number from 1 to 65535"
    }

    /// The port as written after the host of an `http://` URL (after the user information and any IPv6 brackets),
    /// nil when none is written.
    static func writtenPort(inURL url: String) -> Substring? {
        writtenPortText(inURL: url).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The text after the `:` that follows the host of an `http://` URL, empty when nothing follows it (`host:/x`); nil
    /// when there is no `:` there.
    private static func writtenPortText(inURL url: String) -> Substring? {
        guard let schemeEnd = url.range(of: "://")?.upperBound else { return nil }
        var authority = url[schemeEnd...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if let bracket = authority.lastIndex(of: "]") { authority = authority[authority.index(after: bracket)...] }
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        return authority[authority.index(after: colon)...]
    }

    /// Why an http(s) URL cannot be sent: it has no host (`http:/x`, `http:///x`, which would otherwise be read as a
    /// path on the environment's host), a host no name can be (`bad host`), or a port out of range; nil when it can be.
    public var requestURLProblem: String? { requestURLProblem(quoting: true) }

    /// `requestURLProblem`, naming the port only when `quoting` (not when a secret gave the URL).
    public func requestURLProblem(quoting: Bool) -> String? {
        // `//host/path` names a host without a scheme: joined to nothing, it would go to that host with the
        // environment's credentials; as a path it would hide the host it names.
        if scheme == nil, encodedHost != nil {
            return "it starts with '//', which names a host without a scheme; write http(s)://HOST/PATH for another server, "
                + "or a path with one leading '/' to join to the baseURL"
        }
        let encoded = encodedHost ?? ""
        if let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https", encoded.isEmpty {
            return "it has no host; write \(scheme)://HOST/PATH"
        }
        // A name's ASCII characters are letters, digits, `-`, `.` and `_` (others, such as `ü`, make an international name);
        // an IPv6 address is in brackets.
        if let host, !host.hasPrefix("["),
           host.unicodeScalars.contains(where: { $0.isASCII && !($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0)) }) {
            return "its host is not a host name: it holds a space, a control or punctuation a name cannot (letters, digits, '-', '_' and '.')"
        }
        // An international name is sent as its IDNA labels (`xn--`): one IDNA cannot write (a label that starts or ends
        // with '-'), a percent-escape that is no UTF-8 character, or an `xn--` label that decodes to nothing is no name.
        let decoded = encoded.removingPercentEncoding
        // Empty labels and numbers first: an international name with one (`bücher..example`) fails IDNA for that.
        if !encoded.isEmpty, !encoded.hasPrefix("["), let problem = Self.nameProblem(decoded ?? encoded) { return problem }
        if !encoded.isEmpty, !encoded.hasPrefix("["), host == nil || encoded.contains("%") {
            let cause = if decoded == nil {
                "it holds a percent-escape that is no UTF-8 character"
            } else if decoded?.unicodeScalars.allSatisfy(\.isASCII) == false {
                "it is an international name IDNA cannot write as xn-- labels (such as one with a label that starts or ends with '-')"
            } else if encoded.contains("%") {
                "it holds percent-escapes, which a host name cannot: write the characters themselves"
            } else {
                "it holds an xn-- label that does not decode"
            }
            return "its host is not a name a request can be sent to: \(cause)"
        }
        if encoded.hasPrefix("[") {
            if encoded.contains("%") { return "its IPv6 address has a zone (%25…), which cannot be used here: write the address alone" }
            if !Self.isIPv6Literal(encoded) { return "its host is not an IPv6 address, which is what brackets hold (such as [::1])" }
        }
        // `host:` and no port: a URL parser takes the scheme's, but it is most often a variable that was empty (`--var port=`).
        if let text = string, Self.writtenPortText(inURL: text)?.isEmpty == true {
            return "nothing follows the ':' after its host, where a port goes; write the port, or no ':'"
        }
        return portProblem(quoting: quoting)
    }

    /// Why `host` (ASCII, not in brackets) names nothing a request can reach: an empty label (`a..b`, `.a`), a label
    /// over 63 characters or a name over 253 (DNS cannot carry them), or a last
    /// label that is a number, which makes the host an IPv4 address (`127.1` and `0x7f.1` are), and it is none
    /// (`1.2.3.256`); nil when it can be looked up.
    static func nameProblem(_ host: String) -> String? {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last == "" { labels.removeLast() }
        if labels.contains("") { return "its host has an empty label (two dots in a row, or a dot first): write a name such as api.example.com" }
        // An international label's length is that of its IDNA form, which IDNA checks.
        if let long = labels.first(where: { $0.utf8.count > 63 && $0.utf8.allSatisfy { $0 < 0x80 } }) {
            return "its host has a label of \(long.utf8.count) characters, more than the 63 a label of a name may have (RFC 1035)"
        }
        if labels.joined(separator: ".").utf8.count > 253, host.utf8.allSatisfy({ $0 < 0x80 }) {
            return "its host is a name of \(labels.joined(separator: ".").utf8.count) characters, more than the 253 a name may have (RFC 1035)"
        }
        guard let last = labels.last?.lowercased(),
              last.allSatisfy({ ("0"..."9").contains($0) }) || (last.hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit))
        else { return nil }
        var address = in_addr()
        let written = labels.joined(separator: ".")
        guard inet_aton(written, &address) == 0 else { return nil }
        return "its host ends in a number, so it is an IPv4 address, and '\(written)' is none: write four numbers from 0 to 255 (such as 127.0.0.1)"
    }

    /// Whether `host` is an IPv6 address in brackets, with or without a zone (`[fe80::1%25eth0]`).
    static func isIPv6Literal(_ host: String) -> Bool {
        guard host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 else { return false }
        let address = host.dropFirst().dropLast().prefix { $0 != "%" }
        var bytes = in6_addr()
        return inet_pton(AF_INET6, String(address), &bytes) == 1
    }
}
