import CollectionFormat
import HTTPCore
import YAML

/// An environment file as `import postman` writes it: the collection's variables, or a Postman environment's values
/// over them.
struct PostmanEnvironmentDocument {
    /// The name `--env` selects: the file's name without `.yaml`.
    var name: String
    var extends: String?
    var baseURL: String?
    var variables: [(name: String, value: String)] = []
    /// Secrets by name, each read from a process environment variable.
    var secrets: [(name: String, env: String)] = []

    /// The file's YAML text.
    var yaml: String {
        var root: [(key: String, value: YAMLNode)] = []
        if let extends { root.append(("extends", .string(extends))) }
        if let baseURL { root.append(("baseURL", .string(baseURL))) }
        if !variables.isEmpty { root.append(("variables", .mapping(Self.ordered(variables).map { ($0.name, .string($0.value)) }))) }
        if !secrets.isEmpty {
            root.append(("secrets", .mapping(secrets.map { ($0.name, .mapping([("env", .string($0.env))])) })))
        }
        return YAMLNode.mapping(root).document
    }

    /// `variables` in an order runner reads, each after those of them its value uses (a variable may use only the ones
    /// above it; Postman's may use later ones), else in Postman's order; a cycle stays as it is, for `validate` to name.
    static func ordered(_ variables: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let names = Set(variables.map(\.name))
        var (remaining, placed, done) = (variables, [(name: String, value: String)](), Set<String>())
        while let next = remaining.firstIndex(where: { variable in
            references(in: variable.value).allSatisfy { !names.contains($0) || done.contains($0) }
        }) {
            done.insert(remaining[next].name)
            placed.append(remaining.remove(at: next))
        }
        return placed + remaining
    }

    /// The variables the templates of `value` read (none when it is no valid template: `validate` says why).
    private static func references(in value: String) -> [String] {
        let start = Mark(line: 1, column: 1)
        guard let template = try? Template.parse(value, at: start, markOfOffset: { _ in start }) else { return [] }
        return template.expressions.compactMap { if case .variable(let path) = $0.expression { path.name } else { nil } }
    }

    /// Whether the environment defines the variable `name`.
    func defines(_ name: String) -> Bool {
        variables.contains { $0.name == name } || secrets.contains { $0.name == name }
    }

    /// Adds Postman's variables (`[{key, value, type, disabled|enabled}]`): a `secret` one as a secret read from the
    /// process environment (its value is never written), a disabled one left out and listed.
    mutating func add(_ entries: [PostmanValue], notes: PostmanNotes) {
        var seen: Set<String> = []
        for entry in entries {
            guard let key = entry["key"]?.text else {
                notes.warn("an entry of 'values' is not a variable (an object with a 'key'): left out of environments/\(name).yaml",
                           at: entry)
                continue
            }
            if entry.isDisabled || entry["enabled"]?.json == .bool(false) {
                notes.warn("the variable '\(key)' is disabled in Postman: left out of environments/\(name).yaml", at: entry)
                continue
            }
            let variable = PostmanTemplate.variableName(key, at: entry, notes: notes)
            if !seen.insert(variable).inserted {
                notes.warn("the variable '\(key)' is defined again: this later value is the one written to environments/\(name).yaml",
                           at: entry)
            }
            variables.removeAll { $0.name == variable }
            secrets.removeAll { $0.name == variable }
            if entry["type"]?.text == "secret" {
                secrets.append((variable, notes.environmentVariable(for: variable, suggested: Self.environmentVariableName(key))))
            } else {
                let value = entry["value"]?.text ?? ""
                if CredentialNames.isSecretField(key), !value.isEmpty, !value.contains("{{") {
                    notes.warn("the variable '\(key)' is written into environments/\(name).yaml as it was, and its name says it holds a "
                               + "credential", at: entry,
                               suggestion: "keep it out of the file: replace it with `\(variable): { env: \(Self.environmentVariableName(key)) }` "
                                   + "under secrets (or give it the type secret in Postman and import again)",
                               hiding: [value, JSONValue.stringContents(value)])
                }
                variables.append((variable, PostmanTemplate.convert(value, at: entry, notes: notes)))
            }
        }
    }

    /// A variable name in upper snake case, as process environment variables are named: `apiKey` gives `API_KEY`, and so
    /// does `APIKey` (a capital before a lower-case letter starts a word).
    static func environmentVariableName(_ name: String) -> String {
        var result = ""
        var afterLowerOrDigit = false
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let isLetterOrDigit = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            guard isLetterOrDigit else {
                if !result.isEmpty, result.last != "_" { result += "_" }
                afterLowerOrDigit = false
                continue
            }
            let startsWord = index > 0 && scalars[index - 1].properties.isUppercase && index + 1 < scalars.count
                && scalars[index + 1].properties.isLowercase
            if scalar.properties.isUppercase, afterLowerOrDigit || startsWord, result.last != "_" { result += "_" }
            result += String(scalar).uppercased()
            afterLowerOrDigit = !scalar.properties.isUppercase
        }
        while result.hasSuffix("_") { result.removeLast() }
        return result.first.map { !$0.isNumber } == true ? result : "_" + result
    }
}
