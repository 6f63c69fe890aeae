import CollectionFormat
import Foundation
import HTTPCore
import Running
internal import Synchronization

/// Replaces secret values and credential header values with `***`; every output goes through one.
///
/// Besides the environment's secrets it hides what outcomes reveal (`RequestOutcome.sensitiveValues`:
/// credentials sent, captures derived from secrets) once it has learnt them; copies share what is learnt.
public struct Redactor: Sendable {
    public static let mask = "***"

    /// The forms of every secret.
    private let secrets: SecretForms
    /// The forms of secrets too short to hide inside other text (`ResolvedSecret.hiding`), found as the long ones are
    /// (encoded, with escapes mixed in) but hidden only where they stand as a whole value (`standsApart`), and of the
    /// credentials outcomes revealed too short to hide inside other text (under `SensitiveText.minimumLength`).
    private let shortSecrets: SecretForms
    /// The long texts redacted so far, when this is a copy that redacts each once (`sharingResults`).
    private var results: RedactedTexts?

    /// Hides each secret as written and in the forms it takes in URLs and JSON text.
    public init(secrets: some Sequence<String>) {
        let values = Set(secrets)
        // A secret's pieces a server shows apart are hidden in every form the secret is, as it is and in one case (a server
        // that normalises case); what is left of it with its ends cut off, with its characters escaped in any way (and in
        // base64, as all text is searched decoded); and its bytes in hex.
        let long = values.filter { ResolvedSecret.hiding($0) == .inText }
        let inText = long.flatMap { [$0] + Self.caseVariants(of: $0) }.flatMap { [$0] + Self.pieces(of: $0) }
        let cuts = inText.flatMap(Self.cuts)
        // A quoted-printable echo breaks its lines anywhere (a soft line break, `=` at a line's end): each part of a
        // secret outside ASCII is hidden in that form too.
        let quotedPrintableCuts = cuts.filter { $0.utf8.contains { $0 >= 0x80 } }.map(Self.quotedPrintable)
        self.secrets = SecretForms(Set(inText.flatMap(Self.encodedForms) + long.flatMap(Self.hexForms) + quotedPrintableCuts),
                                   loosely: (inText + cuts).flatMap(Self.looseValues))
        let short = values.filter { ResolvedSecret.hiding($0) == .wholeValue }
        shortSecrets = SecretForms(Set(short.flatMap { [$0] + Self.encodedForms(of: $0) }), loosely: short.flatMap(Self.looseValues))
    }

    /// A copy that redacts each long text once however often it is asked to (the reports of a run show each exchange's
    /// bodies, side by side): again only when forms were learnt since. What it keeps lives as long as the copy.
    public func sharingResults() -> Redactor {
        var copy = self
        copy.results = RedactedTexts()
        return copy
    }

    /// Redacts `texts` side by side (a thread per core), each once, for a copy sharing its results to give them at once
    /// when asked (reports rendered together would each wait on the same long texts, or redact them twice).
    public func redactAhead(_ texts: [String]) {
        guard results != nil else { return }
        DispatchQueue.concurrentPerform(iterations: texts.count) { _ = redact(texts[$0]) }
    }

    /// Hides, from now on, the values `outcome` revealed (credentials it sent, captures derived from secrets).
    public func learn(from outcome: RequestOutcome) {
        // Most outcomes reveal what earlier ones did (the same token on every request): forms are made once per value.
        var unlearnt = secrets.unlearnt(outcome.sensitiveValues.filter { ResolvedSecret.hiding($0) != .none })
        guard !unlearnt.isEmpty else { return }
        // A short credential (a JSON member `password: "xq7"`) where it stands as a whole value only, as a short secret; not
        // a number or a word every exchange shows (a `password: 200` would hide every status 200, a `POST` every method).
        let short = unlearnt.filter { $0.count < SensitiveText.minimumLength && !ResolvedSecret.isCommonWord($0) }
        if !short.isEmpty { shortSecrets.add(short.flatMap { [$0] + Self.encodedForms(of: $0) }, loosely: short.flatMap(Self.looseValues)) }
        unlearnt.removeAll { $0.count < SensitiveText.minimumLength }
        // (In their case as sent: a value of every request, a token per login, in five cases would each be searched byte by
        // byte in every text.)
        let values = unlearnt.flatMap { [$0] + ($0.utf8.count > Self.longestEncoded ? [] : Self.pieces(of: $0)) }
        // A long value (a captured body that holds a secret) is hidden as written and as a message shows it: its every
        // encoded form would cost seconds per hundred KiB, and the secret it holds is hidden in all of them already.
        let encoded = values.filter { $0.utf8.count <= Self.longestEncoded }
        let cuts = encoded.flatMap(Self.cuts)
        let forms = values.flatMap { $0.utf8.count > Self.longestEncoded ? [$0, JSONValue.stringContents($0)] : Self.encodedForms(of: $0) }
        secrets.add(forms, loosely: (values + cuts).flatMap(Self.looseValues))
    }

    /// `value` in lower and in upper case, those that differ from it: every letter changed (`Grüße` as `GRÜSSE`), and its
    /// ASCII letters alone (`GRüßE`, as C's `toupper` and many servers change case).
    private static func caseVariants(of value: String) -> [String] {
        func ascii(_ change: (UInt8) -> UInt8) -> String { String(decoding: value.utf8.map(change), as: UTF8.self) }
        let asciiLower = ascii { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        let asciiUpper = ascii { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        return Array(Set([value.lowercased(), value.uppercased(), asciiLower, asciiUpper]).subtracting([value]))
    }

    /// `value`'s UTF-8 bytes as hex digits, in lower and in upper case (a debug page's dump of what it got).
    private static func hexForms(of value: String) -> [String] {
        let hex = value.utf8.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
        return [hex, hex.uppercased()]
    }

    /// The values found with any of their characters escaped: the value, its UTF-8 read as Latin-1 or Windows-1252 once or
    /// twice (a server that misread it, then escaped it: `Gr\u00c3\u00bc…`, `Gr%C3%83%C2%BC…`), and the value decoded as a server
    /// reads a query or a path (`%XX`, and `+` as a space) when it holds escapes, since a server that decodes it shows it
    /// encoded again in its own way (`ab%41 c#` echoed as `abA%20c%23`).
    private static func looseValues(of value: String) -> [String] {
        // Misread once, or twice (a server that misread it echoed by another that misread that).
        let once = Mojibake.readings(of: value)
        let misread = once + once.flatMap(Mojibake.readings)
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return [value] + misread }
        let decoded = [value.removingPercentEncoding, value.replacingBytes(of: "+", with: " ").removingPercentEncoding]
        return [value] + misread + Set(decoded.compactMap { $0 }).filter { $0 != value && $0.count >= ResolvedSecret.shortestHiddenInText }
    }

    /// What is left of `value` when a server strips characters off its ends (httpbin reads `Bearer …` with `lstrip`,
    /// which eats a token's first letters too when they are among `Bearer `; Python's `strip` eats both ends): up to 3
    /// cut from the start and up to 3 from the end, while two thirds and 8 characters or more are left and what is left
    /// is not letters alone nor words joined by `_` or `-`, with nothing but punctuation around (`qa-password-1` cut to
    /// `password` would hide every "password"; `T1;refresh_token=R1` cut to `refresh_token=`, every field of that name).
    ///
    /// A value of up to `longestSplit` characters also has its first and last parts of 8 characters or more among its
    /// cuts: a server that splits it in two (at a space, a `<br>`, a quoted-printable soft line break, or as two header
    /// lines joined by `, `) shows each part apart.
    private static func cuts(of value: String) -> [String] {
        var cuts: [String] = []
        let alphanumeric = { (character: Character) in character.isLetter || character.isNumber }
        let hidden = { (left: String) in
            guard left.contains(where: { !$0.isLetter }) else { return false }
            guard let first = left.firstIndex(where: alphanumeric), let last = left.lastIndex(where: alphanumeric) else { return true }
            return !readsAsWord(left[first...last])
        }
        for start in 0...3 {
            for end in 0...3 where start + end > 0 && value.count - start - end >= max(8, value.count - value.count / 3) {
                let left = String(value.dropFirst(start).dropLast(end))
                if hidden(left) { cuts.append(left) }
            }
        }
        guard value.count <= longestSplit else { return cuts }
        // The parts longer than these are cuts above already.
        for length in 8..<max(8, value.count - 3) {
            cuts += [String(value.prefix(length)), String(value.suffix(length))].filter(hidden)
        }
        return cuts
    }

    /// The longest value whose halves are hidden apart (`cuts`): a password or token, not a key of many lines.
    private static let longestSplit = 64

    /// The pieces of `value` a server shows apart: those a query parser splits it into (`queryPieces`), and the strings
    /// of a secret that is a JSON object or list (a server that parses it writes it again its own way: other spacing,
    /// other order), of `shortestHiddenPiece` characters or more.
    private static func pieces(of value: String) -> [String] {
        var strings: [String] = []
        func collect(_ json: JSONValue) {
            switch json {
            case .string(let text) where text.count >= shortestHiddenPiece: strings.append(text)
            case .array(let elements): elements.forEach(collect)
            case .object(let object): object.members.forEach { collect($0.value) }
            default: break
            }
        }
        if let first = value.first(where: { !$0.isWhitespace }), first == "{" || first == "[", let json = try? JSONValue.parse(value) {
            collect(json)
        }
        return Array(Set(queryPieces(of: value) + strings).subtracting([value]))
    }

    /// The shortest piece of a secret split by a query parser that is hidden.
    static let shortestHiddenPiece = 6

    /// The pieces of `value` a server reading it in a query shows apart (a redirect's `Location` holding it decoded, sent
    /// on as written; a query made of it): split at `&`, `#` and `;` (or only at `&` and `#`, as most parsers do now),
    /// and each piece at its first `=` into a name and a value; those of `shortestHiddenPiece` characters or more, but
    /// not a name that reads as a word (`Password` in `Password=hunter2xyz`: a key, which every text using the word would
    /// lose). None when it holds no separator.
    private static func queryPieces(of value: String) -> [String] {
        guard value.contains(where: { "&;#=".contains($0) }) else { return [] }
        let pieces = ["&#", "&#;"].flatMap { separators in
            value.split(whereSeparator: { separators.contains($0) }).flatMap { piece in
                let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts.count == 2 && readsAsWord(parts[0]) ? [] : parts.prefix(1)
                return [piece] + name + parts.dropFirst()
            }
        }
        return Set(pieces.map(String.init)).filter { $0 != value && $0.count >= shortestHiddenPiece }.sorted()
    }

    /// Whether `text` reads as a word, or words joined by `_` or `-` (a field's name): letters alone, each word in one
    /// case or capitalized (`password`, `Database`, `HOST`, `refresh_token`, `Access-Token`). Random letters mostly mix
    /// cases (`kQpZwR`), and base64 before its padding holds more than letters.
    private static func readsAsWord(_ text: Substring) -> Bool {
        let words = text.split(separator: "_", omittingEmptySubsequences: false).flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        return words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy(\.isLetter) && (word.dropFirst().allSatisfy(\.isLowercase) || word.allSatisfy(\.isUppercase))
        }
    }

