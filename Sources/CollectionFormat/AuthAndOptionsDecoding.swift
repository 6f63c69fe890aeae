import Expectations
import HTTPCore
import YAML

extension NodeDecoder {
    /// `auth:` `none`, or a mapping with exactly one of basic, bearer, oauth2.
    mutating func auth(_ node: Node) -> Located<AuthDefinition>? {
        decodingCredentials = true
        defer { decodingCredentials = false }
        if case .scalar(let scalar) = node.content {
            if scalar.text == "none" { return Located(.none, at: node.mark) }
            // A text here may be the credential itself (`auth: bearer abc`, `auth: "bearer:abc"`): shown only when it
            // is a typo of `none`.
            let typo = Suggestions.didYouMean(scalar.text, among: ["none"])
            let found = typo != nil || scalar.value == .null ? Self.describe(node) : "a text, not shown (it may be a credential)"
            error("expected 'none' or a mapping with one of basic, bearer, oauth2 for 'auth', found \(found)", at: node.mark,
                  suggestion: typo ?? "write the kind as a key, such as auth: { bearer: \"{{ token }}\" }")
            return nil
        }
        guard let pairs = mapping(node, for: "auth") else { return nil }
        _ = fields(pairs, allowed: AuthDefinition.kinds, in: "auth")
        let kinds = pairs.filter { AuthDefinition.kinds.contains(Self.keyText($0.key)) }
        guard let kind = kinds.first else {
            if pairs.isEmpty { error("'auth' is empty: expected one of basic, bearer, oauth2, or 'none'", at: node.mark) }
            return nil
        }
        for extra in kinds.dropFirst() {
            error("more than one auth kind: '\(Self.keyText(kind.key))' and '\(Self.keyText(extra.key))'", at: extra.key.mark)
        }
        let value = kind.value
        let definition: AuthDefinition?
        switch Self.keyText(kind.key) {
        case "basic":
            let parts = requiredTemplates(value, FormatKeys.basicAuth, in: "auth.basic")
            definition = parts.map { .basic(username: $0["username"]!, password: $0["password"]!) }
            // RFC 7617 has no escape for a `:` in the user name: the server reads the rest as the password.
            if let username = parts?["username"], username.literalText.contains(":") {
                warning("the Basic user name holds a ':', which ends it: the server reads what follows as the password (RFC 7617)",
                        at: username.mark, suggestion: "check the user name; a ':' belongs in the password")
            }
        case "bearer":
            definition = template(value, for: "auth.bearer").map { .bearer($0) }
            // What is written of a token (all of it, or the text around its templates) is sent as it is.
            if case .bearer(let token)? = definition,
               let problem = AuthDefinition.bearerTokenProblem(token.literalText, of: token, in: path, resolved: false) {
                error(problem.message, at: problem.mark, suggestion: problem.suggestion)
            }
            warnIfShellReference(value, for: "auth.bearer")
        default:
            let parts = requiredTemplates(value, FormatKeys.oauth2, in: "auth.oauth2")
            if let tokenURL = parts?["tokenURL"] { checkURL(tokenURL, at: tokenURL.mark, for: "auth.oauth2.tokenURL") }
            definition = parts.map {
                .oauth2(OAuth2Definition(tokenURL: $0["tokenURL"]!, clientID: $0["clientID"]!,
                                         clientSecret: $0["clientSecret"]!, scope: $0["scope"]))
            }
        }
        return definition.map { Located($0, at: node.mark) }
    }

    /// A mapping of templates with the keys of `format`, its required ones present; nil if any is missing or wrong.
    private mutating func requiredTemplates(_ node: Node, _ format: FormatMapping, in context: String) -> [String: Template]? {
        guard let pairs = mapping(node, for: context) else { return nil }
        let fields = fields(pairs, allowed: format.names, in: context)
        var templates: [String: Template] = [:]
        var complete = true
        for key in format.names {
            guard let value = fields[key] else {
                if format.required.contains(key) {
                    missing(key, from: fields, in: context, at: node.mark)
                    complete = false
                }
                continue
            }
            if let template = template(value, for: "\(context).\(key)") { templates[key] = template } else { complete = false }
            if Self.credentialKeys.contains(key) { warnIfShellReference(value, for: "\(context).\(key)") }
        }
        return complete ? templates : nil
    }

