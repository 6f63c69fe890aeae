import HTTPCore
import YAML

/// Reads YAML nodes of one file into typed values, reporting every problem instead of stopping.
struct NodeDecoder {
    let source: SourceText
    private(set) var diagnostics = DiagnosticBag()
    /// Whether a secret's definition is being read: no problem found in it shows a value written there.
    var decodingSecret = false
    /// Whether an `auth:` is being read: no problem found in it shows a value written there, which may be a credential
    /// (`auth: { basic: "u:pw" }`, a mistyped `pasword:`), nor quotes one in its line.
    var decodingCredentials = false
    /// Whether what is being read may hold a credential, a secret's or another.
    private var hidesValues: Bool { decodingSecret || decodingCredentials }
    /// The source's line starts, found at the first template that needs them.
    private var lineStarts: [Int]?
    /// Namespace prefixes declared with a value that is no URI: reported there, not again as undeclared where used.
    var prefixesInError: Set<String> = []
    /// The templates with expressions read so far, in source order, with the well-formed part of each that has syntax
    /// errors: a request with such errors keeps them to be checked (`RequestDefinition.templatesBesideSyntaxErrors`).
    var templatesRead: [Template] = []
    /// How many templates had syntax errors (reported) so far.
    private(set) var templateSyntaxErrors = 0
    /// The keys that follow a comma in a plain value (`followsComma`), reported: no other problem is reported there.
    private var commaSplitKeys: Set<Mark> = []
    /// The values a comma cut short (`{ url: http://u:p,q@host }`): not checked further, as what they hold is not
    /// what was meant (and may be a credential).
    private(set) var commaCutValues: Set<Mark> = []

    init(source: SourceText) {
        self.source = source
    }

    /// The path of the file as displayed.
    var path: String { source.path }

    /// Reports an error at a mark of this file.
    mutating func error(_ message: String, at mark: Mark?, suggestion: String? = nil, hidingKey: Bool = false) {
        if let mark, commaSplitKeys.contains(mark) || commaCutValues.contains(mark) { return }
        var diagnostic = Diagnostic.error(message, path: path, at: mark, suggestion: suggestion)
        diagnostic.quotesSecret = hidesValues
        diagnostic.hidesKey = hidingKey
        diagnostics.add(diagnostic)
    }

    /// Reports a warning at a mark of this file.
    mutating func warning(_ message: String, at mark: Mark?, suggestion: String? = nil) {
        var diagnostic = Diagnostic.warning(message, path: path, at: mark, suggestion: suggestion)
        diagnostic.quotesSecret = hidesValues
        diagnostics.add(diagnostic)
    }

    /// Reports a template error of this file.
    mutating func report(_ error: TemplateError) {
        for problem in [error] + error.following where !commaSplitKeys.contains(problem.mark) && !commaCutValues.contains(problem.mark) {
            diagnostics.add(problem.diagnostic(in: path))
        }
    }

    // MARK: Shapes

    /// The pairs of a mapping, or nil after reporting "expected a mapping".
    mutating func mapping(_ node: Node, for context: @autoclosure () -> String?, suggestion: String? = nil) -> Node.Pairs? {
        if let pairs = node.mapping {
            reportCommaSplits(pairs)
            return pairs
        }
        if let glued = gluedText(node) {
            let place = context().map { " for '\($0)'" } ?? ""
            error("expected a mapping\(place), found '\(glued.shown)', one text: a ':' ends a key only before a space", at: node.mark,
                  suggestion: "write a space after the ':' of '\(glued.word):'")
            return nil
        }
        typeMismatch(node, expected: "a mapping", for: context(), suggestion: suggestion)
        return nil
    }

