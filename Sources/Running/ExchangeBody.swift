internal import Foundation
internal import HTTPCore
internal import Loaders

extension Exchange {
    /// How much of a body the reports keep: 64 KiB.
    public static let bodyLimit = 64 * 1024

    /// The last hop of a request as it was sent and as it was answered (or why it failed), for the reports of a
    /// failed or errored request.
    init(lastHopOf loaded: Result<HTTPResponse, HTTPError>) {
        let (request, response, error): (HTTPRequest, HTTPResponse?, HTTPError?) = switch loaded {
        case .success(let response): (response.request, response, nil)
        case .failure(let error): (error.lastWritten, error.response, error)
        }
        let body = request.body.isEmpty ? nil : try? request.body.encode()
        let headers = request.headersAsSent(bodyLength: body?.count ?? 0)
        let requestBody = body.flatMap { Self.kept($0, type: headers["Content-Type"]) }
        let responseBody = response.flatMap { Self.kept($0.shownBody, type: $0.headers["Content-Type"]) }
        self.init(
            method: request.method.rawValue, url: request.displayURL,
            requestHeaders: headers.map { ($0.name, $0.value) },
            requestBody: requestBody?.text,
            status: response?.status.code,
            responseHeaders: response?.headers.map { ($0.name, $0.value) } ?? [],
            responseBody: responseBody?.text,
            error: error?.message, duration: response?.duration ?? .zero)
        (requestBodyIsJSON, responseBodyIsJSON) = (requestBody?.isJSON == true, responseBody?.isJSON == true)
        (requestBodySize, responseBodySize) = (body?.count, response?.body.count)
    }

    /// A body as reports keep it, nil when empty: UTF-8 text as received (an OAuth2 token response written with its
    /// tokens masked) cut at `bodyLimit` bytes, `…` and a note saying so, or its size and type when it is binary or not
    /// UTF-8; and whether it is JSON, which reports indent once they have hidden its secrets (`shown`).
    static func kept(_ body: Data, type: String?) -> (text: String, isJSON: Bool)? {
        guard !body.isEmpty else { return nil }
        guard let text = String(validatingUTF8Data: body) else {
            return ("(\(body.count) bytes of \(type.map { "'\($0)'" } ?? "binary data"), not shown)", false)
        }
        let json = json(text)
        let kept = json ?? formWithTokensMasked(text) ?? text
        guard kept.utf8.count > bodyLimit else { return (kept, json != nil) }
        // `…` right after the cut text, so that the start of a secret cut there is hidden (`Redactor`); JSON is cut before
        // a string the limit falls in near its start, whose escapes could hide a secret's start from that rule.
        let cut = json == nil ? bodyLimit : cutBeforeString(in: kept, at: bodyLimit)
        return (kept.prefix(utf8Count: cut) + "…" + cutNote + "\(bodyLimit / 1024) KiB of \(kept.utf8.count) bytes)", json != nil)
    }

    /// Where to cut JSON text at `limit` bytes: before the string the limit falls in when that string starts at most
    /// 4 KiB before it (a secret is shorter), else at the limit.
    private static func cutBeforeString(in text: String, at limit: Int) -> Int {
        var (inString, escaped, start) = (false, false, 0)
        for (index, byte) in text.utf8.prefix(limit).enumerated() {
            if !inString {
                if byte == UInt8(ascii: "\"") { (inString, start) = (true, index) }
            } else if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        }
        return inString && limit - start <= 4096 ? start : limit
    }

    /// The start of the note after a body cut at `bodyLimit`.
    private static let cutNote = "\n(cut at "

    /// What reports show of a body kept by `kept`: redacted whole by `redact` first (so that a secret written as JSON,
    /// or spanning lines, is found as written), then, for JSON, indented (`reindented`), a cut note left as it is.
    public static func shown(_ text: String, isJSON: Bool, redacting redact: (String) -> String) -> String {
        let redacted = redact(text)
        guard isJSON else { return redacted }
        guard let note = redacted.range(of: cutNote, options: .backwards) else { return reindented(redacted) }
        return reindented(String(redacted[..<note.lowerBound])) + redacted[note.lowerBound...]
    }