    /// `options:` of the request or environment file at `location` (which the files it names are relative to);
    /// `throttle` is allowed in environments only, `retry.stopWhen` in requests only.
    mutating func options(_ node: Node, allowsThrottle: Bool, location: FileLocation, namespaces: [XPathNamespace] = []) -> OptionsDefinition {
        var options = OptionsDefinition()
        guard let pairs = mapping(node, for: "options") else { return options }
        let allowed = allowsThrottle ? FormatKeys.environmentOptions.names : FormatKeys.requestOptions.names
        let fields = fields(pairs, allowed: allowed, in: "options", explanations: [
            "throttle": "'throttle' is a rate shared by all requests: set it in the environment's options",
        ])
        func located<T>(_ key: String, _ decode: (inout NodeDecoder, Node) -> T?) -> Located<T>? {
            guard let value = fields[key], let decoded = decode(&self, value) else { return nil }
            return Located(decoded, at: value.mark)
        }
        options.timeout = located("timeout") { $0.duration($1, for: "options.timeout") }
        if let timeout = options.timeout, timeout.value < .milliseconds(1) {
            // An environment's applies to the requests that set no timeout of their own.
            let which = allowsThrottle ? "each request that sets no timeout of its own" : "the request"
            warning("'timeout' under 1ms ends every attempt before an answer can come: \(which) is an ERROR",
                    at: timeout.mark, suggestion: "give the time one attempt may take, such as 5s")
        }
        options.delay = located("delay") { $0.duration($1, for: "options.delay") }
        options.followRedirects = located("followRedirects") { $0.bool($1, for: "options.followRedirects") }
        options.maxRedirects = located("maxRedirects") { $0.int($1, for: "options.maxRedirects", in: 0...Int.max) }
        options.insecure = located("insecure") { $0.bool($1, for: "options.insecure") }
        options.maxResponseBytes = located("maxResponseBytes") { $0.int($1, for: "options.maxResponseBytes", in: 1...Int.max) }
        options.cookies = located("cookies") { $0.bool($1, for: "options.cookies") }
        options.proxy = located("proxy") { $0.proxy($1) }
        options.clientCert = fields["clientCert"].flatMap { clientCertificate($0, location: location) }
        options.caCert = fields["caCert"].flatMap { fileReference($0, for: "options.caCert", location: location) }
        if let insecure = options.insecure, insecure.value {
            warning("'insecure: true' skips TLS certificate verification", at: insecure.mark)
        }
        options.retry = fields["retry"].flatMap { retry($0, location: allowsThrottle ? nil : location, namespaces: namespaces) }
        if let throttle = fields["throttle"], let pairs = mapping(throttle, for: "options.throttle") {
            let throttleFields = self.fields(pairs, allowed: FormatKeys.throttle.names, in: "options.throttle")
            if let rate = throttleFields["perSecond"] {
                options.throttle = positiveNumber(rate, for: "options.throttle.perSecond").flatMap { perSecond in
                    // A slower rate's spacing would pass what a duration holds (1e-10 a second: three centuries).
                    guard perSecond >= ThrottleRate.slowest else {
                        error("a throttle of \(perSecond) requests a second waits more than a day between two: "
                              + "'options.throttle.perSecond' is at least 0.0000116 (one a day)", at: rate.mark,
                              suggestion: "give a rate of one request a day or more")
                        return nil
                    }
                    return ThrottleDefinition(perSecond: perSecond, mark: rate.mark)
                }
            } else {
                missing("perSecond", from: throttleFields, in: "options.throttle", at: throttle.mark)
            }
        }
        return options
    }

    /// `options.proxy`: an `http://[user:password@]host[:port]` URL (port 1 to 65535), or `none` for no proxy. A
    /// template is refused rather than sent as written: the proxy is chosen before variables are known.
    private mutating func proxy(_ node: Node) -> ProxySettings? {
        guard let text = string(node, for: "options.proxy"), !commaCutValues.contains(node.mark) else { return nil }
        if text == "none" { return .direct }
        let shown = URLCredentials.hidingPasswords(in: text, asProxyURL: true)
        if text.contains("{{") {
            error("'options.proxy' cannot use templates ({{ }}): '\(shown)'", at: node.mark,
                  suggestion: "write the proxy URL as it is, or pass it with --proxy or the HTTP_PROXY and HTTPS_PROXY environment "
                      + "variables (which keep a password out of the file)")
            return nil
        }
        switch HTTPProxy.parse(text) {
        case .success(let proxy): return ProxySettings(proxy: proxy)
        case .failure(let problem):
            error("'options.proxy' is not a proxy URL: '\(shown)': \(problem)", at: node.mark,
                  suggestion: "write http://host:port (with user:password@ before the host when it needs them), or none")
            return nil
        }
    }

    /// `options.clientCert`: `cert` and `key` files relative to the file, and an optional `password` template.
    private mutating func clientCertificate(_ node: Node, location: FileLocation) -> ClientCertificateDefinition? {
        let context = "options.clientCert"
        guard let pairs = mapping(node, for: context) else { return nil }
        let fields = fields(pairs, allowed: FormatKeys.clientCert.names, in: context)
        for key in ["cert", "key"] where fields[key] == nil { missing(key, from: fields, in: context, at: node.mark) }
        guard let certificateNode = fields["cert"], let keyNode = fields["key"],
              let certificate = fileReference(certificateNode, for: "\(context).cert", location: location),
              let key = fileReference(keyNode, for: "\(context).key", location: location)
        else { return nil }
        var password: Template?
        if let value = fields["password"] {
            guard let template = template(value, for: "\(context).password") else { return nil }
            warnIfShellReference(value, for: "\(context).password")
            password = template
        }
        return ClientCertificateDefinition(certificate: certificate, key: key, password: password, path: path, mark: node.mark)
    }

