import YAML

/// Warnings for values that are valid but probably mean something else than what runner does with them.
extension NodeDecoder {
    /// The keys whose value is a credential, wherever they stand (auth, client certificates).
    static let credentialKeys: Set = ["password", "token", "bearer", "clientSecret"]

    /// Whether a variable named `name` probably holds a credential (its name contains password, token or secret).
    static func namesCredential(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["password", "token", "secret"].contains { lowered.contains($0) }
    }

    /// Warns when `node`, a credential's value at `context`, is a shell reference (`$NAME` or `${NAME}`): runner sends
    /// it as written, it does not read the process environment there.
    mutating func warnIfShellReference(_ node: Node, for context: String) {
        guard case .scalar(let scalar) = node.content, let name = Self.shellReferenceName(scalar.text) else { return }
        warning("'\(context)' is '\(scalar.text)', which is sent as written: runner does not expand shell variables",
                at: node.mark,
                suggestion: "read it from the process environment with a secret, hidden in every output: 'secrets: { \(name): { env: "
                    + "\(name) } }' in the environment and \"{{ \(name) }}\" here (\"{{ $env.\(name) }}\" reads it too, but is not hidden)")
    }

    /// The name in `$NAME` or `${NAME}` (an environment variable name), or nil when `text` is anything else.
    static func shellReferenceName(_ text: String) -> String? {
        guard text.hasPrefix("$") else { return nil }
        var name = text.dropFirst()
        if name.hasPrefix("{") {
            guard name.hasSuffix("}") else { return nil }
            name = name.dropFirst().dropLast()
        }
        return isEnvironmentVariableName(String(name)) ? String(name) : nil
    }

    /// Warns when `expect.duration` (at `context`) is a bare duration, which means *equals*: a response almost never
    /// takes exactly that long, so an upper bound was probably meant.
    mutating func warnIfExactDuration(_ node: Node, for context: String) {
        guard case .scalar(let scalar) = node.content else { return }
        warning("'\(context): \(scalar.text)' expects the request to take exactly \(scalar.text)", at: node.mark,
                suggestion: "for an upper bound write 'duration: { lessThan: \(scalar.text) }'")
    }
}