    /// The longest learnt value hidden in every encoded form.
    static let longestEncoded = 4096

    /// A secret as written and encoded up to twice (percent-encoded as in a query, escaped as inside a JSON
    /// string), so that it stays hidden when a server embeds an encoded request in its JSON answer; decoded as a server
    /// reads a query (`%XX` and `+`), when it holds those; without surrounding white space, as a multipart name (and its
    /// backslashes read as a quoted string's escapes), with CRLF line
    /// ends, and escaped as HTML or XML text; its UTF-8 read
    /// as ISO-8859-1 or Windows-1252 (as servers read header bytes) as written and JSON-escaped once or twice; each of these
    /// JSON-escaped once more (as a failure shows a value); and with control characters as the console shows them
    /// (`\u{9F}`), since failures' values are made printable first. (In base64, any of them is found decoded: `Base64Text`.)
    private static func encodedForms(of secret: String) -> [String] {
        let once = encodings(of: secret)
        // A secret holding escapes or `+`, written into a URL as it is or encoded (a URL that does not parse is encoded
        // whole, its `+` kept: `a+b %41` sent as `a+b%20%2541`), comes back decoded as servers read a query.
        let decoded = Set(([secret] + once).flatMap { [$0.removingPercentEncoding, $0.replacingBytes(of: "+", with: " ").removingPercentEncoding] }
            .compactMap { $0 }).filter { $0 != secret && $0.count >= ResolvedSecret.shortestHiddenInText }
        // Servers trim a header value's surrounding spaces; a multipart name or file name has its quotes and line
        // breaks as percent escapes, and a server reading it as a quoted string takes `\x` for `x`.
        // A secret of several lines (a PEM key) comes back with CRLF line ends from servers that write them.
        let crlf = secret.contains("\n") ? [secret.replacingBytes(of: "\r\n", with: "\n").replacingBytes(of: "\n", with: "\r\n")] : []
        let quotedPairsRead = secret.contains("\\") ? [Self.quotedPairsRead(secret)] : []
        // Outside ASCII, also as a mail or MIME echo writes it (quoted-printable) and as a host name's label goes on the
        // wire (IDNA: `пароль7` as `xn--7-…`).
        let nonASCII = secret.utf8.contains { $0 >= 0x80 } ? [quotedPrintable(secret)] + [idnaLabel(secret)].compactMap { $0 } : []
        let reshaped = ([secret.trimmingCharacters(in: .whitespacesAndNewlines), MultipartBody.quoted(secret)] + crlf + quotedPairsRead
                        + htmlEscapings(of: secret) + nonASCII)
            .filter { $0 != secret && $0.count >= ResolvedSecret.shortestHiddenInText }
        var forms = Set([secret] + once + once.flatMap(encodings) + decoded + decoded.flatMap(jsonEscapings) + reshaped + reshaped.flatMap(jsonEscapings))
        for misread in Mojibake.readings(of: secret) {
            let escaped = jsonEscapings(of: misread)
            forms.insert(misread)
            // Escaped once more as most encoders do (a header echo sent on in a JSON body and echoed inside a string).
            forms.formUnion(escaped.union(escaped.map(JSONValue.stringContents)))
        }
        // Each escaped once more as a message shows a value (a JSON string), so that what a server encoded twice stays
        // hidden there too.
        forms.formUnion(forms.map(JSONValue.stringContents))
        return Array(forms.union(forms.map(TerminalText.printable)))
    }