    /// A form-encoded body (an OAuth2 token response as some servers write it: `access_token=…&token_type=…`, under any
    /// `Content-Type`, its fields ended by `&` or a line break, as the auth reads it, or by `;`, as some write them) with the values of its token fields
    /// masked, and those values elsewhere in it (an `error_description` naming one) too; nil when it has none.
    private static func formWithTokensMasked(_ text: String) -> String? {
        guard mayNameTokenMember(text) else { return nil }
        var (result, field, tokens) = ("", "", [String]())
        func flush() {
            let name = field.prefix { $0 != "=" }
            // Any case, spaces around it (`Access_Token = …`): a response the auth refuses is shown too.
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if name.count < field.count, OAuth2AccessToken.isCredentialMember(trimmed.removingPercentEncoding ?? trimmed) {
                tokens.append(field.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
                result += name + "=***"
            } else {
                result += field
            }
            field = ""
        }
        // Separators are kept as they are (`\r\n` is one character).
        for character in text {
            if character == "&" || character == ";" || character.isNewline {
                flush()
                result.append(character)
            } else {
                field.append(character)
            }
        }
        flush()
        return tokens.isEmpty ? nil : hiding(tokens, in: result)
    }

    /// Whether `text` may name a token's credential (in one pass over its bytes, where reading its fields costs about
    /// 30 ms for 200 KB): percent escapes decoded and folded as `OAuth2AccessToken.isCredentialMember` folds names, it
    /// holds `token` or `mackey`; or it holds a byte beyond ASCII, which a name may be written with.
    private static func mayNameTokenMember(_ text: String) -> Bool {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        while var byte = bytes.next() {
            // A name percent-encoded (`access%5Ftoken`) is read decoded.
            if byte == UInt8(ascii: "%") {
                var escape = bytes
                guard let high = escape.next()?.hexDigitValue, let low = escape.next()?.hexDigitValue else { continue }
                (byte, bytes) = (high << 4 | low, escape)
            }
            if byte >= 0x80 { return true }
            guard byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") else { continue }
            folded.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        }
        return [Array("token".utf8), Array("mackey".utf8)].contains { word in
            folded.indices.dropLast(word.count - 1).contains { folded[$0] == word[0] && folded[$0..<$0 + word.count].elementsEqual(word) }
        }
    }

    /// `text` with every token, the value of an `OAuth2AccessToken.isCredentialMember` member or field (of
    /// `SensitiveText.minimumLength` characters or more, as written and percent-decoded), as `***`.
    private static func hiding(_ tokens: [String], in text: String) -> String {
        let forms = Set(tokens.flatMap { [$0, $0.removingPercentEncoding ?? $0] }).filter { $0.count >= SensitiveText.minimumLength }
        return forms.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// JSON text as received, every string, number and member kept as written (a lone escaped surrogate, a number beyond
    /// 2^53, a repeated key, `1e2`); an OAuth2 token response written from its parsed value, its tokens masked. Nil when
    /// the text is not a JSON object or list.
    private static func json(_ text: String) -> String? {
        guard let first = text.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let value = try? JSONValue.parse(text)
        else { return nil }
        var (tokens, masked) = ([String](), false)
        let withTokensMasked = maskingTokens(value, tokens: &tokens, masked: &masked)
        // A token named again in another member (an `error_description`) is hidden there too.
        return masked ? hiding(tokens, in: withTokensMasked.serialized(pretty: true)) : text
    }

    /// `value` with every `OAuth2AccessToken.isCredentialMember` member (at any depth: a response the auth refuses is
    /// shown too) as `***`; the strings they held go into `tokens`, and `masked` says whether there was one.
    private static func maskingTokens(_ value: JSONValue, tokens: inout [String], masked: inout Bool) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object.members {
                if OAuth2AccessToken.isCredentialMember(key) {
                    strings(of: member, into: &tokens)
                    masked = true
                    result[key] = .string("***")
                } else {
                    result[key] = maskingTokens(member, tokens: &tokens, masked: &masked)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { maskingTokens($0, tokens: &tokens, masked: &masked) })
        default:
            return value
        }
    }

    /// The strings `value` holds, at any depth.
    private static func strings(of value: JSONValue, into strings: inout [String]) {
        switch value {
        case .string(let text): strings.append(text)
        case .array(let elements): elements.forEach { Self.strings(of: $0, into: &strings) }
        case .object(let object): object.members.forEach { Self.strings(of: $0.value, into: &strings) }
        default: break
        }
    }

    /// JSON text laid out as `JSONValue.serialized(pretty: true)` lays it out, its tokens unchanged (text made of them,
    /// `***` where a secret was hidden, a cut body, is laid out alike):
    /// white space outside strings replaced by a line break and two spaces per level after `{`, `[` and `,`, and a
    /// space after `:`; an empty object or list stays `{}` or `[]`.
    public static func reindented(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let (space, quote, backslash) = (UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "\\"))
        let isSpace = { (byte: UInt8) in byte == space || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        var depth = 0
        func newline() {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(space, count: depth * 2))
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case quote:
                // A string, copied up to its closing quote (an escaped quote does not close it).
                output.append(byte)
                while index < bytes.count {
                    let inner = bytes[index]
                    output.append(inner)
                    index += 1
                    if inner == backslash, index < bytes.count {
                        output.append(bytes[index])
                        index += 1
                    } else if inner == quote {
                        break
                    }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let next = bytes[index...].firstIndex { !isSpace($0) } ?? bytes.count
                if next < bytes.count, bytes[next] == (byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    output.append(bytes[next])
                    index = next + 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [byte, space])
            case _ where isSpace(byte):
                continue
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
