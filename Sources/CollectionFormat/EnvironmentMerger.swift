import Foundation
import HTTPCore

/// Merges an environment's `extends` chain and resolves it: secrets from the process environment, `--var`s, variables
/// and the base URL.
package struct EnvironmentMerger {
    let processEnvironment: ProcessEnvironment
    let commandLine: [(name: String, value: String)]
    /// The random values of the run, for random built-ins in variables.
    let random: RandomValues
    /// The problems found merging, in the order found.
    package private(set) var diagnostics = DiagnosticBag()

    /// A merger reading secrets from `processEnvironment`, with the `--var`s `commandLine`.
    package init(processEnvironment: ProcessEnvironment, commandLine: [(name: String, value: String)], random: RandomValues) {
        self.processEnvironment = processEnvironment
        self.commandLine = commandLine
        self.random = random
    }

    /// Applies the chain from the farthest base to the selected environment, then resolves values.
    package mutating func merge(_ chain: [EnvironmentDefinition]) -> ResolvedEnvironment {
        var baseURL: Sourced<Template>?
        var headers: [Sourced<HeaderField>] = []
        var query: [Sourced<Parameter>] = []
        var variables: [Sourced<VariableDefinition>] = []
        var secrets: [Sourced<SecretDefinition>] = []
        var auth: Sourced<Located<AuthDefinition>>?
        var options = OptionsDefinition()
        var retryPath: String?
        var retryOnPath: String?
        var timeoutPath: String?
        var proxyPath: String?
        var openapi: Sourced<FileReference>?
        for definition in chain.reversed() {
            let path = definition.path
            if let url = definition.baseURL { baseURL = Sourced(url, path: path) }
            headers = Self.merge(headers, definition.headers.map { Sourced($0, path: path) }) { $0.value.name.lowercased() }
            query = Self.merge(query, definition.query.map { Sourced($0, path: path) }) { $0.value.name }
            variables = Self.merge(variables, definition.variables.map { Sourced($0, path: path) }) { $0.value.name }
            secrets = Self.merge(secrets, definition.secrets.map { Sourced($0, path: path) }) { $0.value.name }
            if let value = definition.auth { auth = Sourced(value, path: path) }
            options = definition.options.merged(over: options)
            if definition.options.retry != nil { retryPath = path }
            if definition.options.retry?.on != nil { retryOnPath = path }
            if definition.options.timeout != nil { timeoutPath = path }
            if definition.options.proxy != nil { proxyPath = path }
            if let reference = definition.openapi { openapi = Sourced(reference, path: path) }
        }
        warnOfMergedRetryWaits(options.retry, chain: chain, at: retryPath)
        reportVariablesUnderSecrets(variables, secrets, chain: chain)
        let resolvedSecrets = secrets.compactMap { readSecret($0) }
        var unresolved = Set(secrets.map(\.value.name)).subtracting(resolvedSecrets.map(\.name))
        var scope = VariableScope(processEnvironment: processEnvironment,
                                  builtins: BuiltinValues(now: { Date() }, random: random.stream("environment")))
        for secret in resolvedSecrets { scope.define(secret.name, .string(secret.value), in: .environment, secret: true) }
        for (name, value) in commandLine { scope.define(name, .string(value), in: .commandLine) }
        var resolvedVariables = JSONObject()
        for (index, variable) in variables.enumerated() {
            do {
                let value = try scope.resolve(variable.value.value)
                resolvedVariables[variable.value.name] = value
                warnOfPlaceholder(value, variable)
                if !scope.secretNames.contains(variable.value.name) {
                    scope.define(variable.value.name, value, in: .environment)
                }
            } catch {
                if !Self.uses(only: unresolved, error) {
                    diagnostics.add(Self.definedBelow(error, of: variable.value.name, after: variables[(index + 1)...], among: variables,
                                                      in: variable.path).diagnostic(in: variable.path))
                }
                unresolved.insert(variable.value.name)
            }
        }
        var resolved = ResolvedEnvironment(
            name: chain[0].name, chain: chain.map(\.name), baseURL: baseURL.flatMap { resolveBaseURL($0, scope: scope, unresolved: unresolved) },
            headers: headers, query: query, variables: resolvedVariables, secrets: resolvedSecrets, auth: auth,
            options: options, retryPath: retryPath)
        resolved.openapi = openapi
        resolved.retryOnPath = retryOnPath
        resolved.timeoutPath = timeoutPath
        resolved.proxyPath = proxyPath
        resolved.baseURLSource = baseURL.map { Sourced($0.value.mark, path: $0.path) }
        resolved.unresolvedNames = unresolved
        resolved.baseURLUnresolved = baseURL != nil && resolved.baseURL == nil
        return resolved
    }

    /// Whether every problem of `error` is a variable of `unresolved` (an unset secret, a variable that did not
    /// resolve), reported already where it is defined.
    private static func uses(only unresolved: Set<String>, _ error: TemplateError) -> Bool {
        ([error] + error.following).allSatisfy { $0.undefinedName.map(unresolved.contains) == true }
    }

    /// `error` (of variable `variable`'s value, in `path`) saying so when the variable it finds undefined is one of
    /// `later`, defined below it: a variable may use only those above it, and the variables of the environment
    /// (`all`) may not use each other (in a cycle) or themselves.
    private static func definedBelow(_ error: TemplateError, of variable: String, after later: ArraySlice<Sourced<VariableDefinition>>,
                                     among all: [Sourced<VariableDefinition>], in path: String) -> TemplateError {
        guard let name = error.undefinedName else { return error }
        var error = error
        if name == variable {
            error.suggestion = "a variable cannot use itself: write its value, or use variables defined above it"
            return error
        }
        guard let below = later.first(where: { $0.value.name == name }) else {
            // No capture can give it: the variables are resolved when the environment loads, before any request.
            if error.closeName == nil {
                error.suggestion = "define it above in 'variables', or pass --var \(name)=VALUE: an environment's variables are "
                    + "resolved when it loads, before any request captures; its headers and auth, resolved for each request, may use a capture"
            }
            return error
        }
        let line = below.value.nameMark.line
        guard below.path == path else {
            // In an environment that extends this one, whose variables come after: a value here, above it, is replaced by
            // that file's, which then reaches this template too.
            error.suggestion = "'\(name)' is defined in \(below.path):\(line), which extends this file: a base's variables come before "
                + "the extending file's; give '\(name)' a value here, above it, which \(below.path) then replaces"
            return error
        }
        let place = "line \(line)"
        let cycle: String
        switch chain(from: name, to: variable, among: all) {
        case nil: cycle = "move '\(name)' up"
        case let names? where names.count == 2: cycle = "'\(name)' uses '\(variable)' too (a cycle): write one of them without the other"
        case let names?:
            let through = names.dropFirst().dropLast().map { "'\($0)'" }.joined(separator: ", ")
            cycle = "'\(name)' uses '\(variable)' through \(through) (a cycle: \(([variable] + names).joined(separator: " → "))): "
                + "write one of them without the others"
        }
        error.suggestion = "'\(name)' is defined below it (\(place)): a variable may use only the variables above it; " + cycle
        return error
    }

    /// The variables of `all` by which `start` uses `variable` (`start` first, `variable` last), the fewest there are;
    /// nil when it does not.
    private static func chain(from start: String, to variable: String, among all: [Sourced<VariableDefinition>]) -> [String]? {
        var cameFrom: [String: String] = [:]
        var pending = [start]
        var next = 0
        while next < pending.count {
            let name = pending[next]
            next += 1
            guard let definition = all.last(where: { $0.value.name == name }) else { continue }
            for template in definition.value.value.templates {
                for case (.variable(let used), _) in template.expressions where used.name != start && cameFrom[used.name] == nil {
                    cameFrom[used.name] = name
                    guard used.name == variable else {
                        pending.append(used.name)
                        continue
                    }
                    var names = [variable]
                    while let previous = cameFrom[names[0]] { names.insert(previous, at: 0) }
                    return names
                }
            }
        }
        return nil
    }

    /// `base` with `overrides` applied: replaced in place by key, new keys appended.
    private static func merge<T>(_ base: [T], _ overrides: [T], key: (T) -> String) -> [T] {
        var merged = base
        // Where each key stands, so that thousands of headers or variables merge in one pass.
        var positions = Dictionary(merged.enumerated().map { (key($1), $0) }) { first, _ in first }
        for item in overrides {
            let name = key(item)
            if let index = positions[name] {
                merged[index] = item
            } else {
                positions[name] = merged.count
                merged.append(item)
            }
        }
        return merged
    }

    /// A variable of a later file of the chain named as a secret of an earlier one is an error: the secret would keep its
    /// value. (A secret that redefines a base's variable takes its place; both in one file is the decoder's error.)
    private mutating func reportVariablesUnderSecrets(_ variables: [Sourced<VariableDefinition>], _ secrets: [Sourced<SecretDefinition>],
                                                     chain: [EnvironmentDefinition]) {
        let depth = Dictionary(chain.enumerated().map { ($1.path, $0) }) { first, _ in first }
        let secretsByName = Dictionary(secrets.map { ($0.value.name, $0) }) { first, _ in first }
        for variable in variables {
            guard let secret = secretsByName[variable.value.name],
                  let variableDepth = depth[variable.path], let secretDepth = depth[secret.path], variableDepth < secretDepth
            else { continue }
            diagnostics.add(.error("variable '\(variable.value.name)' would not replace the secret of that name in \(secret.path)",
                                   path: variable.path, at: variable.value.nameMark,
                                   suggestion: "redefine it under 'secrets' (its 'default' gives the value), or rename the variable"))
        }
    }

    /// Warns of a variable that still holds the value `runner import` wrote for the user to replace, unless a `--var` sets it.
    private mutating func warnOfPlaceholder(_ value: JSONValue, _ variable: Sourced<VariableDefinition>) {
        let name = variable.value.name
        guard value == .string(VariableDefinition.importPlaceholder), !commandLine.contains(where: { $0.name == name }) else { return }
        diagnostics.add(.warning("variable '\(name)' is \(VariableDefinition.importPlaceholder), the value runner import writes where the "
                                 + "document gives no example: requests send it as written", path: variable.path, at: variable.value.value.mark,
                                 suggestion: "set it here, or with --var \(name)=VALUE"))
    }

    /// The secret's value from the process environment, or its default when the variable is unset or empty (as CI
    /// gives forks), or else a `--var` of its name; a located error when none exists. A value too short to hide in free
    /// text is a warning.
    private mutating func readSecret(_ secret: Sourced<SecretDefinition>) -> ResolvedSecret? {
        let definition = secret.value
        let name = definition.env.value
        if processEnvironment.notUTF8.contains(name) {
            // Not the default either: the variable is set, to a value that cannot be sent as it is.
            diagnostics.add(.error("secret '\(definition.name)': environment variable \(name) " + ProcessEnvironment.notUTF8Problem,
                                   path: secret.path, at: definition.env.mark, suggestion: "set \(name) to UTF-8 text"))
            return nil
        }
        let set = processEnvironment[name].flatMap { $0.isEmpty ? nil : $0 }
        // A `--var` of the secret's name stands in for it (it would replace the value), and is hidden as the secret.
        let given = commandLine.last { $0.name == definition.name }?.value
        guard let value = set ?? definition.defaultValue?.value ?? given.flatMap({ $0.isEmpty ? nil : $0 }) else {
            let problem = processEnvironment[name] == nil ? "is not set"
                : "is empty" + (processEnvironment.origins[name].map { " (as \($0) sets it)" } ?? "")
            // A name one typo from a variable that is set (`API_TOKN` beside `API_TOKEN`) is likely that one.
            let setNames = processEnvironment.variables.filter { !$0.value.isEmpty }.keys.sorted()
            let typo = processEnvironment[name] == nil ? Suggestions.closest(to: name, among: setNames) : nil
            diagnostics.add(.error("secret '\(definition.name)': environment variable \(name) \(problem)",
                                   path: secret.path, at: definition.env.mark,
                                   suggestion: typo.map { "did you mean '\($0)', which is set?" } ?? (given == nil
                                       ? "set \(name) in the " + (processEnvironment.origins[name] == nil ? "environment" : "--env-file or the environment")
                                           + ", give the secret a 'default', or pass --var \(definition.name)=VALUE"
                                       : "the --var \(definition.name) given is empty: give its value, or set \(name) in the environment")))
            return nil
        }
        if let given {
            warnOfBlankReplacement(given, of: secret, replacing: set != nil || definition.defaultValue != nil)
        } else {
            warnOfShortValue(value, of: secret)
        }
        return ResolvedSecret(name: definition.name, value: value)
    }

    /// Warns of a retry merged field by field across the chain (`attempts` in a base, `delay` in the file extending it)
    /// whose waits add up to more than an hour, when no file's own retry says so (each is checked where it is read): at
    /// the nearest file's `retry`.
    private mutating func warnOfMergedRetryWaits(_ merged: RetryDefinition?, chain: [EnvironmentDefinition], at path: String?) {
        guard chain.count > 1, let merged, let path, merged.waitsLonger(than: RetryDefinition.longestWaits) else { return }
        let own = chain.compactMap(\.options.retry)
        guard own.count > 1, !own.contains(where: { $0.attempts != nil && $0.waitsLonger(than: RetryDefinition.longestWaits) }) else { return }
        diagnostics.add(.warning("this retry, merged with the one of the environment it extends, waits more than an hour in all between "
                                 + "its tries: a request whose answer never comes right holds the run that long", path: path, at: merged.mark,
                                 suggestion: "give fewer attempts or a shorter delay"))
    }

    /// Warns of a secret's value too short to hide in free text, or only white space (not hidden at all).
    private mutating func warnOfShortValue(_ value: String, of secret: Sourced<SecretDefinition>) {
        let hiding = ResolvedSecret.hiding(value)
        guard !value.isEmpty, hiding != .inText else { return }
        // One of punctuation alone (`"`) is hidden wherever that punctuation stands apart: most of a JSON body.
        let punctuation = value.contains { !$0.isWhitespace } && !value.contains { $0.isLetter || $0.isNumber }
        let warning = hiding == .none ? "is only white space: it is not hidden"
            : "has fewer than \(ResolvedSecret.shortestHiddenInText) characters: it is hidden only where it stands whole, not inside other text"
                + (punctuation ? "; with no letter or digit, it hides that punctuation nearly everywhere it stands" : "")
        diagnostics.add(.warning("secret '\(secret.value.name)' \(warning)", path: secret.path, at: secret.value.env.mark,
                                 suggestion: hiding == .none ? "set \(secret.value.env.value) to the secret's value" : "use longer secret values"))
    }

    /// Warns of a `--var` of a secret's name that is empty or only white space: it replaces the secret's value (one
    /// the environment or a default gives, when `replacing`) with what is sent as written and cannot be hidden, most
    /// often a shell variable that was not set (`--var token=$TOKEN`). Its length otherwise is not the environment's
    /// concern.
    private mutating func warnOfBlankReplacement(_ given: String, of secret: Sourced<SecretDefinition>, replacing: Bool) {
        guard given.allSatisfy(\.isWhitespace) else { return }
        let name = secret.value.name
        let what = given.isEmpty ? "is empty" : "is only white space"
        // Where a value is required (a bearer token) the request is refused when it runs; elsewhere it is sent as it is.
        let effect = replacing ? "it replaces the secret's value where it is used (a request that needs a value there is refused)"
            : "it is sent as written, and not hidden"
        diagnostics.add(.warning("--var \(name) \(what): \(effect)", path: secret.path, at: secret.value.env.mark,
                                 suggestion: replacing ? "leave out --var \(name) to send the secret's value, or give the value"
                                     : "give the value, or set \(secret.value.env.value) in the environment"))
    }

    /// The base URL as text; it must be an absolute http or https URL. One using a variable in `unresolved` (reported
    /// already) is not resolved, and says nothing more.
    private mutating func resolveBaseURL(_ url: Sourced<Template>, scope: VariableScope, unresolved: Set<String>) -> String? {
        do {
            let text = try scope.resolveURL(url.value)
            if text.contains("null"), let null = scope.firstNullVariable(in: url.value) {
                diagnostics.add(.nullSentAsText(null.source, in: "a URL", at: null.mark, path: url.path))
                return nil
            }
            var shown: String { URLCredentials.hidingPasswords(in: scope.shown(text, resolving: url.value), asOneURL: true) }
            if let problem = URLCredentials.misplacedDelimiterProblem(inURL: text) {
                diagnostics.add(.error("baseURL '\(shown)': \(problem)", path: url.path, at: url.value.mark))
                return nil
            }
            guard ServerEnvironment(baseURL: text) != nil, let components = PercentEncoding.components(ofURL: text) else {
                if let problem = URLComponents.writtenPortProblem(inURL: text, quoting: !scope.insertsSecret(url.value, into: text)) {
                    diagnostics.add(.error("baseURL '\(shown)': \(problem)", path: url.path, at: url.value.mark,
                                           suggestion: URLComponents.portSuggestion))
                    return nil
                }
                diagnostics.add(.error("baseURL '\(shown)' is not an absolute http or https URL", path: url.path,
                                       at: url.value.mark, suggestion: "write it like https://api.example.com/v1"))
                return nil
            }
            if let problem = scope.requestURLProblem(of: components, resolving: url.value, into: text) {
                diagnostics.add(.error("baseURL '\(shown)': \(problem)", path: url.path, at: url.value.mark,
                                       suggestion: components.requestURLSuggestion(for: problem)))
                return nil
            }
            return text
        } catch {
            if !Self.uses(only: unresolved, error) { diagnostics.add(error.diagnostic(in: url.path)) }
            return nil
        }
    }
}