    /// A plain text that starts as a key glued to its value (`page:2`, `Accept:text/html`, not a URL), as a message
    /// shows it: its first word only, and without the value when that may be a credential; nil for other nodes.
    func gluedText(_ node: Node) -> (word: Substring, shown: String)? {
        guard case .scalar(let scalar) = node.content, scalar.style == .plain else { return nil }
        let first = scalar.text.prefix { !$0.isWhitespace }
        guard Self.isGlued(String(first)), !first.contains("://") else { return nil }
        let word = first.prefix { $0 != ":" }
        let more = first.count < scalar.text.count ? " …" : ""
        return (word, hidesValues ? "\(word):(not shown)\(more)" : Self.hidingGluedCredentials(String(first)) + more)
    }

    /// The items of a list, or nil after reporting "expected a list".
    mutating func sequence(_ node: Node, for context: @autoclosure () -> String?) -> Node.Items? {
        if let items = node.sequence { return items }
        typeMismatch(node, expected: "a list", for: context())
        return nil
    }

    /// The items of a list, or the node itself as a one-item list when it is a scalar.
    func scalarOrSequence(_ node: Node) -> [Node] {
        if let items = node.sequence { return Array(items) }
        return [node]
    }

    /// Reports that `node` is not what was expected.
    mutating func typeMismatch(_ node: Node, expected: String, for context: @autoclosure () -> String?, suggestion: String? = nil) {
        let place = context().map { " for '\($0)'" } ?? ""
        let found = hidesValues && node.scalar != nil && !node.isNull
            ? "a value, not shown (it may be \(decodingSecret ? "the secret" : "a credential"))" : Self.describe(node)
        error("expected \(expected)\(place), found \(found)", at: node.mark, suggestion: suggestion)
    }

