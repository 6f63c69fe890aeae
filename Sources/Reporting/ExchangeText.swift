import Running

/// An exchange as text, the same in every report: `>` lines for the request, `<` lines for the response, `!` for
/// a failure; credential headers and secrets hidden, characters that could drive a terminal made visible.
enum ExchangeText {
    /// One hop, bodies cut at `bodyLimit` bytes when given.
    static func render(_ exchange: Exchange, redactor: Redactor, bodyLimit: Int? = nil) -> String {
        // Each part redacted once: the lines of text here, the bodies (the longest parts) in `bodyLines`.
        let header = { (prefix: String, header: (name: String, value: String)) in
            "\(prefix) \(redactor.redact(header.name)): \(redactor.redactHeader(name: header.name, value: header.value))"
        }
        var lines = ["> \(redactor.redactMethod(exchange.method)) \(redactor.redact(exchange.url))"]
        lines += exchange.requestHeaders.map { header(">", $0) }
        lines += bodyLines(exchange.requestBody, isJSON: exchange.requestBodyIsJSON, size: exchange.requestBodySize, prefix: ">",
                           limit: bodyLimit, redactor: redactor)
        if let status = exchange.status { lines.append("< \(status)  \(OutcomeText.duration(exchange.duration))") }
        lines += exchange.responseHeaders.map { header("<", $0) }
        lines += bodyLines(exchange.responseBody, isJSON: exchange.responseBodyIsJSON, size: exchange.responseBodySize, prefix: "<",
                           limit: bodyLimit, redactor: redactor)
        if let error = exchange.error { lines.append("! \(redactor.redact(error))") }
        return TerminalText.printable(lines.joined(separator: "\n"))
    }

    /// The first `lines` lines (at most `bytes` bytes) of the response body, `<`-prefixed under a heading saying how
    /// much is shown; nil without a body.
    static func bodyStart(of exchange: Exchange, redactor: Redactor, lines: Int = 20, bytes: Int = 2048) -> String? {
        guard let body = exchange.responseBody, !body.isEmpty else { return nil }
        // Redacted before it is split into lines, so that a secret of several lines (a PEM key) is hidden.
        let (text, whole) = shown(body, isJSON: exchange.responseBodyIsJSON, limit: bytes, redactor: redactor)
        let all = splitLines(text)
        var shown: [Substring] = []
        var size = 0
        var cutInLine = false
        for line in all.prefix(lines) {
            let room = bytes - size
            size += line.utf8.count + 1
            if size > bytes {
                // A line past the limit is shown cut there (a long first line; a long JSON string after `{`).
                if room > 0 {
                    shown.append(Substring(keepingMasks(String(line), cutAt: room) + "…"))
                    cutInLine = true
                }
                break
            }
            shown.append(line)
        }
        // A body kept cut (at 64 KiB) has more lines than the kept text: its size is told instead.
        let bodySize = exchange.responseBodySize ?? body.utf8.count
        let heading = if cutInLine {
            "response body (first \(bytes / 1024) KiB of \(bodySize) bytes):"
        } else if shown.count == all.count && whole {
            "response body:"
        } else if bodySize > body.utf8.count || !whole {
            "response body (first \(shown.count) lines of \(bodySize) bytes):"
        } else {
            "response body (first \(shown.count) of \(all.count) lines):"
        }
        return TerminalText.printable(([heading] + shown.map { "< \($0)" }).joined(separator: "\n"))
    }

    /// The body's lines, redacted whole before they are cut at `limit` bytes and split (no piece of a secret is left at
    /// the cut, and a secret of several lines, a PEM key, is hidden), each after `prefix`; a cut one ends with the size
    /// of the body (`size` bytes as sent or received, when known).
    private static func bodyLines(_ body: String?, isJSON: Bool, size: Int?, prefix: String, limit: Int?, redactor: Redactor) -> [String] {
        guard let body, !body.isEmpty else { return [] }
        let redacted = shown(body, isJSON: isJSON, limit: limit, redactor: redactor).text
        let cut = limit.map { limit in
            redacted.utf8.count <= limit ? redacted : keepingMasks(redacted, cutAt: limit) + "… (\(size ?? body.utf8.count) bytes)"
        } ?? redacted
        return [prefix] + splitLines(cut).map { "\(prefix) \($0)" }
    }

    /// A body as `Exchange.shown` shows it, of which `limit` bytes are shown (nil: all), and whether it is whole: one
    /// longer than twice the limit is redacted and laid out from its start only (twice the limit, ended by `…` so that a
    /// secret cut there is hidden: a kept body of 64 KiB takes ~15 ms with a few secrets), unless that start shows less
    /// than the limit (JSON written with more white space than it is laid out with).
    private static func shown(_ body: String, isJSON: Bool, limit: Int?, redactor: Redactor) -> (text: String, whole: Bool) {
        if let limit, body.utf8.count > 2 * limit {
            let start = Exchange.shown(body.prefix(utf8Count: 2 * limit) + "…", isJSON: isJSON, redacting: redactor.redact)
            if start.utf8.count > limit + "…".utf8.count { return (start, false) }
        }
        return (Exchange.shown(body, isJSON: isJSON, redacting: redactor.redact), true)
    }

    /// Redacted text cut to `limit` bytes, or a little more where the cut falls inside a `***`: the mask is kept whole.
    private static func keepingMasks(_ redacted: String, cutAt limit: Int) -> String {
        let cut = redacted.prefix(utf8Count: limit)
        guard cut.hasSuffix("*") else { return cut }
        let rest = redacted.utf8.dropFirst(cut.utf8.count).prefix { $0 == UInt8(ascii: "*") }.prefix(Redactor.mask.count - 1)
        return cut + String(repeating: "*", count: rest.count)
    }

    /// Lines ending in LF or CRLF (multipart bodies): each shown on its own, without an escaped CR, and no empty line
    /// after the last line break. Split at bytes, as an LF is always a character of its own (Foundation's search and the
    /// split by characters cost ~10 ms per 64 KiB).
    private static func splitLines(_ text: String) -> [Substring] {
        let lines = text.utf8.contains(UInt8(ascii: "\r")) ? text.replacingBytes(of: "\r\n", with: "\n") : text
        let split = lines.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Substring.init)
        return split.count > 1 && split.last?.isEmpty == true ? split.dropLast() : split
    }
}