    /// `options.retry`.
    private mutating func retry(_ node: Node, location: FileLocation?, namespaces: [XPathNamespace] = []) -> RetryDefinition? {
        guard let pairs = mapping(node, for: "options.retry") else { return nil }
        let fields = fields(pairs, allowed: FormatKeys.retry.names, in: "options.retry")
        var retry = RetryDefinition(mark: node.mark)
        if let value = fields["attempts"] {
            retry.attempts = int(value, for: "options.retry.attempts", in: 1...Int.max).map { Located($0, at: value.mark) }
            retry.attemptsInvalid = retry.attempts == nil
        }
        if let value = fields["delay"], let delay = duration(value, for: "options.retry.delay") {
            retry.delay = Located(delay, at: value.mark)
        }
        if let value = fields["backoff"], let name = string(value, for: "options.retry.backoff") {
            if let backoff = RetryDefinition.Backoff(rawValue: name) {
                retry.backoff = Located(backoff, at: value.mark)
            } else {
                let kinds = RetryDefinition.Backoff.allCases.map(\.rawValue)
                error("unknown backoff '\(name)': expected constant or exponential", at: value.mark,
                      suggestion: Suggestions.didYouMean(name, among: kinds))
            }
        }
        if let attempts = retry.attempts, retry.waitsLonger(than: RetryDefinition.longestWaits) {
            warning("'attempts: \(attempts.value)' with these delays waits more than an hour in all between its tries: a request whose answer never "
                    + "comes right holds the run that long", at: attempts.mark,
                    suggestion: "give fewer attempts or a shorter delay (polling usually needs minutes), or a timeout for the whole job elsewhere")
        } else if let attempts = retry.attempts, attempts.value > RetryDefinition.mostAttempts {
            // Short waits, but each attempt may last its timeout (trial helper-179: 7,389 attempts in 5 s, on and on).
            warning("'attempts: \(attempts.value)' tries that many times: a request whose answer never comes right holds the run for as "
                    + "many attempts, each up to its timeout", at: attempts.mark,
                    suggestion: "give fewer attempts (polling usually needs tens), with a delay between them")
        }
        if let value = fields["on"] {
            retry.on = Located(scalarOrSequence(value).compactMap { retryCondition($0) }, at: value.mark)
            if case .sequence(let items) = value.content, items.isEmpty {
                warning("'on: []' retries nothing: no attempt after the first is ever made", at: value.mark,
                        suggestion: "list what to retry, such as on: [503, timeout], or write attempts: 1 to send once")
            }
        }
        if let value = fields["stopWhen"] {
            // Said of `stopWhen` as a whole: at its key (a block mapping's mark is its first key's).
            let mark = fields.keyNode("stopWhen")?.mark ?? value.mark
            if let location {
                let problemsBefore = diagnostics.diagnostics.count
                let stop = expect(value, location: location, context: "options.retry.stopWhen", keys: FormatKeys.stopWhen,
                                  namespaces: namespaces)
                retry.stopWhen = Located(stop, at: mark)
                // Only empty sections (`body: {}`) are no expectation either; a key in error is its own problem.
                if !stop.checksSomething, diagnostics.diagnostics.count == problemsBefore, value.mapping != nil {
                    error("'options.retry.stopWhen' holds no expectation: it would hold at the first try and stop polling", at: mark,
                          suggestion: "give the state that ends polling, such as body: { $.state: failed }")
                }
                if !retry.polls {
                    error("'stopWhen' ends polling, but 'options.retry.on' does not poll", at: mark,
                          suggestion: "add 'expectations' to 'on'")
                }
            } else {
                error("'stopWhen' belongs in a request's options, beside the expectations it stops polling for",
                      at: mark)
            }
        }
        return retry
    }

    /// A status code (100-599), `timeout` or `connection`.
    private mutating func retryCondition(_ node: Node) -> RetryDefinition.Condition? {
        if case .scalar(let scalar) = node.content {
            switch scalar.value {
            case .int:
                return int(node, for: "options.retry.on", in: 100...599).map { .status($0) }
            case .string(let text):
                if text == "timeout" { return .timeout }
                if text == "connection" { return .connection }
                if text == "expectations" { return .expectations }
                let quotedStatus = Int(text).map { (100...599).contains($0) } == true
                // A class or range of codes (`5xx`, `50x`, `5**`, `500-599`, `"503,504"`): each is named.
                let statusPattern = text.first.map { ("1"..."5").contains($0) } == true
                    && text.allSatisfy { $0.isASCII && ($0.isNumber || "xX*-, ".contains($0)) }
                let examples = text.first == "4" ? "[408, 429]" : "[502, 503, 504]"
                error("unknown retry condition '\(text)': expected a status code, timeout, connection or expectations", at: node.mark,
                      suggestion: quotedStatus ? "write the status code as a number, without quotes: \(text)"
                          : statusPattern ? "retry.on lists status codes one by one, not classes or ranges, such as \(examples)"
                          : Suggestions.didYouMean(text, among: ["timeout", "connection", "expectations"]))
                return nil
            default: break
            }
        }
        typeMismatch(node, expected: "a status code, timeout, connection or expectations", for: "options.retry.on")
        return nil
    }
}
