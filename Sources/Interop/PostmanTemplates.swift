import CollectionFormat

/// What a Postman import noticed while translating: what to list on standard error, and the variables the templates
/// use, so that the environments can define the ones runner needs.
final class PostmanNotes {
    /// Not translated, or worth a look; the files are still written.
    private(set) var warnings: [PostmanProblem] = []
    /// Each variable the templates use (runner's name), where it is first used, in order of first use.
    private(set) var uses: [(name: String, place: PostmanValue)] = []
    private var used: Set<String> = []
    /// The variables written for dynamic variables without an equivalent (`{{$randomColor}}` as
    /// `{{ postman_randomColor }}`), in order of first use.
    private(set) var placeholders: [String] = []
    private var renamed: Set<String> = []
    private var listed: Set<String> = []
    /// The values of path variables (`:id`) given by requests, written as environment variables, in order.
    private(set) var pathValues: [(name: String, value: String)] = []
    /// The collection's variables: a path variable whose value differs from one of them is written in place.
    var collectionValues: [String: String] = [:]
    /// The variables of each `--environment` file, whose values win over the collection's.
    var environmentValues: [[String: String]] = []
    /// The names of the secrets the `--environment` files define: a hint naming a new secret takes another name.
    var environmentSecrets: Set<String> = []

    /// Lists `message` at `place`, once (a folder's auth is seen by each of its requests); a quoted line shows the
    /// credentials in `hidden` (as written in the JSON text) as `***`.
    func warn(_ message: String, at place: PostmanValue, suggestion: String? = nil, hiding hidden: [String] = []) {
        var problem = place.problem(message, suggestion: suggestion)
        problem.problem.hidden = hidden
        guard listed.insert(problem.problem.message).inserted else { return }
        warnings.append(problem)
    }

    /// Records that the path variable `name` has `value`; false when another request or the collection gave it
    /// another one (the value is then written into the URL).
    func pathValue(_ name: String, _ value: String) -> Bool {
        if let known = pathValues.first(where: { $0.name == name }) ?? collectionValues[name].map({ (name, $0) }) {
            return known.value == value
        }
        pathValues.append((name, value))
        return true
    }

    /// The values the variable `name` (runner's name) has in the environments written, the collection's and each
    /// `--environment` file's; none when only a capture, a `--var` or a secret gives it.
    func knownValues(of name: String) -> [String] {
        var values: [String] = []
        for value in [collectionValues[name]] + environmentValues.map({ $0[name] }) {
            if let value, !values.contains(value) { values.append(value) }
        }
        return values
    }

    /// Records a use of the variable `name`.
    func use(_ name: String, at place: PostmanValue) {
        if used.insert(name).inserted { uses.append((name, place)) }
    }

    /// Records the placeholder variable written for an unknown dynamic variable; true the first time.
    func placeholder(_ name: String) -> Bool {
        guard !placeholders.contains(name) else { return false }
        placeholders.append(name)
        return true
    }

    /// Records that the Postman variable `name` was renamed; true the first time.
    func rename(_ name: String) -> Bool {
        renamed.insert(name).inserted
    }

    /// The Postman variable each runner name stands for, and the secret each process environment variable is read for.
    private var postmanNames: [String: String] = [:]
    private var secretsByEnvironmentVariable: [String: String] = [:]

    /// Runner's name for the Postman variable `name`, whose characters runner can write are `written`: `written`, or
    /// `written_2`, `written_3`… when that stands for another Postman variable (`api.version` beside `api_version`),
    /// so that two variables never become one.
    func runnerName(of name: String, written: String) -> String {
        Self.unique(written, for: name, in: &postmanNames)
    }

    /// The Postman variable the runner name `name` stands for, if any.
    func postmanName(of name: String) -> String? { postmanNames[name] }

    /// The process environment variable the secret `secret` (runner's name) is read from: `suggested`, or `suggested_2`…
    /// when another secret reads that one (`apiKey` and `api_key` both suggest `API_KEY`).
    func environmentVariable(for secret: String, suggested: String) -> String {
        Self.unique(suggested, for: secret, in: &secretsByEnvironmentVariable)
    }

