import HTTPCore
import YAML
import Foundation

/// Loads `--env NAME` from the environments directory: follows `extends`, merges, reads secrets, resolves variables.
struct EnvironmentResolver {
    /// The directory as displayed and as an absolute path.
    let directory: (path: String, absolute: String)
    let processEnvironment: [String: String]
    let commandLine: [(name: String, value: String)]
    private(set) var diagnostics = DiagnosticBag()
    private(set) var sources = SourceCache()

    init(directory: (path: String, absolute: String), processEnvironment: [String: String],
         commandLine: [(name: String, value: String)]) {
        self.directory = directory
        self.processEnvironment = processEnvironment
        self.commandLine = commandLine
    }

    /// The environment names available in the directory (hidden files aside, as for request files), sorted.
    var availableNames: [String] {
        let names = (FileSystem.visibleEntries(of: directory.absolute) ?? []).map(\.name)
        return Set(names.filter(Discovery.hasYAMLExtension).map(Discovery.withoutExtension)).sorted()
    }

    /// Resolves `name`; nil (with diagnostics) when it or its chain is broken.
    mutating func resolve(_ name: String) -> ResolvedEnvironment? {
        guard availableNames.contains(name) else {
            let available = availableNames
            let list = available.isEmpty ? "there are no environment files in '\(directory.path)'"
                : "available environments: \(available.joined(separator: ", "))"
            let suggestion = Suggestions.didYouMean(name, among: available).map { "\($0) (\(list))" } ?? list
            diagnostics.add(.error("unknown environment '\(name)'", path: nil, at: nil, suggestion: suggestion))
            return nil
        }
        guard let chain = loadChain(name) else { return nil }
        let errorsBefore = diagnostics.diagnostics.count
        let resolved = merge(chain)
        return diagnostics.diagnostics[errorsBefore...].contains { $0.severity == .error } ? nil : resolved
    }

    /// The definitions from `name` to its farthest base; nil on a missing base, a cycle or a broken file.
    private mutating func loadChain(_ name: String) -> [EnvironmentDefinition]? {
        var chain: [EnvironmentDefinition] = []
        var current = name
        while true {
            guard let definition = load(current) else { return nil }
            chain.append(definition)
            guard let extends = definition.extends else { return chain }
            let names = chain.map(\.name)
            if names.contains(extends.value) {
                let cycle = (names + [extends.value]).joined(separator: " -> ")
                diagnostics.add(.error("'extends: \(extends.value)' closes a cycle: \(cycle)", path: definition.path,
                                       at: extends.mark, suggestion: "remove 'extends' from one environment of the cycle"))
                return nil
            }
            guard availableNames.contains(extends.value) else {
                diagnostics.add(.error("environment '\(extends.value)' does not exist", path: definition.path, at: extends.mark,
                                       suggestion: Suggestions.didYouMean(extends.value, among: availableNames)
                                           ?? "available environments: \(availableNames.joined(separator: ", "))"))
                return nil
            }
            current = extends.value
        }
    }

    /// Reads and decodes one environment file.
    private mutating func load(_ name: String) -> EnvironmentDefinition? {
        let fileName = Discovery.extensions.map { name + $0 }
            .first { FileSystem.kind(of: PathText.join(directory.absolute, $0)).exists } ?? name + ".yaml"
        let display = PathText.join(directory.path, fileName)
        let absolutePath = PathText.join(directory.absolute, fileName)
        guard let document = SourceLoader.load(path: display, absolutePath: absolutePath) else {
            diagnostics.add(.error("cannot read the file", path: display, at: nil))
            return nil
        }
        let decoded = FileDecoding.environment(document, name: name, absolutePath: absolutePath)
        sources.store(decoded.text, for: display)
        diagnostics.add(contentsOf: decoded.diagnostics)
        return decoded.value
    }