    /// `text` quoted-printable (RFC 2045): printable ASCII but `=` as it is, every other byte of its UTF-8 as `=XX`.
    private static func quotedPrintable(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var encoded = ""
        for byte in text.utf8 {
            if (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "=") {
                encoded.append(Character(UnicodeScalar(byte)))
            } else {
                encoded += "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// `text` as the IDNA label a host name holding it as a whole label is sent with (`xn--…`); nil when it is no such
    /// label.
    private static func idnaLabel(_ text: String) -> String? {
        var components = URLComponents()
        components.host = text
        guard let label = components.encodedHost, label.hasPrefix("xn--"), !label.contains("%"), !label.contains(".") else { return nil }
        return label
    }

    /// `text` as an HTTP quoted string's reader reads it: each `\` followed by a character stands for that character.
    private static func quotedPairsRead(_ text: String) -> String {
        var read = "", escaped = false
        for character in text {
            if character == "\\" && !escaped { escaped = true; continue }
            read.append(character)
            escaped = false
        }
        return read
    }

    /// The ways HTML and XML text escape `text` (a server echoing it in a page): `&`, `<` and `>` as entities, `"` and
    /// `'` as they are or as any of their entities; none when it holds none of these.
    private static func htmlEscapings(of text: String) -> [String] {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return [] }
        let base = text.replacingBytes(of: "&", with: "&amp;").replacingBytes(of: "<", with: "&lt;")
            .replacingBytes(of: ">", with: "&gt;")
        var forms: [String] = []
        for quote in ["\"", "&quot;", "&#34;", "&#x22;"] where quote == "\"" || text.contains("\"") {
            for apostrophe in ["'", "&#39;", "&#x27;", "&apos;"] where apostrophe == "'" || text.contains("'") {
                forms.append(base.replacingBytes(of: "\"", with: quote).replacingBytes(of: "'", with: apostrophe))
            }
        }
        return forms
    }

    /// The forms one encoding step gives: percent-encoded (every way the runner encodes a value into a URL, and
    /// as servers echo a URL with its non-ASCII characters decoded) and JSON-escaped (every way).
    private static func encodings(of text: String) -> [String] {
        // Query values and form bodies (`PercentEncoding.encode`), URLs that do not parse as written
        // (`PercentEncoding.encodeURL`), and what URLComponents encodes (what `.urlQueryAllowed` leaves out).
        let query = PercentEncoding.encode(text)
        var percentEncoded = [query, PercentEncoding.encode(text, keeping: .alphanumerics), PercentEncoding.encodeURL(text)]
            + [text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)].compactMap { $0 }
        // As other encoders write the same bytes: with `!'()*` kept (JavaScript's encodeURIComponent), spaces as `+` (HTML
        // forms, Python's urlencode, Java's URLEncoder), escapes in lower case (.NET).
        percentEncoded.append(["%21": "!", "%27": "'", "%28": "(", "%29": ")", "%2A": "*"].reduce(query) {
            $0.replacingBytes(of: $1.key, with: $1.value)
        })
        percentEncoded += percentEncoded.map { $0.replacingBytes(of: "%20", with: "+") } + percentEncoded.map(lowercasingEscapes)
        // Servers show a URL as an IRI: `pass%20wörd`, not `pass%20w%C3%B6rd`; Werkzeug (httpbin) decodes every escape
        // but those of controls, space, `%` and what is reserved where it stands (`my%20pass"word` in a path).
        let decoded = percentEncoded.flatMap { encoded in iriKept.map { kept in decoding(encoded, keeping: kept) } }
        let forms = Set(percentEncoded + decoded).union(jsonEscapings(of: text))
        return forms.filter { $0 != text }
    }

    /// Percent-encoded text with the hex digits of its escapes in lower case (`%c3%b6`).
    private static func lowercasingEscapes(_ encoded: String) -> String {
        var bytes = Array(encoded.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "%") {
            for digit in bytes.indices.clamped(to: index + 1..<index + 3) where (0x41...0x46).contains(bytes[digit]) {
                bytes[digit] += 0x20
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes whose escapes an IRI keeps: every ASCII byte (servers that decode only non-ASCII characters), and as
    /// Werkzeug's `uri_to_iri` keeps them (after WHATWG) in a path and in a query: controls, space, `%`, DEL, and the
    /// part's reserved characters.
    private static let iriKept: [@Sendable (UInt8) -> Bool] = [
        { $0 < 0x80 },
        { $0 <= 0x20 || $0 == 0x25 || $0 == 0x7F || "/?#".utf8.contains($0) },
        { $0 <= 0x20 || $0 == 0x25 || $0 == 0x7F || "&=+#".utf8.contains($0) },
    ]

    /// Percent-encoded text with every escape decoded but those of the bytes `kept` holds (`%C3%B6` as `ö`); the text
    /// as it is when the decoded bytes are not UTF-8.
    private static func decoding(_ encoded: String, keeping kept: (UInt8) -> Bool) -> String {
        guard encoded.utf8.contains(UInt8(ascii: "%")) else { return encoded }
        var text = encoded
        return text.withUTF8 { utf8 in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count)
            var offset = 0
            while offset < utf8.count {
                if utf8[offset] == UInt8(ascii: "%"), let value = FormIndex.hexValue(in: utf8, at: offset + 1), !kept(value) {
                    bytes.append(value)
                    offset += 3
                } else {
                    bytes.append(utf8[offset])
                    offset += 1
                }
            }
            return String(validating: bytes, as: UTF8.self) ?? encoded
        }
    }

    /// The ways JSON encoders write `text` inside a string: the minimal escaping, and with every non-ASCII
    /// character as `\uXXXX` (Python's default; surrogate pairs beyond U+FFFF), with `<`, `>`, `&`, U+2028 and
    /// U+2029 as `\uXXXX` (Go's default), with `/` as `\/` (PHP's default), in lower- and upper-case hex.
    static func jsonEscapings(of text: String) -> Set<String> {
        let minimal = JSONValue.stringContents(text)
        guard text.unicodeScalars.contains(where: { !$0.isASCII || "/<>&".unicodeScalars.contains($0) }) else { return [minimal] }
        // The runner's own serializer escapes C1 controls (U+0080–U+009F); other encoders leave them raw.
        let raw = unescapingC1Controls(minimal)
        var forms: Set<String> = [minimal]
        for nonASCII in [false, true] {
            for htmlSafe in [false, true] {
                for slash in [false, true] {
                    for upper in [false, true] {
                        forms.insert(jsonEscaping(raw, nonASCII: nonASCII, htmlSafe: htmlSafe, slash: slash, upper: upper))
                    }
                }
            }
        }
        return forms
    }

    /// JSON-escaped text with its `\u0080`…`\u009f` escapes written as the characters they stand for.
    private static func unescapingC1Controls(_ escaped: String) -> String {
        guard escaped.contains("\\u00") else { return escaped }
        var result = ""
        var scalars = escaped.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.first else {
                result.unicodeScalars.append(scalar)
                continue
            }
            let digits = String(String.UnicodeScalarView(scalars.dropFirst().prefix(4)))
            if next == "u", digits.count == 4, let value = UInt32(digits, radix: 16), (0x80...0x9F).contains(value),
               let c1 = Unicode.Scalar(value) {
                result.unicodeScalars.append(c1)
                scalars = scalars.dropFirst(5)
            } else {
                // Any other escape (`\\`, `\"`, `\n`, `\u001b`) stays as it is.
                result.unicodeScalars.append(contentsOf: [scalar, next])
                scalars = scalars.dropFirst()
            }
        }
        return result
    }

    /// `escaped` (minimally JSON-escaped text) with more characters escaped as `\uXXXX` (or `\/`).
    private static func jsonEscaping(_ escaped: String, nonASCII: Bool, htmlSafe: Bool, slash: Bool, upper: Bool) -> String {
        var result = ""
        for scalar in escaped.unicodeScalars {
            let escapes = (nonASCII && !scalar.isASCII) || (htmlSafe && "<>&\u{2028}\u{2029}".unicodeScalars.contains(scalar))
            if slash, scalar == "/" {
                result += "\\/"
            } else if escapes {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: upper)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` holds a secret's value in a form `redact` hides (not counting a URL's password or a cut start,
    /// which `redact` hides whatever they are): what must never be printed as it is.
    public func holdsSecret(_ text: String) -> Bool {
        var text = text
        let (forms, short) = (secrets.index, shortSecrets.index)
        return text.withUTF8 { !valueOccurrences(in: $0, forms: forms, short: short).isEmpty }
    }

    /// Where a secret's value stands in `bytes`, in any form (a short secret only as a whole value), also inside what
    /// base64 text there decodes to, three times nested at most (`Base64Text`): a server that encodes a value (an HTML page, a
    /// query, a cut token escaped in any way) in base64 hides nothing of it. `decodings` are those of `bytes`, when the
    /// caller has them.
    private func valueOccurrences(in bytes: UnsafeBufferPointer<UInt8>, forms: FormIndex, short: FormIndex, decodings: [Base64Decoding]? = nil,
                                  nesting: Int = 0, edges: (start: Bool, end: Bool) = (true, true)) -> [Range<Int>] {
        var found = forms.occurrences(in: bytes)
        if short.count > 0 {
            found += short.occurrences(in: bytes).filter { ShortValue.standsApart($0, in: bytes, decoded: nesting > 0, edges: edges) }
        }
        guard nesting < 3 else { return found }
        for (run, shift, decoded) in decodings ?? Self.base64Decodings(in: bytes) {
            // The decoded bytes begin where a text does only from the run's first character or after a slash; they end where
            // the run does unless a lone character is left over.
            let edges = (start: shift == 0 || run.startsAfterSlash(shift), end: (run.symbols.count - shift) % 4 != 1)
            for range in decoded.withUnsafeBufferPointer({ valueOccurrences(in: $0, forms: forms, short: short, nesting: nesting + 1, edges: edges) }) {
                found.append(run.writtenRange(of: range, shift: shift))
            }
        }
        return found
    }

    /// A base64 run of a text decoded with its groups of four starting at its `shift`th character.
    private typealias Base64Decoding = (run: Base64Text, shift: Int, decoded: [UInt8])

    /// Each base64 run in `bytes` decoded with its groups of four starting at each of its first four characters (a run
    /// may start inside a group).
    private static func base64Decodings(in bytes: UnsafeBufferPointer<UInt8>, minimum: Int = Base64Text.shortest) -> [Base64Decoding] {
        base64Decodings(of: Base64Text.runs(in: bytes, minimum: minimum), minimum: minimum)
    }

    /// `runs` decoded as `base64Decodings(in:)` decodes the runs it finds, each `minimum` characters or more.
    private static func base64Decodings(of runs: [Base64Text], minimum: Int) -> [Base64Decoding] {
        // A run that goes on past a line break (MIME's lines) may be texts of their own (`Base64Text.readings`).
        runs.flatMap(\.readings).flatMap { run in
            // Also from after its last two slashes (`/files/wqtva8K7`: a path's segments joined to the run).
            let slashes = run.symbols.indices.dropFirst(3).filter { run.startsAfterSlash($0 + 1) }.suffix(2).map { $0 + 1 }
            return (Array(0..<4) + slashes).filter { run.symbols.count - $0 >= minimum }.map { (run, $0, run.decoded(shift: $0)) }
        }
    }

    /// The text with every secret value, and the password of every URL in it (`http://user:***@host`), replaced
    /// by `***`.
    ///
    /// Every occurrence of every form is found in the text as given and the places that overlap are hidden as one, so
    /// that hiding one value never leaves the rest of another showing. Text cut short ends in `…` (or `...`): the start of
    /// a secret directly before one (`4f1b…`, at least `ResolvedSecret.shortestHiddenInText` bytes) is hidden too.
    public func redact(_ text: String) -> String {
        let (forms, short) = (secrets.index, shortSecrets.index)
        let formCount = forms.count + short.count
        guard let results, text.utf8.count >= RedactedTexts.shortest, formCount > 0 else {
            return redact(text, forms: forms, short: short)
        }
        return results.redacted(text, formCount: formCount) { redact(text, forms: forms, short: short) }
    }

    /// `redact` with the forms (long and short) read once for the whole text.
    private func redact(_ text: String, forms: FormIndex, short: FormIndex) -> String {
        var text = text
        let hidden: [Range<Int>] = forms.count == 0 && short.count == 0 ? [] : text.withUTF8 { bytes in
            let cuts = Self.cutMarks.flatMap { Self.occurrences(of: $0, in: bytes) }
            let decodings = Self.base64Decodings(in: bytes)
            // Both searches before a cut: a short start of one secret's form may end there inside a longer start of
            // another found escaped.
            // Base64 cut short is looked into from 6 characters on (4 bytes), where it ends at a cut.
            let ends = Self.base64Ends(before: cuts.map(\.lowerBound), in: bytes)
            let cutRuns = ends.isEmpty ? [] : Base64Text.runs(in: bytes, minimum: Base64Text.shortestCut).filter {
                $0.symbols.count < Base64Text.shortest && ends.contains($0.symbols[$0.symbols.count - 1].written.upperBound)
            }
            let cutDecodings = Self.base64Decodings(of: cutRuns, minimum: Base64Text.shortestCut)
            return Self.mergedRanges(valueOccurrences(in: bytes, forms: forms, short: short, decodings: decodings) + cuts.flatMap {
                [forms.start(endingAt: $0.lowerBound, in: bytes), forms.looseStart(endingAt: $0.lowerBound, in: bytes)].compactMap { $0 }
            } + Self.base64Starts(endingAt: ends, of: decodings + cutDecodings, forms: forms))
        }
        if !hidden.isEmpty {
            var result: [UInt8] = []
            var utf8 = Array(text.utf8)[...]
            var offset = 0
            for range in hidden {
                result += utf8.prefix(range.lowerBound - offset) + Self.mask.utf8
                utf8 = utf8.dropFirst(range.upperBound - offset)
                offset = range.upperBound
            }
            text = String(decoding: result + utf8, as: UTF8.self)
        }
        // Only a URL with an `@` can hold a password; looking for one byte is far cheaper than Foundation's search.
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        return URLCredentials.hidingPasswords(in: text)
    }

    /// Where base64 text cut short may end before each of `cuts`: at the cut, before an escape the cut fell inside of
    /// (`%` or `%2` of `%2B`, a `\`), and before the line breaks (raw or JSON-escaped) and spaces there, as MIME wraps
    /// base64 and a cut may fall right after its line's end.
    private static func base64Ends(before cuts: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        let (percent, backslash) = (UInt8(ascii: "%"), UInt8(ascii: "\\"))
        return cuts.flatMap { cut -> [Int] in
            var end = cut
            if end > 0, bytes[end - 1] == percent || bytes[end - 1] == backslash {
                end -= 1
            } else if end > 1, bytes[end - 2] == percent, bytes[end - 1].hexDigitValue != nil {
                end -= 2
            }
            let afterEscape = end
            while end > 0 {
                if [0x0A, 0x0D, 0x20].contains(bytes[end - 1]) {
                    end -= 1
                } else if end > 1, bytes[end - 2] == backslash, bytes[end - 1] == UInt8(ascii: "n") || bytes[end - 1] == UInt8(ascii: "r") {
                    end -= 2
                } else {
                    break
                }
            }
            return Array(Set([cut, afterEscape, end]))
        }
    }

    /// The base64 text (of `decodings`) that ends at one of `ends` (where text was cut short) and decodes to the start of
    /// one of `forms`.
    private static func base64Starts(endingAt ends: [Int], of decodings: [Base64Decoding], forms: FormIndex) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for (run, shift, decoded) in decodings where ends.contains(run.symbols[run.symbols.count - 1].written.upperBound) {
            let starts = decoded.withUnsafeBufferPointer { decoded in
                [forms.start(endingAt: decoded.count, in: decoded), forms.looseStart(endingAt: decoded.count, in: decoded)]
            }
            // Up to the cut: a last character that decodes to no whole byte goes too.
            let end = run.symbols[run.symbols.count - 1].written.upperBound
            let hidden = starts.compactMap { $0.map { run.writtenRange(of: $0, shift: shift).lowerBound..<end } }
            found += hidden
            // Base64 of base64 (of base64) cut short: the run, from where it is read, when what it decodes to ends so.
            if hidden.isEmpty, endsInBase64Start(decoded, forms: forms, nesting: 1) {
                found.append(run.symbols[shift].written.lowerBound..<end)
            }
        }
        return found
    }

    /// Whether `bytes`, cut short at their end, end in base64 text (nested up to three times in all) that decodes to the
    /// start of one of `forms`.
    private static func endsInBase64Start(_ bytes: [UInt8], forms: FormIndex, nesting: Int) -> Bool {
        guard nesting < 3 else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            base64Decodings(in: bytes, minimum: Base64Text.shortestCut).contains { run, _, decoded in
                guard run.symbols[run.symbols.count - 1].written.upperBound == bytes.count else { return false }
                let starts = decoded.withUnsafeBufferPointer {
                    forms.start(endingAt: $0.count, in: $0) ?? forms.looseStart(endingAt: $0.count, in: $0)
                }
                return starts != nil || endsInBase64Start(decoded, forms: forms, nesting: nesting + 1)
            }
        }
    }

    /// How the runner ends text it cut short (`…`), and how servers often do (`...`: `invalid key sk_live_4f1b...`).
    private static let cutMarks = [Array("…".utf8), Array("...".utf8)]

    /// The byte ranges where `pattern` occurs in `bytes`, overlapping ones included.
    static func occurrences(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard let base = bytes.baseAddress, !pattern.isEmpty else { return [] }
        var found: [Range<Int>] = []
        var start = 0
        // Each place the first byte stands where the pattern fits, compared whole.
        while bytes.count - start >= pattern.count,
              let match = memchr(base + start, Int32(pattern[0]), bytes.count - start - pattern.count + 1) {
            let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(match))
            if memcmp(base + offset, pattern, pattern.count) == 0 { found.append(offset..<offset + pattern.count) }
            start = offset + 1
        }
        return found
    }

    /// `ranges` in order, those that overlap joined.
    private static func mergedRanges(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// A line of a collection's file as a diagnostic quotes it: redacted, and with credentials written in it as they are
    /// (`Authorization: Bearer abc`, `password: hunter2`, a secret's `default:`) as `***`.
    public func redactSourceLine(_ line: String) -> String {
        // A password written in a URL of the line, also where it shows again in the line (the URL's path) when it is long
        // enough to hide on its own, as `run` hides the credentials a request sends (`u:1@127.0.0.1` keeps `127.0.0.1`).
        let redacted = redact(URLCredentials.hidingPasswords(in: line))
        return SourceLineCredentials.hiding(in: Self.ofURLPasswords(in: line).map { $0.redact(redacted) } ?? redacted)
    }

    /// A redactor of the passwords written in the URLs of `text` that are hidden wherever they show, as written and
    /// decoded: those long enough to hide on their own once decoded, as `run` hides the credentials a request sends (a
    /// shorter one is hidden in its URL's user information only, by `URLCredentials.hidingPasswords`); nil for none.
    public static func ofURLPasswords(in text: String, asOneURL: Bool = false) -> Redactor? {
        let long = URLCredentials.passwords(in: text, asOneURL: asOneURL).flatMap { written -> [String] in
            let decoded = written.removingPercentEncoding ?? written
            return decoded.count >= SensitiveText.minimumLength ? [written, decoded] : []
        }
        return long.isEmpty ? nil : Redactor(secrets: long)
    }

    /// A request's name as outputs show it (`flow › step`, `NAME [ROW]`), redacted but for what runner writes in names,
    /// which a short secret's value may equal: a step's default name (`step 2`), a row's number (`[3]`), and the path of
    /// the request's `file` a name defaults to (`users/create`, its path without extension from the folder given, or a
    /// problem's file).
    public func redactName(_ name: String, file: String? = nil) -> String {
        func named(_ text: Substring) -> String {
            file.map { Self.isPath(text, of: $0) } == true ? String(text) : redact(String(text))
        }
        return name.components(separatedBy: " › ").map { part in
            if part.hasPrefix("step "), part.count > 5, part.dropFirst(5).allSatisfy(Self.isDigit) { return part }
            if part.hasSuffix("]"), let open = part.range(of: " [", options: .backwards),
               case let number = part[open.upperBound..<part.index(before: part.endIndex)], !number.isEmpty, number.allSatisfy(Self.isDigit) {
                return named(part[..<open.lowerBound]) + part[open.lowerBound...]
            }
            return named(part[...])
        }.joined(separator: " › ")
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// Whether `name` is the path of `file` a name defaults to: the path itself, or its end without the extension
    /// (`users/create` for `requests/users/create.yaml`).
    public static func isPath(_ name: some StringProtocol, of file: String) -> Bool {
        let stem = file.hasSuffix(".yaml") || file.hasSuffix(".yml") ? file[..<file.lastIndex(of: ".")!] : file[...]
        return name == file || name == stem || stem.hasSuffix("/" + name)
    }

    /// A request's method as it may be printed: a standard one as it is (a short secret, `GET`, does not hide it),
    /// another with secrets redacted (a credential given as the method through a YAML alias).
    public func redactMethod(_ method: String) -> String {
        Self.standardMethods.contains(method) ? method : redact(method)
    }

    /// The methods of RFC 9110 and `PATCH`.
    private static let standardMethods: Set = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// A header's value as it may be printed: hidden for credential headers, else with secrets redacted.
    public func redactHeader(name: String, value: String) -> String {
        HTTPHeaders.isCredential(name) ? Self.mask : redact(value)
    }
}

/// The set of secret forms a redactor hides, shared by its copies and grown as outcomes reveal more.
private final class SecretForms: Sendable {
    private let forms: Mutex<(set: Set<String>, index: FormIndex)>
    /// The values outcomes revealed so far.
    private let learnt = Mutex(Set<String>())

    init(_ initial: Set<String>, loosely values: some Sequence<String>) {
        var index = FormIndex()
        initial.forEach { index.insert(Array($0.utf8)) }
        values.forEach { index.insertLoosely(Array($0.utf8)) }
        forms = Mutex((initial, index))
    }

    /// Every form, indexed.
    var index: FormIndex { forms.withLock { $0.index } }

    /// The values among `values` not learnt before, from now on learnt.
    func unlearnt(_ values: [String]) -> [String] {
        guard !values.isEmpty else { return [] }
        return learnt.withLock { learnt in values.filter { learnt.insert($0).inserted } }
    }

    /// Adds forms not yet known, and values (not known before) to find with any of their bytes percent-encoded.
    func add(_ new: [String], loosely values: [String]) {
        forms.withLock { forms in
            for form in new where forms.set.insert(form).inserted { forms.index.insert(Array(form.utf8)) }
            values.forEach { forms.index.insertLoosely(Array($0.utf8)) }
        }
    }
}

/// Texts redacted once, by the text, with the number of forms known when they were (`Redactor.sharingResults`).
private final class RedactedTexts: Sendable {
    /// The shortest text kept: a shorter one costs little more to redact again than to look up.
    static let shortest = 1024

    private let texts = Mutex([String: (formCount: Int, redacted: String)]())

    /// `text` as `redacting` redacts it, redacted before with as many forms, or now.
    func redacted(_ text: String, formCount: Int, redacting: () -> String) -> String {
        if let known = texts.withLock({ $0[text] }), known.formCount == formCount { return known.redacted }
        let redacted = redacting()
        texts.withLock { $0[text] = (formCount, redacted) }
        return redacted
    }
}

/// Forms as UTF-8, found in a text in one pass by their first two bytes (hundreds of forms cost what a few do).
private struct FormIndex: Sendable {
    /// How many forms and values it holds.
    private(set) var count = 0
    /// The pairs of first bytes some form starts with, checked before the dictionary.
    private var starts = BytePairs()
    /// The forms of two bytes or more by their first two bytes.
    private var byStart: [UInt16: [[UInt8]]] = [:]
    /// Forms of one byte.
    private var single: [[UInt8]] = []
    /// The length of the longest form.
    private var longest = 0
    /// Whether some value is in `loose`.
    private var hasLoose = false
    /// The length of the longest value in `loose`.
    private var longestLooseValue = 0
    /// Values found with any of their characters escaped as an encoder chose (`%3D`, `%253D`, `\u00fc`, `&#252;`), in a
    /// trie: a run that sends a new token per request learns thousands, which share their beginnings (`eyJhbGciOi…`, a
    /// token's cuts), and a place of a text is read once for them all.
    private var loose = ByteTrie()

    mutating func insert(_ form: [UInt8]) {
        guard !form.isEmpty else { return }
        count += 1
        longest = max(longest, form.count)
        guard form.count >= 2 else { return single.append(form) }
        starts.insert(form[0], form[1])
        byStart[UInt16(form[0]) << 8 | UInt16(form[1]), default: []].append(form)
    }

    /// Adds a value to find however an encoder mixed escapes into it, byte by byte (Werkzeug echoes `a+b=` as `a+b%3D`,
    /// Python's `quote` keeps `/`, .NET's JSON writes `+` as `\u002B`, Go's HTML `&#43;`): see `escapes(at:in:)`.
    mutating func insertLoosely(_ value: [UInt8]) {
        // A value longer than a credential (a captured body holding a secret) is found in its exact forms only: the
        // search reads a value byte by byte, at every place of every text.
        guard !value.isEmpty, value.count <= Self.longestLoose, loose.insert(value) else { return }
        count += 1
        hasLoose = true
        longestLooseValue = max(longestLooseValue, value.count)
    }

    /// The byte ranges where some form occurs in `bytes`, overlapping ones included.
    func occurrences(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found = single.flatMap { Redactor.occurrences(of: $0, in: bytes) }
        guard bytes.count >= 2, let base = bytes.baseAddress else { return found }
        for offset in 0..<bytes.count - 1 {
            for form in forms(startingAt: offset, in: bytes)
            where form.count <= bytes.count - offset && memcmp(base + offset, form, form.count) == 0 {
                found.append(offset..<offset + form.count)
            }
        }
        guard hasLoose else { return found }
        // At each place, the values starting there, with the byte written or with what an escape there reads.
        for offset in 0..<bytes.count where loose.child(of: ByteTrie.root, bytes[offset]) != nil || Self.startsEscape(bytes[offset]) {
            looseEnds(from: ByteTrie.root, at: offset, start: offset, in: bytes, into: &found)
        }
        return found
    }

    /// Adds to `found` where the values of `loose` end that stand from `start` in `bytes`, read up to `offset` as far as
    /// `node`: each byte as itself or as `escapes(at:in:)` reads it (a line break, reading as nothing, inside a value only).
    private func looseEnds(from node: Int32, at offset: Int, start: Int, in bytes: UnsafeBufferPointer<UInt8>,
                           afterBreak: Bool = false, into found: inout [Range<Int>]) {
        // (A value does not end with the line break after it.)
        if node != ByteTrie.root, !afterBreak, loose.isEnd(node) { found.append(start..<offset) }
        guard offset < bytes.count else { return }
        let written = bytes[offset]
        if let next = loose.child(of: node, written) { looseEnds(from: next, at: offset + 1, start: start, in: bytes, into: &found) }
        // Most bytes are only themselves: the escapes below start with one of these.
        guard Self.startsEscape(written) else { return }
        let inside = node != ByteTrie.root && loose.hasChildren(node)
        for (read, length) in Self.escapes(at: offset, in: bytes) where !read.isEmpty || inside {
            if let next = loose.descendant(of: node, along: read) {
                looseEnds(from: next, at: offset + length, start: start, in: bytes, afterBreak: read.isEmpty, into: &found)
            }
        }
    }

    /// The longest value searched for byte by byte.
    static let longestLoose = 1024

    /// Whether `byte` starts an escape `escapes(at:in:)` reads (asked at every byte of a text: a switch, not a set).
    private static func startsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "\\"), UInt8(ascii: "&"), 0x0A, 0x0D, 0x09: true
        default: false
        }
    }

