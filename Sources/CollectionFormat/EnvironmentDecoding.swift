import YAML

extension NodeDecoder {
    static let environmentKeys = FormatKeys.environment.names

    /// Decodes one environment file (at `absolutePath`); `root` is nil for an empty file (an empty environment).
    /// `errorsOnlyInOptions`: every error found is in `options`, so what the environment resolves (`baseURL`, variables,
    /// headers, …) is whole and can be checked with them.
    mutating func environment(_ root: Node?, name: String, absolutePath: String)
        -> (definition: EnvironmentDefinition, errorsOnlyInOptions: Bool) {
        var environment = EnvironmentDefinition(name: name, path: path)
        guard let root, let pairs = root.mapping else {
            if let root { error("expected a mapping at the top level (keys like 'baseURL', 'variables'), found \(Self.describe(root))", at: root.mark) }
            return (environment, false)
        }
        let fields = fields(pairs, allowed: Self.environmentKeys, in: nil,
                            explanations: Self.optionKeys(FormatKeys.environmentOptions).filter { !Self.environmentKeys.contains($0.key) })
        if let value = fields["extends"], let base = string(value, for: "extends") {
            environment.extends = Located(base, at: value.mark)
        }
        environment.baseURL = fields["baseURL"].flatMap { template($0, for: "baseURL") }
        environment.headers = fields["headers"].map { headers($0, for: "headers") } ?? []
        environment.query = fields["query"].map { parameters($0, for: "query") } ?? []
        if let value = fields["variables"], let variablePairs = mapping(value, for: "variables") {
            for pair in variablePairs {
                guard let name = variableName(pair.key, in: "variables"), let value = templateValue(pair.value) else { continue }
                if Self.namesCredential(name) { warnIfShellReference(pair.value, for: "variables.\(name)") }
                environment.variables.append(VariableDefinition(name: name, nameMark: pair.key.mark, value: value))
            }
        }
        if let value = fields["secrets"] {
            // No problem found in `secrets` shows a value written there (`secrets: s3cret`, a list of them).
            decodingSecret = true
            if let secretPairs = mapping(value, for: "secrets") { environment.secrets = secretPairs.compactMap { secret($0) } }
            decodingSecret = false
        }
        let variableNames = Set(environment.variables.map(\.name))
        for secret in environment.secrets where variableNames.contains(secret.name) {
            error("'\(secret.name)' is both a variable and a secret of this environment", at: secret.nameMark,
                  suggestion: "a name has one value: keep it under 'secrets' to hide it, or rename one of them")
        }
        environment.auth = fields["auth"].flatMap { auth($0) }
        if let value = fields["expect"], let expectPairs = mapping(value, for: "expect") {
            let expectFields = self.fields(expectPairs, allowed: FormatKeys.environmentExpect.names, in: "expect")
            environment.openapi = expectFields["openapi"].flatMap {
                fileReference($0, for: "expect.openapi", location: FileLocation(displayPath: path, absolutePath: absolutePath))
            }
        }
        let errorsOutsideOptions = diagnostics.hasErrors
        environment.options = fields["options"].map { options($0, allowsThrottle: true, location: FileLocation(displayPath: path, absolutePath: absolutePath)) } ?? OptionsDefinition()
        return (environment, !errorsOutsideOptions)
    }

    /// A key that must be a valid variable name.
    mutating func variableName(_ key: Node, in context: String) -> String? {
        let name = Self.keyText(key)
        guard VariablePath.isValidName(name) else {
            error("invalid variable name '\(name)' in '\(context)': use letters, digits, '_' and '-', not starting with a digit",
                  at: key.mark)
            return nil
        }
        return name
    }

    /// `name: { env: NAME, default: value }`.
    private mutating func secret(_ pair: Pair) -> SecretDefinition? {
        guard let name = variableName(pair.key, in: "secrets") else { return nil }
        let context = "secrets.\(name)"
        let fromEnvironment = "read it from the process environment: `\(name): { env: \(name.uppercased()) }`"
        guard let pairs = mapping(pair.value, for: context, suggestion: pair.value.scalar == nil ? nil : fromEnvironment) else { return nil }
        let fields = fields(pairs, allowed: FormatKeys.secret.names, in: context)
        guard let envNode = fields["env"] else {
            missing("env", from: fields, in: context, at: pair.value.mark)
            return nil
        }
        guard let env = string(envNode, for: "\(context).env") else { return nil }
        guard isEnvironmentVariableName(env) else {
            error("invalid environment variable name '\(env)'", at: envNode.mark)
            return nil
        }
        let defaultValue = fields["default"].flatMap { node in
            string(node, for: "\(context).default").map { Located($0, at: node.mark) }
        }
        return SecretDefinition(name: name, nameMark: pair.key.mark, env: Located(env, at: envNode.mark),
                                defaultValue: defaultValue)
    }
}