    /// Applies the chain from the farthest base to the selected environment, then resolves values.
    private mutating func merge(_ chain: [EnvironmentDefinition]) -> ResolvedEnvironment {
        var baseURL: Sourced<Template>?
        var headers: [Sourced<HeaderField>] = []
        var query: [Sourced<Parameter>] = []
        var variables: [Sourced<VariableDefinition>] = []
        var secrets: [Sourced<SecretDefinition>] = []
        var auth: Sourced<Located<AuthDefinition>>?
        var options = OptionsDefinition()
        var retryPath: String?
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
        }
        let resolvedSecrets = secrets.compactMap { readSecret($0) }
        var scope = VariableScope(processEnvironment: processEnvironment)
        for secret in resolvedSecrets { scope.define(secret.name, .string(secret.value), in: .environment, secret: true) }
        for (name, value) in commandLine { scope.define(name, .string(value), in: .commandLine) }
        var resolvedVariables = JSONObject()
        for variable in variables {
            do {
                let value = try scope.resolve(variable.value.value)
                resolvedVariables[variable.value.name] = value
                if !scope.secretNames.contains(variable.value.name) {
                    scope.define(variable.value.name, value, in: .environment)
                }
            } catch {
                diagnostics.add(error.diagnostic(in: variable.path))
            }
        }
        return ResolvedEnvironment(
            name: chain[0].name, chain: chain.map(\.name), baseURL: baseURL.flatMap { resolveBaseURL($0, scope: scope) },
            headers: headers, query: query, variables: resolvedVariables, secrets: resolvedSecrets, auth: auth,
            options: options, retryPath: retryPath)
    }

    /// `base` with `overrides` applied: replaced in place by key, new keys appended.
    private static func merge<T>(_ base: [T], _ overrides: [T], key: (T) -> String) -> [T] {
        var merged = base
        for item in overrides {
            if let index = merged.firstIndex(where: { key($0) == key(item) }) { merged[index] = item } else { merged.append(item) }
        }
        return merged
    }

    /// The secret's value from the process environment, or its default when the variable is unset or empty (as CI
    /// gives forks); a located error when neither exists. A value too short to hide in free text is a warning.
    private mutating func readSecret(_ secret: Sourced<SecretDefinition>) -> ResolvedSecret? {
        let definition = secret.value
        let name = definition.env.value
        let set = processEnvironment[name].flatMap { $0.isEmpty ? nil : $0 }
        guard let value = set ?? definition.defaultValue?.value else {
            let problem = processEnvironment[name] == nil ? "is not set" : "is empty"
            diagnostics.add(.error("secret '\(definition.name)': environment variable \(name) \(problem)",
                                   path: secret.path, at: definition.env.mark,
                                   suggestion: "set \(name) in the environment, or give the secret a 'default'"))
            return nil
        }
        if !value.isEmpty, value.count < ResolvedSecret.shortestHiddenInText {
            diagnostics.add(.warning("secret '\(definition.name)' has fewer than \(ResolvedSecret.shortestHiddenInText) characters: "
                                     + "it is hidden where it is a whole value, but not inside other text",
                                     path: secret.path, at: definition.env.mark,
                                     suggestion: "use a longer secret value"))
        }
        return ResolvedSecret(name: definition.name, value: value)
    }

    /// The base URL as text; it must be an absolute http or https URL.
    private mutating func resolveBaseURL(_ url: Sourced<Template>, scope: VariableScope) -> String? {
        do {
            let text = try scope.resolveString(url.value)
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                  ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty else {
                diagnostics.add(.error("baseURL '\(text)' is not an absolute http or https URL", path: url.path,
                                       at: url.value.mark, suggestion: "write it like https://api.example.com/v1"))
                return nil
            }
            if let problem = components.portProblem {
                diagnostics.add(.error("baseURL '\(text)': \(problem)", path: url.path, at: url.value.mark,
                                       suggestion: URLComponents.portSuggestion))
                return nil
            }
            return text
        } catch {
            diagnostics.add(error.diagnostic(in: url.path))
            return nil
        }
    }
}