    /// The bytes the escape at `offset` may stand for, each with the number of bytes it takes: a byte percent-encoded
    /// (`%3D`, `%3d`, and encoded twice, `%253D`); a space as `+` and a `+` as a space (a query read as a form), also
    /// percent-encoded (`%2B` for a space); a
    /// character JSON-escaped (`\u003d` in either case, `\u00fc`, a surrogate pair `\ud83d\ude00`, `\/`, `\"`), also
    /// escaped once more as a message shows a value (`\\u003d`); a character as an HTML reference (`&#61;`, `&#x3D;`,
    /// `&#252;`, `&equals;`, `&uuml;`); and these escapes of a percent-escape (`&#37;21`, `%5Cu0021`). A character
    /// stands for its UTF-8 bytes. Where a server wrapped a value, a line break in any of these forms (LF, CR, CRLF,
    /// `\n`, `\\r\\n`, `%0A`), with the spaces and tabs that end the line before it and those that indent the next
    /// line (all of them, or none: a value may go on with a space), reads as nothing.
    private static func escapes(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [(bytes: [UInt8], length: Int)] {
        let here = characters(at: offset, in: bytes)
        var readings = here.filter { !isLineBreak($0.bytes) }
        // The white space ending a line, read here once.
        let space = [0x20, 0x09].contains(bytes[offset]) ? 1 : here.first { $0.bytes == [0x20] || $0.bytes == [0x09] }?.length ?? 0
        let lineEnd = space == 0 ? offset : offset + space + whitespace(at: offset + space, in: bytes)
        guard lineEnd < bytes.count, startsEscape(bytes[lineEnd]) else { return readings }
        for (read, length) in characters(at: lineEnd, in: bytes) where isLineBreak(read) {
            var end = lineEnd + length
            // The line feed of a CRLF.
            if read == [0x0D], end < bytes.count, let lineFeed = characters(at: end, in: bytes).first(where: { $0.bytes == [0x0A] }) {
                end += lineFeed.length
            }
            readings.append(([], end - offset))
            let indentation = whitespace(at: end, in: bytes)
            if indentation > 0 { readings.append(([], end + indentation - offset)) }
        }
        return readings
    }

    /// Whether `read` is a line break (LF or CR).
    private static func isLineBreak(_ read: [UInt8]) -> Bool { read == [0x0A] || read == [0x0D] }

    /// The most bytes of white space searched for around a line break a value was wrapped at.
    private static let longestWhitespace = 64

    /// The bytes the spaces and tabs at `offset` take, as written or escaped (`\t`, `%20`, `+`).
    private static func whitespace(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = offset
        while end < bytes.count, end - offset < longestWhitespace {
            let byte = bytes[end]
            let length: Int? = switch byte {
            case 0x20, 0x09: 1
            case _ where startsEscape(byte): characters(at: end, in: bytes).first { $0.bytes == [0x20] || $0.bytes == [0x09] }?.length
            default: nil
            }
            guard let length else { break }
            end += length
        }
        return end - offset
    }

    /// The characters the escape at `offset` may stand for, each with the bytes it takes (see `escapes(at:in:)`).
    private static func characters(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [(bytes: [UInt8], length: Int)] {
        var readings: [(bytes: [UInt8], length: Int)] = []
        switch bytes[offset] {
        case 0x0A, 0x0D: readings.append(([bytes[offset]], 1))
        case UInt8(ascii: "+"): readings.append(([UInt8(ascii: " ")], 1))
        case UInt8(ascii: " "): readings.append(([UInt8(ascii: "+")], 1))
        case UInt8(ascii: "%"):
            if let value = hexValue(in: bytes, at: offset + 1) {
                readings.append(([value], 3))
                // Encoded again, up to three times in all (`%253D`, `%25253D`: a URL in a query in a redirect's URL).
                var (encoded, length) = (value, 3)
                while encoded == 0x25, length < 7, let next = hexValue(in: bytes, at: offset + length) {
                    (encoded, length) = (next, length + 2)
                    readings.append(([encoded], length))
                }
                // A space written `+` (a form), then percent-encoded (`%2B`, `%252B`).
                for (read, length) in readings where read == [0x2B] { readings.append(([0x20], length)) }
            }
        case UInt8(ascii: "&"):
            if let (value, length) = reference(after: offset + 1, in: bytes),
               let (scalar, total) = character(startingWith: value, length: 1 + length, in: bytes, at: offset) {
                readings.append((Array(String(scalar).utf8), total))
            }
        default: break
        }
        // A JSON escape, its backslashes written in any of these ways (`%5C`, `&#92;`).
        if bytes[offset] == UInt8(ascii: "\\") || readings.contains(where: { $0.bytes == [0x5C] }) {
            readings += jsonEscapes(at: offset, in: bytes)
        }
        // A character reference whose `&` is escaped once more (`\u0026#43;` as Go's JSON writes it, `&amp;#43;`), or
        // twice (`\u0026amp;#43;`): each `&` read is followed by what a reference after it gives.
        var next = 0
        while next < readings.count {
            let (read, length) = readings[next]
            next += 1
            guard read == [0x26], let (value, referenceLength) = reference(after: offset + length, in: bytes),
                  let (scalar, total) = character(startingWith: value, length: length + referenceLength, in: bytes, at: offset)
            else { continue }
            readings.append((Array(String(scalar).utf8), total))
        }
        // A percent-escape whose `%` is escaped once more (`&#37;21`, `\u002521`, as a page or a JSON text shows an
        // encoded URL).
        for (read, length) in readings where read == [0x25] && bytes[offset] != UInt8(ascii: "%") {
            if let value = hexValue(in: bytes, at: offset + length) { readings.append(([value], length + 2)) }
        }
        return readings
    }

    /// The characters a JSON escape at `offset` may stand for, with the bytes each takes: a run of up to 16 backslashes,
    /// then `uXXXX`, `"`, `/`, `n`, `r` or `t`, each backslash, quote and slash as itself, percent-encoded or an HTML
    /// reference (`asciiCharacter`): JSON-escaped once (`\u00e4`, `\"`), again (`\\u00e4`, `\\\"`) and again as a message shows
    /// a value, then percent-encoded (`%5C%22`) or HTML-escaped (`\&quot;`, `&#92;&quot;`); and a backslash escaped
    /// once to four times (2, 4, 8 or 16 of them).
    private static func jsonEscapes(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [(bytes: [UInt8], length: Int)] {
        var readings: [(bytes: [UInt8], length: Int)] = []
        var count = 0, end = offset
        while count < 16, let (character, length) = asciiCharacter(at: end, in: bytes), character == 0x5C {
            count += 1
            end += length
            if count == 2 || count == 4 || count == 8 || count == 16 { readings.append(([0x5C], end - offset)) }
        }
        guard count > 0, end < bytes.count else { return readings }
        if let (scalar, length) = jsonEscape(at: end, in: bytes) { readings.append((Array(String(scalar).utf8), end - offset + length)) }
        guard let (character, length) = asciiCharacter(at: end, in: bytes) else { return readings }
        let read: UInt8? = switch character {
        case UInt8(ascii: "\""), UInt8(ascii: "/"): character
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let read { readings.append(([read], end - offset + length)) }
        return readings
    }

    /// The ASCII character at `offset` as itself, percent-encoded up to three times (`%22`, `%2522`) or as an HTML
    /// reference (`&quot;`, `&#34;`, `&#x5C;`), its `&` itself escaped (`&amp;quot;`, `%26quot%3B`, `%2526quot`), and
    /// the bytes it takes; nil when none stands there.
    private static func asciiCharacter(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt8, Int)? {
        guard offset < bytes.count else { return nil }
        switch bytes[offset] {
        case UInt8(ascii: "%"):
            guard var value = hexValue(in: bytes, at: offset + 1) else { return nil }
            var length = 3
            while value == 0x25, length < 7, let next = hexValue(in: bytes, at: offset + length) { (value, length) = (next, length + 2) }
            if value == 0x26, let (referenced, referenceLength) = reference(after: offset + length, in: bytes), referenced < 0x80 {
                return (UInt8(referenced), length + referenceLength)
            }
            return (value, length)
        case UInt8(ascii: "&"):
            // After `&` written in any way (`&amp;quot;`, `%26quot%3B`).
            for ampersand in ampersandLengths(at: offset, in: bytes).reversed() {
                if let (value, length) = reference(after: offset + ampersand, in: bytes), value < 0x80, value != 0x26 {
                    return (UInt8(value), ampersand + length)
                }
            }
            return (UInt8(ascii: "&"), 1)
        case let byte: return byte < 0x80 ? (byte, 1) : nil
        }
    }

    /// The character a JSON `\uXXXX` escape whose `u` stands at `start` gives (with the second half of a surrogate pair
    /// after it), and the bytes it takes from there; nil when there is none or it is a lone surrogate.
    private static func jsonEscape(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int)? {
        unit(at: start, in: bytes).flatMap { character(startingWith: $0, length: 5, in: bytes, at: start) }
    }

    /// The UTF-16 code unit of `uXXXX` at `u`; nil when there is none.
    private static func unit(at u: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard u + 4 < bytes.count, bytes[u] == UInt8(ascii: "u"), let high = hexValue(in: bytes, at: u + 1),
              let low = hexValue(in: bytes, at: u + 3) else { return nil }
        return UInt32(high) << 8 | UInt32(low)
    }

    /// The character whose escape (a JSON escape or an HTML reference of `length` bytes from `start`) gives `value`:
    /// itself, or, for the first half of a surrogate pair, the pair with the second half escaped after it in any form
    /// (as JavaScript's encoders write a character beyond U+FFFF: `\ud83d\ude00`, `&#55357;&#56832;`, mixed);
    /// nil for a lone surrogate or no character.
    private static func character(startingWith value: UInt32, length: Int, in bytes: UnsafeBufferPointer<UInt8>,
                                  at start: Int) -> (Unicode.Scalar, Int)? {
        guard (0xD800...0xDBFF).contains(value) else { return Unicode.Scalar(value).map { ($0, length) } }
        guard let (second, secondLength) = utf16Unit(at: start + length, in: bytes), (0xDC00...0xDFFF).contains(second) else {
            return nil
        }
        return Unicode.Scalar(0x10000 + (value - 0xD800) << 10 + (second - 0xDC00)).map { ($0, length + secondLength) }
    }

    /// A UTF-16 code unit escaped at `offset`, and the bytes its escape takes: a JSON `\uXXXX` after any form of
    /// backslash (`backslashes`), or an HTML numeric reference after any form of `&` (`&#56832;`, `&amp;#xDE00;`,
    /// `&#56832`).
    private static func utf16Unit(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt32, Int)? {
        guard offset < bytes.count else { return nil }
        // A reference first: its `&` may be a JSON escape itself (`\u0026#56832;`).
        for ampersand in ampersandLengths(at: offset, in: bytes) {
            guard let (value, length) = reference(after: offset + ampersand, in: bytes), value <= 0xFFFF, value != 0x26 else { continue }
            return (value, ampersand + length)
        }
        for backslash in backslashes where startsCaseless(backslash, at: offset, in: bytes) {
            if let unit = unit(at: offset + backslash.utf8.count, in: bytes) { return (unit, backslash.utf8.count + 5) }
        }
        return nil
    }

    /// The value of the HTML character reference after an `&` (its body starting at `start`), and the bytes it takes from
    /// there: `#43;`, `#x2B;` (a numeric one also without its `;`, as browsers read it), or a name with its `;`; the `#`
    /// and the `;` may be percent-encoded (`%2343%3B`, a reference sent on in a URL).
    private static func reference(after start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt32, Int)? {
        guard start < bytes.count else { return nil }
        /// The length of `text` (percent-encoded as `escaped`, once or twice) at `index`, or 0.
        func mark(_ text: UInt8, _ escaped: String, at index: Int) -> Int {
            if index < bytes.count, bytes[index] == text { return 1 }
            let twice = "%25" + escaped.dropFirst()
            return startsCaseless(escaped, at: index, in: bytes) ? escaped.utf8.count : startsCaseless(twice, at: index, in: bytes) ? twice.utf8.count : 0
        }
        let hash = mark(UInt8(ascii: "#"), "%23", at: start)
        if hash > 0 {
            let end = min(start + hash + 10, bytes.count)
            let hex = start + hash < end && (bytes[start + hash] | 0x20) == UInt8(ascii: "x")
            let digitsStart = start + hash + (hex ? 1 : 0)
            var index = digitsStart
            var value: UInt32 = 0
            while index < end, let digit = hex ? bytes[index].hexDigitValue : decimalDigit(bytes[index]), value <= 0x10FFFF {
                value = value * (hex ? 16 : 10) + UInt32(digit)
                index += 1
            }
            guard index > digitsStart, value <= 0x10FFFF else { return nil }
            return (value, index - start + mark(UInt8(ascii: ";"), "%3b", at: index))
        }
        let end = min(start + 11, bytes.count)
        var index = start
        while index < end, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: "%") { index += 1 }
        let semicolon = index < end ? mark(UInt8(ascii: ";"), "%3b", at: index) : 0
        guard semicolon > 0, index > start,
              let value = htmlNames[String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)]
        else { return nil }
        return (value, index - start + semicolon)
    }

    /// The lengths of the ways `&` is written at `offset` that a reference may follow: as it is, percent-encoded (`%26`),
    /// as a JSON escape (`\u0026`, after any form of backslash), or as a reference to itself, repeated (`&amp;`,
    /// `&amp;amp;`, `&#38;`, `%26amp%3B`).
    private static func ampersandLengths(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var lengths: [Int] = []
        if bytes[offset] == UInt8(ascii: "&") { lengths.append(1) }
        if bytes[offset...].starts(with: "%26".utf8) { lengths.append(3) }
        for backslash in backslashes where startsCaseless(backslash, at: offset, in: bytes) {
            if unit(at: offset + backslash.utf8.count, in: bytes) == 0x26 { lengths.append(backslash.utf8.count + 5) }
        }
        // Each `&` may be written as a reference to itself, after another `&`.
        var next = 0
        while next < lengths.count, lengths.count < 8 {
            if let (value, length) = reference(after: offset + lengths[next], in: bytes), value == 0x26 {
                lengths.append(lengths[next] + length)
            }
            next += 1
        }
        return lengths
    }

    /// Whether `prefix` (lower case) stands at `offset` in `bytes`, compared without case.
    private static func startsCaseless(_ prefix: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        offset < bytes.count && bytes[offset...].starts(with: prefix.utf8) { byte, expected in
            ((0x41...0x5A).contains(byte) ? byte + 0x20 : byte) == expected
        }
    }

    /// The value of a decimal digit byte.
    private static func decimalDigit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }

    /// How a backslash before a JSON escape's `u` is written: as it is, escaped again, percent-encoded once or twice
    /// (compared without case).
    private static let backslashes = ["\\\\", "\\", "%5c", "%255c"]

    /// HTML's names for the characters encoders write as references: ASCII ones (Go, .NET) and those of ISO-8859-1 and
    /// the euro sign (PHP's `htmlentities`).
    private static let htmlNames: [String: UInt32] = {
        var names: [String: UInt32] = [
            "amp": 0x26, "AMP": 0x26, "lt": 0x3C, "LT": 0x3C, "gt": 0x3E, "GT": 0x3E, "quot": 0x22, "QUOT": 0x22,
            "apos": 0x27, "plus": 0x2B, "sol": 0x2F, "equals": 0x3D,
            "num": 0x23, "quest": 0x3F, "percnt": 0x25, "commat": 0x40, "excl": 0x21, "colon": 0x3A, "semi": 0x3B,
            "comma": 0x2C, "period": 0x2E, "lpar": 0x28, "rpar": 0x29, "ast": 0x2A, "dollar": 0x24, "grave": 0x60,
            "lsqb": 0x5B, "rsqb": 0x5D, "lcub": 0x7B, "rcub": 0x7D, "verbar": 0x7C, "bsol": 0x5C, "Hat": 0x5E, "lowbar": 0x5F,
            "tilde": 0x7E, "euro": 0x20AC,
        ]
        for (index, name) in latin1Names.enumerated() { names[name] = 0xA0 + UInt32(index) }
        return names
    }()

    /// HTML's names of U+00A0 to U+00FF, in order.
    static let latin1Names = """
        nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro \
        para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil \
        Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave \
        Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml \
        igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute \
        thorn yuml
        """.split(separator: " ").map(String.init)

    /// The byte two hex digits (either case) at `offset` give; nil when they are not two hex digits.
    fileprivate static func hexValue(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt8? {
        guard offset + 1 < bytes.count, let high = bytes[offset].hexDigitValue, let low = bytes[offset + 1].hexDigitValue else { return nil }
        return high << 4 | low
    }

    /// The range of the longest start of a form (shorter than all of it, of `shortestHiddenInText` bytes or more) that
    /// ends at `end` in `bytes` (where text was cut short); nil when none does.
    func start(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let first = max(0, end - longest + 1), last = end - ResolvedSecret.shortestHiddenInText
        guard let base = bytes.baseAddress, first <= last else { return nil }
        for offset in first...last {
            let length = end - offset
            if forms(startingAt: offset, in: bytes).contains(where: { $0.count > length && memcmp(base + offset, $0, length) == 0 }) {
                return offset..<end
            }
        }
        return nil
    }

    /// The range of a start of a value found with its characters escaped (`loose`; `shortestHiddenInText` bytes of it
    /// or more) that runs up to `end` in `bytes` (where text was cut short, perhaps inside an escape: `%4…`); nil when none
    /// does. Looked for back as far as the longest value escaped byte by byte may take.
    func looseStart(endingAt end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard hasLoose else { return nil }
        for offset in max(0, end - Self.longestEscape * longestLooseValue)..<end
        where reachesEnd(from: ByteTrie.root, consumed: 0, at: offset, reaching: end, in: bytes) {
            return offset..<end
        }
        return nil
    }

    /// Whether the first bytes of a value of `loose` stand at `offset`, read as far as `node` (`consumed` bytes of it),
    /// each as itself or escaped (`escapes(at:in:)`), up to `end` or to an escape cut short just before it:
    /// `shortestHiddenInText` bytes of it or more, not all of it.
    private func reachesEnd(from node: Int32, consumed: Int, at offset: Int, reaching end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard loose.hasChildren(node) else { return false }
        if offset == end || (end - offset < Self.longestEscape && "%&\\".utf8.contains(bytes[offset])
                             && consumed >= ResolvedSecret.shortestHiddenInText) {
            return consumed >= ResolvedSecret.shortestHiddenInText
        }
        let written = bytes[offset]
        if let next = loose.child(of: node, written), reachesEnd(from: next, consumed: consumed + 1, at: offset + 1, reaching: end, in: bytes) {
            return true
        }
        guard Self.startsEscape(written) else { return false }
        for (read, length) in Self.escapes(at: offset, in: bytes) where offset + length <= end && (!read.isEmpty || consumed > 0) {
            if let next = loose.descendant(of: node, along: read),
               reachesEnd(from: next, consumed: consumed + read.count, at: offset + length, reaching: end, in: bytes) {
                return true
            }
        }
        return false
    }

    /// The most bytes an escape of one byte of a value takes (`%5C%5C%5C%5Cu005a`, escaped three times and
    /// percent-encoded: 17).
    private static let longestEscape = 17

    /// The forms of two bytes or more whose first two bytes are those at `offset` (which has one after it).
    private func forms(startingAt offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        guard starts.contains(bytes[offset], bytes[offset + 1]) else { return [] }
        return byStart[UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])] ?? []
    }
}