    /// "a list", "a mapping", "the string 'x'", "the integer 5", "null", ...
    static func describe(_ node: Node) -> String {
        switch node.content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return "null"
            case .bool(let value): return "the boolean \(value)"
            case .int(let value): return "the integer \(value)"
            case .double: return "the number \(scalar.text)"
            case .string(let text): return "the string '\(hidingGluedCredentials(text))'"
            }
        }
    }

    /// A plain text as a message shows it: cut at its first word that glues a credential to its key (`bearer:x`,
    /// `Authorization:Bearer-x`), shown as `bearer:(not shown)`.
    static func hidingGluedCredentials(_ text: String) -> String {
        var start = text.startIndex
        while let word = text[start...].firstRange(of: /[^\s]+/) {
            if gluesCredential(String(text[word])) {
                let more = word.upperBound < text.endIndex ? " …" : ""
                return text[..<word.lowerBound] + text[word].prefix { $0 != ":" } + ":(not shown)" + more
            }
            start = word.upperBound
        }
        return text
    }

    /// The keys allowed at one level, with their pairs; reports unknown keys with a suggestion: the explanation of the
    /// key, or the closest allowed key, or one of `suggesting` (keys of another place, such as a flow's `steps` in a
    /// single-request file) with its explanation.
    /// Every key name of the format, in any mapping.
    private static let formatKeyNames = Set(FormatKeys.all.flatMap(\.keys).map(\.name))

    mutating func fields(_ pairs: Node.Pairs, allowed: [String], in context: @autoclosure () -> String?,
                         explanations: @autoclosure () -> [String: String] = [:], suggesting: [String] = []) -> Fields {
        var found: [(key: String, position: Int)] = []
        found.reserveCapacity(pairs.count)
        var namesAnotherPlace = false
        var suggested: Set<String> = []
        // What follows a comma in a plain value is reported by `mapping`.
        for position in pairs.indices where !isCommaSplit(pairs, at: position) {
            let key = pairs.keyText(at: position) ?? ""
            if allowed.contains(key) {
                found.append((key, position))
            } else {
                // Made only for a key that is not allowed: most mappings have none.
                let explanations = explanations()
                let place = context().map { " in '\($0)'" } ?? ""
                let closestName = Suggestions.closest(to: key, among: allowed + suggesting)
                let closest = closestName.map { name in
                    "did you mean '\(name)'?" + (explanations[name].map { " (\($0))" } ?? "")
                }
                namesAnotherPlace = namesAnotherPlace || explanations[key] != nil || closestName.map(suggesting.contains) == true
                if explanations[key] == nil, let closestName { suggested.insert(closestName) }
                // `default:x` in a flow mapping is one key: a `:` ends a key only before a space.
                let glued = key.firstIndex(of: ":").map { String(key[..<$0]) }.flatMap { allowed.contains($0) ? $0 : nil }
                    .map { "write a space after the ':' of '\($0):'" }
                // A YAML merge key: what it would merge is missing too, which this error says already.
                let merge = key == "<<" ? "'<<' is an ordinary key here, not a YAML merge: write the keys out, or share "
                    + "them with use: (a step) or an environment (options, headers)" : nil
                if merge != nil { suggested.formUnion(allowed) }
                // A typo of a key that belongs elsewhere (`retries` beside `request:`) is told where that one goes.
                let elsewhere = closest == nil && explanations[key] == nil
                    ? Suggestions.closest(to: key, among: explanations.keys.sorted()).map { "did you mean '\($0)'? \(explanations[$0] ?? "")" }
                    : nil
                let suggestion = glued ?? merge ?? explanations[key] ?? closest ?? elsewhere
                    ?? "allowed keys: \(allowed.joined(separator: ", "))"
                // In a secret's definition or an `auth:`, a key that is no mistyped one may be the secret or a credential
                // (`{ s3cret }`, `default:s3cret`, a password pasted as a key).
                // A mistyped key, or a credential's key (`token:` in `auth:`), is a word to name.
                let named = (!hidesValues || ((closestName != nil || Self.credentialKey(key)) && key.allSatisfy { $0.isLetter || $0 == "_" }))
                    && !Self.gluesCredential(key)
                let notShown = decodingSecret ? " (not shown: it may be the secret)" : " (not shown: it may be a credential)"
                // A key of the format explained as belonging elsewhere (`request:` beside `steps:`) is no unknown one.
                let misplaced = named && explanations[key] != nil && Self.formatKeyNames.contains(key)
                error(misplaced ? "'\(key)' does not belong " + (context().map { "in '\($0)'" } ?? "here") : "unknown key" + (named ? " '\(key)'" : notShown) + place,
                      at: pairs.key(at: position).mark, suggestion: suggestion, hidingKey: !named)
            }
        }
        return Fields(pairs: pairs, found: found, namesAnotherPlace: namesAnotherPlace, suggested: suggested)
    }

    /// Whether the key at `position` is what follows a comma in the plain value before it on its line (`{ tags: a,b }`
    /// is `tags: a` and a key `b` without a value): in a `{ }` mapping a comma ends a value. After a value that may be a
    /// credential (`credentialKey`, or any in a secret's definition), so is any key written right after the comma
    /// (`{ password: ab,"cd" }`, `ab,cd: 1`), which elsewhere is a compact mapping (`{a: 1,b: 2}`). A key with a `:` after a
    /// word is one glued to its value (`{ env: B, default:x }`), told so by `fields`.
    /// `afterSplit` says whether the key before it does (`{ bearer: ab,cd,ef }`: `ef` follows `cd`, which has no value).
    static func followsComma(_ pairs: Node.Pairs, at position: Int, inSecret: Bool, afterSplit: Bool) -> Bool {
        // The lines first: a block mapping's keys are on lines of their own, and most mappings are.
        guard position > 0, case let (valueMark, keyMark) = (pairs.value(at: position - 1).mark, pairs.key(at: position).mark),
              valueMark.line == keyMark.line,
              case .scalar(let before) = pairs.value(at: position - 1).content, before.style == .plain,
              !before.text.isEmpty || afterSplit,
              case .scalar(let key) = pairs.key(at: position).content
        else { return false }
        let keyBefore = pairs.keyText(at: position - 1) ?? ""
        if keyMark.column == valueMark.column + before.text.unicodeScalars.count + 1,
           (inSecret && keyBefore != "env") || credentialKey(keyBefore) { return true }
        guard key.style == .plain, case .scalar(let value) = pairs.value(at: position).content, value.value == .null, value.text.isEmpty
        else { return false }
        return !isGlued(key.text)
    }

    /// Whether a key's value may be a credential: one of `credentialKeys`, a secret's `default`, or a credential header.
    static func credentialKey(_ key: String) -> Bool {
        // In any case: what hides a value takes `BEARER:x` for `bearer:x`.
        let lowered = key.lowercased()
        return lowered == "default" || loweredCredentialKeys.contains(lowered) || HTTPHeaders.isCredential(key)
    }

    /// `credentialKeys` lowercased, as `credentialKey` compares them (for every key of every file `WrittenCredentials`
    /// reads).
    private static let loweredCredentialKeys = Set(credentialKeys.map { $0.lowercased() })

    /// Whether a key is a credential's glued to its value (`bearer:abc`, `Authorization:Bearer-x`): shown without it.
    static func gluesCredential(_ key: String) -> Bool {
        isGlued(key) && credentialKey(String(key.prefix { $0 != ":" }))
    }

    /// Whether a key is a word glued to a value by a `:` without a space (`default:x`, `page:2`).
    static func isGlued(_ key: String) -> Bool {
        guard let colon = key.firstIndex(of: ":"), !key.contains("@") else { return false }
        return key.startIndex < colon && key[..<colon].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
    }

    /// Whether the key at `position` was reported as following a comma in a plain value (`reportCommaSplits`, which
    /// `mapping` calls): it is no key of the mapping.
    func isCommaSplit(_ pairs: Node.Pairs, at position: Int) -> Bool {
        commaSplitKeys.contains(pairs.key(at: position).mark)
    }

    /// Reports each key of `pairs` that follows a comma in a plain value (`followsComma`), once.
    mutating func reportCommaSplits(_ pairs: Node.Pairs) {
        // One pass, each key looking only at the one before it: a line of many commas costs no more than its keys.
        var afterSplit = false
        var cut = (key: "", hidden: false)
        for position in pairs.indices {
            let splitBefore = afterSplit
            afterSplit = Self.followsComma(pairs, at: position, inSecret: decodingSecret, afterSplit: splitBefore)
            guard afterSplit else { continue }
            let key = pairs.keyText(at: position) ?? ""
            // The value cut is that of the key before the first comma (`{ bearer: ab,cd,ef }`: `bearer`'s).
            if !splitBefore {
                let before = pairs.keyText(at: position - 1) ?? ""
                cut = (before, decodingSecret || Self.credentialKey(before))
            }
            let keyMark = pairs.key(at: position).mark
            guard !commaSplitKeys.contains(keyMark) else { continue }
            let what = cut.hidden || key.contains("@") ? "what follows a comma (not shown: it may be part of the value)" : "'\(key)'"
            error("\(what) in the value of '\(cut.key)' reads as a key", at: keyMark,
                  suggestion: "in a { } mapping a comma ends a value: quote a value that holds one, or write several values as a list ([a, b])")
            commaSplitKeys.insert(keyMark)
            // The value before the comma, and the split key's own (none, or what a `:` after it gave).
            commaCutValues.formUnion([pairs.value(at: position - 1).mark, pairs.value(at: position).mark])
        }
    }

    /// Reports a key glued to its value (`{ page:2 }` is one key `page:2` without a value) where any key is allowed (query,
    /// form, headers, JSON); whether it did.
    mutating func reportGlued(_ pairs: Node.Pairs, at position: Int) -> Bool {
        guard case .scalar(let key) = pairs.key(at: position).content, key.style == .plain, Self.isGlued(key.text),
              case .scalar(let value) = pairs.value(at: position).content, value.value == .null, value.text.isEmpty
        else { return false }
        let word = key.text[..<key.text.firstIndex(of: ":")!]
        let shown = decodingSecret || Self.gluesCredential(key.text) ? "\(word):(not shown)" : key.text
        error("'\(shown)' is one key without a value: a ':' ends a key only before a space",
              at: pairs.key(at: position).mark, suggestion: "write a space after the ':' of '\(word):'")
        return true
    }

    /// The text of a mapping key.
    static func keyText(_ node: Node) -> String {
        node.scalarText ?? ""
    }

    /// Reports a missing required key at the mapping's mark, unless an unknown key of `fields` was taken for it (`requst:`
    /// has said "did you mean 'request'?").
    mutating func missing(_ key: String, from fields: Fields, in context: @autoclosure () -> String?, at mark: Mark) {
        guard !fields.suggested.contains(key) else { return }
        let place = context().map { " in '\($0)'" } ?? ""
        error("missing key '\(key)'\(place)", at: mark)
    }

    // MARK: Scalars

    /// A non-null scalar as text (numbers and booleans as written).
    mutating func string(_ node: Node, for context: @autoclosure () -> String?) -> String? {
        if !node.isNull, let text = node.scalarText { return text }
        typeMismatch(node, expected: "a string", for: context())
        return nil
    }

    /// A boolean scalar (`true` or `false`).
    mutating func bool(_ node: Node, for context: @autoclosure () -> String?) -> Bool? {
        if case .scalar(let scalar) = node.content, case .bool(let value) = scalar.value { return value }
        // YAML 1.1's words for booleans are text in YAML 1.2, which runner reads.
        let plain: String? = if case .scalar(let scalar) = node.content, scalar.style == .plain { scalar.text.lowercased() } else { nil }
        let word: Bool? = switch plain {
        case "yes", "on", "y": true
        case "no", "off", "n": false
        default: nil
        }
        typeMismatch(node, expected: "a boolean (true or false)", for: context(),
                     suggestion: word.map { "write \($0): YAML 1.2, which runner reads, takes yes, no, on and off as text" })
        return nil
    }

    /// An integer scalar within `range`.
    mutating func int(_ node: Node, for context: @autoclosure () -> String?, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let scalar) = node.content, case .int(let value) = scalar.value else {
            typeMismatch(node, expected: "an integer", for: context())
            return nil
        }
        guard range.contains(value) else {
            let bounds = range.upperBound == Int.max ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
            error("'\(context() ?? "value")' must be \(bounds), found \(value)", at: node.mark)
            return nil
        }
        return value
    }

    /// A number scalar (integer or float) greater than zero.
    mutating func positiveNumber(_ node: Node, for context: @autoclosure () -> String?) -> Double? {
        if case .scalar(let scalar) = node.content {
            let number: Double? = switch scalar.value {
            case .int(let int): Double(int)
            case .double(let double): double
            default: nil
            }
            if let number, number > 0, number.isFinite { return number }
        }
        // A number past a double's range (`1e400`) is no number runner can use, however large it is.
        typeMismatch(node, expected: "a finite number greater than 0", for: context())
        return nil
    }

    /// A duration such as `250ms`, `1.5s`, `1m` or `2h`.
    mutating func duration(_ node: Node, for context: @autoclosure () -> String?) -> Duration? {
        if case .scalar(let scalar) = node.content, case .string(let text) = scalar.value {
            switch DurationSyntax.read(text) {
            case .duration(let duration):
                return duration
            case .tooLong:
                error("'\(context() ?? "duration")' may be at most \(DurationSyntax.longestText), found \(text)", at: node.mark,
                      suggestion: "use a shorter duration")
                return nil
            case .invalid:
                break
            }
        }
        var suggestion = Self.durationHelp
        if case .scalar(let scalar) = node.content, case .int(let number) = scalar.value, number >= 0 {
            suggestion = "add a unit, such as '\(number)s' or '\(number)ms'"
        } else if Self.containsTemplate(node) {
            // A `--var` cannot give it: durations are read with the file.
            suggestion = "a duration is not a template, fixed when the file is read: write it, such as 5s"
        }
        typeMismatch(node, expected: "a duration like 250ms, 5s or 1m", for: context(), suggestion: suggestion)
        return nil
    }

    // MARK: Templates

    /// A scalar as a template (numbers and booleans as their text).
    mutating func template(_ node: Node, for context: @autoclosure () -> String?) -> Template? {
        guard case .scalar(let scalar) = node.content, scalar.value != .null else {
            typeMismatch(node, expected: "a string", for: context())
            return nil
        }
        return parseTemplate(scalar, at: node.mark)
    }

    /// Whether a node is a scalar whose text has a `{{`.
    static func containsTemplate(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node.content else { return false }
        // Over UTF-8 bytes: Foundation's `contains` of a string bridges to NSString, which every name would pay for.
        var previous: UInt8 = 0
        for byte in scalar.text.utf8 {
            if byte == UInt8(ascii: "{"), previous == byte { return true }
            previous = byte
        }
        return false
    }

    /// Where the source's lines start, found once.
    mutating func sourceLineStarts() -> [Int] {
        if let lineStarts { return lineStarts }
        let found = source.lineStarts()
        lineStarts = found
        return found
    }

    /// Parses a scalar's text as a template, reporting syntax errors.
    mutating func parseTemplate(_ scalar: Scalar, at mark: Mark) -> Template? {
        if let plain = Template.plain(scalar.text, at: mark) { return plain }
        do {
            let locator = source.braceLocator(for: scalar, at: mark, lineStarts: sourceLineStarts())
            let template = try Template.parse(scalar.text, at: mark, markOfOffset: locator)
            templatesRead.append(template)
            return template
        } catch {
            report(error)
            templateSyntaxErrors += 1
            if let part = error.wellFormedPart { templatesRead.append(part) }
            return nil
        }
    }

    /// Why a number written as `scalar` would not be sent as written, and how to write it: an integer beyond 64 bits
    /// (it would go as a rounded float) or a number beyond a double's range (it would go as `null`); nil for others,
    /// `.inf`, `.nan` and numbers tagged `!!float` included.
    static func inexact(_ scalar: Scalar, _ value: Double) -> (problem: String, help: String)? {
        guard scalar.style == .plain, scalar.tag == nil else { return nil }
        let digits = scalar.text.drop { $0 == "-" || $0 == "+" }
        if value.isFinite, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) || digits.hasPrefix("0x") || digits.hasPrefix("0o") {
            return ("the integer \(scalar.text) is beyond what a number holds exactly (\(Int.min) to \(Int.max)): it would "
                        + "be sent or compared rounded, as \(value)",
                    "write it in quotes to keep it as a string")
        }
        guard !value.isFinite, scalar.text.contains(where: \.isNumber) else { return nil }
        return ("the number \(scalar.text) is beyond what a number holds (about ±1.8e308)",
                "write a smaller number, or write it in quotes to keep it as a string")
    }

    /// Any YAML value as a template value tree (strings parsed as templates); nil when a part has an error (reported),
    /// or, with `partial`, that tree without those parts: a body whose file will not run, still checked for the
    /// problems of its other templates.
    mutating func templateValue(_ node: Node, partial: Bool = false) -> TemplateValue? {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return TemplateValue(.null, mark: node.mark)
            case .bool(let value): return TemplateValue(.bool(value), mark: node.mark)
            case .int(let value): return TemplateValue(.int(value), mark: node.mark)
            case .double(let value):
                if let (problem, help) = Self.inexact(scalar, value) {
                    error(problem, at: node.mark, suggestion: help)
                    return nil
                }
                return TemplateValue(.double(value), mark: node.mark)
            case .string: return parseTemplate(scalar, at: node.mark).map { TemplateValue(.string($0), mark: node.mark) }
            }
        case .sequence(let items):
            let values = items.compactMap { templateValue($0, partial: partial) }
            return values.count == items.count || partial ? TemplateValue(.array(values), mark: node.mark) : nil
        case .mapping(let pairs):
            reportCommaSplits(pairs)
            var members: [TemplateValue.Member] = []
            var keys: [String: Mark] = [:]
            var repeated = false
            for (position, pair) in pairs.enumerated() {
                if reportGlued(pairs, at: position) { repeated = true }
                // Keys YAML tells apart (`1` and `"1"`, `true` and `"true"`) are one in JSON: the second would replace the first.
                let key = Self.keyText(pair.key)
                // YAML 1.2 has no merge key: `<<: *base` is a member named `<<` holding the other mapping.
                if key == "<<", case .scalar(let scalar) = pair.key.content, scalar.style == .plain {
                    warning("'<<' is an ordinary key here, not a YAML merge: it is a member named '<<' holding the other mapping",
                            at: pair.key.mark, suggestion: "write the keys out (an anchor and alias can repeat a whole value: key: *base)")
                }
                if let first = keys.updateValue(pair.key.mark, forKey: key) {
                    error("key \"\(key)\" is written twice in this mapping (first on line \(first.line)): a JSON object holds one",
                          at: pair.key.mark, suggestion: "remove one of the two entries or rename this key")
                    repeated = true
                }
                guard let value = templateValue(pair.value, partial: partial) else { continue }
                members.append(.init(key: key, keyMark: pair.key.mark, value: value))
            }
            return (members.count == pairs.count && !repeated) || partial ? TemplateValue(.object(members), mark: node.mark) : nil
        }
    }
}