    /// `base`, or `base_2`, `base_3`…: the first name `owners` gives to no other owner than `owner` (or to `owner`
    /// already); recorded as `owner`'s.
    private static func unique(_ base: String, for owner: String, in owners: inout [String: String]) -> String {
        if let known = owners.first(where: { $0.value == owner })?.key { return known }
        let candidate = RequestDocument.unusedName(base, separator: "_") { owners[$0] != nil }
        owners[candidate] = owner
        return candidate
    }
}

/// Postman's `{{name}}` variables as runner's `{{ name }}` templates, and its dynamic variables (`{{$guid}}`) as
/// runner's built-ins.
enum PostmanTemplate {
    /// Postman's dynamic variables that runner has, with the built-in written in their place.
    static let builtins: [String: String] = [
        "guid": "$uuid", "randomUUID": "$uuid",
        "timestamp": "$timestamp", "isoTimestamp": "$isoTimestamp",
        "randomInt": "$randomInt(0, 1000)",
        "randomEmail": "$randomEmail", "randomExampleEmail": "$randomEmail",
        "randomFullName": "$randomName",
        "randomAlphaNumeric": "$randomString(1)",
        "randomPassword": "$randomString(15)",
    ]

    /// The prefix of the variable written for a dynamic variable runner does not have.
    static let placeholderPrefix = "postman_"

    /// `text` with each `{{name}}` as `{{ name }}` (the name made a runner variable name) and each dynamic variable as
    /// its built-in, or as a placeholder variable (listed) when runner has none.
    static func convert(_ text: String, at place: PostmanValue, notes: PostmanNotes) -> String {
        var converted = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            converted += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                notes.warn("'{{' without a closing '}}' is the start of a template to runner: the value will not validate",
                           at: place, suggestion: "remove the braces, or close the template")
                converted += rest[open.lowerBound...]
                return converted
            }
            let inner = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            converted += "{{ " + expression(inner, at: place, notes: notes) + " }}"
            rest = rest[close.upperBound...]
        }
        return converted + rest
    }

    /// What runner writes inside the braces for Postman's `inner`.
    private static func expression(_ inner: String, at place: PostmanValue, notes: PostmanNotes) -> String {
        guard inner.hasPrefix("$") else {
            let name = variableName(inner, at: place, notes: notes)
            notes.use(name, at: place)
            return name
        }
        let dynamic = String(inner.dropFirst())
        if let builtin = builtins[dynamic] { return builtin }
        let name = placeholderPrefix + sanitized(dynamic)
        if notes.placeholder(name) {
            notes.warn("Postman's dynamic variable {{\(inner)}} has no runner equivalent: written as {{ \(name) }}, "
                       + "defined in environments/postman.yaml as an empty string", at: place,
                       suggestion: "give it a value there or with --var \(name)=..., or use one of runner's built-ins "
                       + "($uuid, $timestamp, $isoTimestamp, $randomInt(MIN, MAX), $randomString(N), $randomEmail, $randomName)")
        }
        notes.use(name, at: place)
        return name
    }

    /// Postman's variable `name` as a runner variable name (letters, digits, `_` and `-`, not starting with a digit or
    /// `-`): every other character becomes `_`, listed the first time.
    static func variableName(_ name: String, at place: PostmanValue, notes: PostmanNotes) -> String {
        let written = sanitized(name)
        let runnerName = notes.runnerName(of: name, written: written)
        if runnerName != name, notes.rename(name) {
            let reason = runnerName == written ? "runner's variable names are letters, digits, '_' and '-'"
                : "'\(written)' stands for the variable '\(notes.postmanName(of: written) ?? written)'"
            notes.warn("the variable '\(name)' is written as '\(runnerName)': \(reason)", at: place)
        }
        return runnerName
    }

    /// `name` with each character a variable name cannot hold as `_`, and `_` before a leading digit or `-`.
    static func sanitized(_ name: String) -> String {
        var result = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar.isASCII ? (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" ? scalar : "_")
                : (scalar.properties.isAlphabetic ? scalar : "_")
        }))
        if result.isEmpty || !VariablePath.isValidName(result) { result = "_" + result }
        return result
    }
}
