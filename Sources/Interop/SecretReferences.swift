/// The secrets `import curl --secrets` writes credentials as: each value once, as `{{ name }}`, under a name no other
/// value has, read from a process environment variable named after it (`token` from `API_TOKEN`, another token `token2`
/// from `API_TOKEN_2`). The values themselves are written nowhere.
public struct SecretReferences: Sendable {
    /// A secret the environment must give: `name: { env: variable }`.
    public struct Secret: Sendable, Equatable {
        public var name: String
        public var variable: String
        /// The credential it stands for, to give one value one name; never printed.
        fileprivate var value: String
    }

    public private(set) var secrets: [Secret] = []
    /// The credentials written as references, in every form a quoted line may show them: hidden in every message.
    public private(set) var hidden: [String] = []

    public init() {}

    /// `{{ name }}` for `value`: the name it already has, or `suggested.name` (numbered when another value has it) read
    /// from `suggested.variable`; `forms` are the ways the input writes the value, hidden in messages. An empty value (a
    /// secret cannot be empty) and the command's own template (`{{ k }}`) stay as they are.
    mutating func reference(to value: String, suggested: (name: String, variable: String), forms: [String]) -> String {
        guard !value.isEmpty, !value.contains("{{") else { return value }
        hidden += forms + [value]
        if let known = secrets.first(where: { $0.value == value }) { return "{{ \(known.name) }}" }
        let name = RequestDocument.unusedName(suggested.name, separator: "") { name in secrets.contains { $0.name == name } }
        // Another name may read the same variable (`token` and `_token` both `API_TOKEN`): each value its own.
        let variable = RequestDocument.unusedName(suggested.variable, separator: "_") { variable in secrets.contains { $0.variable == variable } }
        secrets.append(Secret(name: name, variable: variable, value: value))
        return "{{ \(name) }}"
    }

    /// Hides `forms` in every message: a credential left out of the files.
    mutating func hide(_ forms: [String]) {
        hidden += forms
    }

    /// The `secrets:` mapping of an environment file that gives every reference, one line each.
    public var environmentEntries: String {
        "secrets:\n" + secrets.map { "  \($0.name): { env: \($0.variable) }\n" }.joined()
    }
}