/// A set of pairs of bytes, one bit each.
/// Byte strings in a trie, for finding many that share their beginnings at once: each node a byte, with its first child
/// and next sibling (nodes are numbered, the root 0; the root's children are found by their byte at once).
private struct ByteTrie: Sendable {
    static let root: Int32 = 0
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]
    private var byte: [UInt8] = [0]
    /// Whether a string ends at the node.
    private var ends: [Bool] = [false]
    /// The root's children by their byte.
    private var rootChildren = [Int32](repeating: -1, count: 256)

    /// The child of `node` for `value`, if any.
    func child(of node: Int32, _ value: UInt8) -> Int32? {
        if node == Self.root { return rootChildren[Int(value)] < 0 ? nil : rootChildren[Int(value)] }
        var child = firstChild[Int(node)]
        while child >= 0 {
            if byte[Int(child)] == value { return child }
            child = nextSibling[Int(child)]
        }
        return nil
    }

    /// The node `bytes` lead to from `node`, if any (`node` itself for none).
    func descendant(of node: Int32, along bytes: [UInt8]) -> Int32? {
        var node = node
        for value in bytes {
            guard let child = child(of: node, value) else { return nil }
            node = child
        }
        return node
    }

    /// Whether a string ends at `node`.
    func isEnd(_ node: Int32) -> Bool { ends[Int(node)] }

    /// Whether some string goes on past `node`.
    func hasChildren(_ node: Int32) -> Bool { node == Self.root || firstChild[Int(node)] >= 0 }

    /// Adds `string`; false when it was there already.
    mutating func insert(_ string: [UInt8]) -> Bool {
        var node = Self.root
        for value in string {
            if let child = child(of: node, value) {
                node = child
                continue
            }
            let child = Int32(byte.count)
            byte.append(value)
            ends.append(false)
            firstChild.append(-1)
            if node == Self.root {
                nextSibling.append(-1)
                rootChildren[Int(value)] = child
            } else {
                nextSibling.append(firstChild[Int(node)])
                firstChild[Int(node)] = child
            }
            node = child
        }
        defer { ends[Int(node)] = true }
        return !ends[Int(node)]
    }
}

private struct BytePairs: Sendable {
    private var bits = [UInt64](repeating: 0, count: 1 << 10)

    mutating func insert(_ first: UInt8, _ second: UInt8) {
        let pair = Int(first) << 8 | Int(second)
        bits[pair >> 6] |= 1 << UInt64(pair & 63)
    }

    func contains(_ first: UInt8, _ second: UInt8) -> Bool {
        let pair = Int(first) << 8 | Int(second)
        return bits[pair >> 6] & (1 << UInt64(pair & 63)) != 0
    }
}

extension String {
    /// The text with each occurrence of `target`'s UTF-8 bytes replaced by `replacement`'s, as Foundation's
    /// `replacingOccurrences` matches code units rather than characters, at a fraction of its cost (a secret's forms
    /// take hundreds of replacements).
    func replacingBytes(of target: String, with replacement: String) -> String {
        let source = Array(utf8), pattern = Array(target.utf8)
        guard let first = pattern.first, source.contains(first) else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(source.count)
        var offset = 0
        while offset < source.count {
            if source[offset] == first, source[offset...].starts(with: pattern) {
                result += replacement.utf8
                offset += pattern.count
            } else {
                result.append(source[offset])
                offset += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