/// The known keys found in one mapping.
///
/// A list searched in order: a mapping of the format has a handful of keys (duplicates are rejected when
/// parsing), where a linear search beats hashing every key.
struct Fields {
    /// The mapping's pairs.
    private let pairs: Node.Pairs
    /// The allowed keys found, with the position of their pair (nodes are made only for the keys asked for).
    private let found: [(key: String, position: Int)]
    /// Whether an unknown key was explained, or suggested as one of another place (a flow's `steps`, a step's `use`):
    /// the mapping is most likely meant as that other shape.
    let namesAnotherPlace: Bool
    /// The allowed keys an unknown key was taken for (`request` for `requst`).
    let suggested: Set<String>

    init(pairs: Node.Pairs, found: [(key: String, position: Int)], namesAnotherPlace: Bool = false, suggested: Set<String> = []) {
        self.pairs = pairs
        self.found = found
        self.namesAnotherPlace = namesAnotherPlace
        self.suggested = suggested
    }

    /// The value node of a key, if present.
    subscript(key: String) -> Node? { position(of: key).map(pairs.value(at:)) }

    /// The key node of a key, if present.
    func keyNode(_ key: String) -> Node? { position(of: key).map(pairs.key(at:)) }

    /// Whether a key is present.
    func has(_ key: String) -> Bool { position(of: key) != nil }

    private func position(of key: String) -> Int? { found.first { $0.key == key }?.position }
}

/// The duration syntax: a non-negative decimal number and a unit (ms, s, m, h), no space.
enum DurationSyntax {
    /// The longest duration a file may write: a week. Anything longer is a mistake, and far longer values
    /// would not fit the clocks that carry deadlines.
    static let longest = Duration.seconds(7 * 24 * 3600)
    /// `longest` as a file writes it, for messages.
    static let longestText = "168h (a week)"

    /// What a duration's text says.
    enum Reading: Equatable {
        case duration(Duration)
        /// Well formed, but longer than `longest`.
        case tooLong
        case invalid
    }

    /// Reads `250ms`, `5s`, `1.5s`, `1m`, `2h`.
    static func read(_ text: String) -> Reading {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            // Digits, and a `.` only between digits (`1.5s`, not `1.s` or `.5s`).
            guard let first = number.first, first.isASCII, first.isNumber, number.last?.isNumber == true,
                  number.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
                  let value = Double(number), value.isFinite else { return .invalid }
            let seconds = value * unit.seconds
            guard seconds <= Double(longest.components.seconds) else { return .tooLong }
            return .duration(.milliseconds(seconds * 1000))
        }
        return .invalid
    }

    /// Parses a duration no longer than `longest`; nil for anything else.
    static func parse(_ text: String) -> Duration? {
        if case .duration(let duration) = read(text) { return duration }
        return nil
    }
}
