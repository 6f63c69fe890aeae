import CollectionFormat
import Foundation
import HTTPCore
import Interop
import Reporting
import Running

/// `runner export curl PATH... [--env NAME]`: every selected request as a curl command, in run order, with the
/// environment applied; secrets, captures and `$env.NAME` values as `"$NAME"` references, never their values.
public struct ExportCurl: Sendable {
    public var collection: CollectionSelection

    public init(collection: CollectionSelection) {
        self.collection = collection
    }

    /// Prints a command per request (a step of a flow, a row of an `each:` file), or the problems that stop it.
    public func execute() async -> ExitStatus {
        let loaded = await collection.load(forSending: true)
        if let status = DiagnosticsOutput.report(loaded, color: .auto, outcome: "nothing was printed") { return status }
        guard collection.selectedRequests(in: loaded) != nil else { return .badCommandLine }
        var references = References()
        var scope = references.hide(loaded: loaded, commandLine: collection.variables)
        var exporter = CurlExport(placeholders: references.placeholders, displayPath: Self.displayPath)
        let builder: RequestBuilder
        do throws(RunFailure) {
            builder = RequestBuilder(environment: try references.hidingSecrets(inBaseURLOf: references.environment))
        } catch {
            Console.error(DiagnosticRenderer.render([error.diagnostic], sources: loaded.sources, color: false))
            return .invalidCollection
        }
        var commands: [String] = []
        // The variables the commands read.
        var used: Set<String> = []
        var problems: [Diagnostic] = []
        // The last guard: a secret's value in a form no reference was written for is never printed.
        // What a command must not show: a secret too short to hide inside other text is not looked for, since the file's own
        // numbers and words may equal it (`page: 2`); its uses are written as references all the same.
        let secrets = Redactor(secrets: loaded.scope.secretValues.filter { ResolvedSecret.hiding($0) == .inText })
        for file in loaded.files {
            for run in Self.runs(of: file, in: scope, references: &references) {
                do throws(RunFailure) {
                    var (rowScope, label) = try run.get()
                    for step in file.steps {
                        let stepScope = try rowScope.defining(step.inputs, in: step.path)
                        let base = file.isFlow ? "\(label) › \(step.name)" : label
                        if collection.filter.selects(step, of: file) {
                            try references.checkHeaders(step.request.headers.map { ($0, step.path) }
                                + (loaded.environment?.headers ?? []).map { ($0.value, $0.path) })
                            for (iterationScope, number) in Self.iterations(of: step, in: stepScope, references: &references) {
                                let name = number.map { "\(base) [\($0)]" } ?? base
                                // A `when:` known not to hold: the run skips the step, whose variables may be undefined.
                                if let unmet = try Self.unmetCondition(file.conditions + step.conditions, in: iterationScope,
                                                                       path: step.path, references: references),
                                   !secrets.holdsSecret(unmet) {
                                    commands.append(references.comments(name: name, path: step.path, variables: [])
                                        + ShellText.comment("not written: skipped when the collection runs (\(unmet))"))
                                    continue
                                }
                                let exported = try export(step, builder: builder, scope: iterationScope, references: references,
                                                          processEnvironment: loaded.scope.processEnvironment)
                                // The placeholders of captures and loops defined since are known to it too.
                                exporter.placeholders = references.placeholders
                                let command = exporter.command(for: exported)
                                let skip = (file.skip ?? step.skip).map {
                                    ShellText.comment("skipped when the collection runs" + ($0.reason.map { ": \($0)" } ?? "")) + "\n"
                                }
                                let text = { (path: String) in
                                    references.comments(name: name, path: path, variables: command.variables) + (skip ?? "") + command.text
                                }
                                // The file's path is the collection's own name (a short secret's value may equal a folder's).
                                guard !secrets.holdsSecret(text("")) else {
                                    throw RunFailure(.error("the command for '\(name)' would show a secret's value: it is used where runner "
                                                            + "cannot write a reference to its variable", path: step.path, at: step.mark,
                                                            suggestion: "use the secret in a header, a query value or a body string of its own"))
                                }
                                commands.append(text(step.path))
                                used.formUnion(command.variables)
                            }
                        }
                        references.capture(step.captures.map(\.name), in: &rowScope)
                    }
                } catch {
                    problems.append(error.diagnostic)
                }
            }
            references.capture(file.steps.flatMap { $0.captures.map(\.name) }, in: &scope)
        }
        // A script with commands missing would look whole: nothing is printed when a request cannot be exported.
        guard problems.isEmpty else {
            Console.error(DiagnosticRenderer.render(problems, sources: loaded.sources, color: false))
            return .invalidCollection
        }
        // The defaults of the secrets some command reads.
        let lines = references.defaults.filter { used.contains($0.variable) }.map(\.line)
        let defaults = lines.isEmpty ? [] : [lines.joined(separator: "\n")]
        Console.out((defaults + commands).joined(separator: "\n\n"))
        return .success
    }

    /// The request of `step` built as `run` builds it, with what curl writes differently: a `file:` body by its path,
    /// and the timeout and redirect limit only when written.
    private func export(_ step: RequestDefinition, builder: RequestBuilder, scope: VariableScope,
                        references: References, processEnvironment: ProcessEnvironment) throws(RunFailure) -> ExportedRequest {
        let request: HTTPRequest
        do {
            request = try builder.build(step, path: step.path, scope: scope)
        } catch {
            // A reference where none can stand in a URL (its host, its port, all of it): a process variable's value is
            // written there, as `run` sends it; a secret's cannot be, which the error says.
            var withValues = scope
            withValues.processEnvironment = processEnvironment
            do {
                request = try builder.build(step, path: step.path, scope: withValues)
            } catch {
                let secrets = step.request.url.expressions.compactMap { expression, _ in
                    if case .variable(let path) = expression, scope.secretNames.contains(path.name) { path.name } else { nil }
                }
                if let secret = secrets.first {
                    throw RunFailure(.error("the URL takes a part from the secret '\(secret)' where a command cannot write a reference "
                                            + "(its host or port)", path: step.path, at: step.request.url.mark,
                                            suggestion: "write the host and port in the file or the environment's baseURL"))
                }
                var diagnostic = error.diagnostic
                diagnostic.message = references.placeholders.shellText(diagnostic.message).displayed
                throw RunFailure(diagnostic)
            }
        }
        let written = builder.writtenOptions(of: step)
        var bodyFile: String?
        if case .file(let reference)? = step.request.body?.value { bodyFile = Self.displayPath(reference.absolutePath) }
        let inlineQuery = (try? scope.resolveString(step.request.url)).map(Self.queryItemCount) ?? 0
        return ExportedRequest(request: request, bodyFile: bodyFile, timeout: written.timeout?.value,
                               writesMaxRedirects: written.maxRedirects != nil,
                               appendedQueryItems: Self.queryItemCount(request.displayURL) - inlineQuery)
    }

    /// Why the run skips a step for `conditions` (its file's and its own `when:`) in `scope`, when that is known before the
    /// run; nil when they hold, or when what one compares is known only when the collection runs (a capture, a secret,
    /// `$env.NAME`: its reference stands there, and the command is written).
    private static func unmetCondition(_ conditions: [Condition], in scope: VariableScope, path: String,
                                       references: References) throws(RunFailure) -> String? {
        var readsProcessEnvironment = false
        conditions.forEachTemplate { template in
            for case (.builtin(.env), _) in template.expressions { readsProcessEnvironment = true }
        }
        guard !conditions.isEmpty, !readsProcessEnvironment, let unmet = try CollectionRun.unmetCondition(conditions, in: scope, path: path),
              !references.placeholders.marks(unmet) else { return nil }
        return unmet
    }

    /// How many query items a URL's text has (as runner parses it, encoded when it does not parse as written).
    private static func queryItemCount(_ url: String) -> Int {
        let components = PercentEncoding.components(ofURL: url)
        return components?.percentEncodedQueryItems?.count ?? 0
    }

    /// The runs of a file an export writes, each with its scope and name: one per row of `each:` rows, one per element
    /// of an `each:` list known before the collection runs (an environment's), named as `run` names them; else one, an
    /// `each:` list's element (known only when the collection runs, a capture's) as references.
    private static func runs(of file: RequestFile, in scope: VariableScope,
                             references: inout References) -> [Result<(VariableScope, String), RunFailure>] {
        if let rows = file.rows {
            return rows.rows.indices.map { row in
                Result { () throws(RunFailure) in
                    let rowScope = try EachList.scope(scope, withRow: row, of: rows, in: rows.valuesPath(in: file.path))
                    return (rowScope, (try? file.rowLabel(row, in: rowScope)) ?? file.defaultRowLabel(row))
                }
            }
        }
        guard let template = file.rowsTemplate else { return [.success((scope, file.name))] }
        if case .success(let elements) = EachList.elements(of: template, in: scope, path: file.path) {
            return elements.enumerated().map { row, element in
                var rowScope = scope
                rowScope.defineElement(element, number: row + 1, in: .row)
                return .success((rowScope, (try? file.rowLabel(row, in: rowScope)) ?? file.defaultRowLabel(row)))
            }
        }
        var loopScope = scope
        references.loop(over: template, using: Self.templates(of: file.steps), in: &loopScope)
        let label = file.nameTemplate == nil ? file.name : (try? file.rowLabel(0, in: loopScope)) ?? file.name
        return [.success((loopScope, label))]
    }

    /// The scopes a step is sent in: one per element of its `each:` list when the list is known before the collection
    /// runs, with the element's number; one (without a number) when the step has no `each:`, or its list is known only
    /// when the collection runs (the element as references).
    private static func iterations(of step: RequestDefinition, in scope: VariableScope,
                                   references: inout References) -> [(scope: VariableScope, number: Int?)] {
        guard let loop = step.loop else { return [(scope, nil)] }
        if case .success(let elements) = EachList.elements(of: loop, in: scope, path: step.path) {
            return elements.enumerated().map { position, element in
                var elementScope = scope
                elementScope.defineElement(element, number: position + 1, in: .input)
                return (elementScope, position + 1)
            }
        }
        var loopScope = scope
        references.loop(over: loop, using: Self.templates(of: [step]), in: &loopScope)
        return [(loopScope, nil)]
    }

    /// Every template of `steps`: their requests' and their control (`each:`, `when:`) templates.
    private static func templates(of steps: [RequestDefinition]) -> [Template] {
        var templates: [Template] = []
        for step in steps {
            step.forEachTemplate { templates.append($0) }
            step.forEachControlTemplate { templates.append($0) }
        }
        return templates
    }

    /// A file's path relative to the current directory when it is under it, else absolute.
    @Sendable private static func displayPath(_ absolute: String) -> String {
        let directory = FileManager.default.currentDirectoryPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}

/// The values an export writes as `"$NAME"` references, and why each is one.
private struct References {
    var placeholders = ValuePlaceholders()
    /// What each referenced variable stands for, by its shell name.
    private var meanings: [String: String] = [:]
    /// The secrets whose values hold CR, LF or NUL, which no header may hold.
    private var unsendableSecrets: Set<String> = []
    /// The lines giving secrets their defaults when their variables are unset or empty, as `run` does, with the variable
    /// each sets.
    private(set) var defaults: [(variable: String, line: String)] = []
    /// The paths the collection's templates read into each variable (`graceIds[0]`), for captured values.
    private var usedPaths: [String: [[VariablePath.Component]]] = [:]

    /// The collection's starting scope with every secret and process environment variable as a placeholder; a secret's
    /// value is also hidden where a variable that used it holds it, and so is a process environment variable's.
    mutating func hide(loaded: LoadedCollection, commandLine: [(name: String, value: String)]) -> VariableScope {
        var scope = loaded.scope
        let use = { (template: Template, paths: inout [String: [[VariablePath.Component]]]) in
            for case (.variable(let path), _) in template.expressions { paths[path.name, default: []].append(path.components) }
        }
        for file in loaded.files {
            file.forEachControlTemplate { use($0, &usedPaths) }
            for step in file.steps {
                step.forEachTemplate { use($0, &usedPaths) }
                step.forEachControlTemplate { use($0, &usedPaths) }
            }
        }
        let definitions = loaded.environment.map { SecretVariables.definitions(in: $0, sources: loaded.sources) } ?? [:]
        // The default each variable read so far is given, by the first secret reading it (nil: none); the secrets each
        // variable stands for.
        var readDefaults: [String: String?] = [:]
        var secretsOf: [String: [String]] = [:]
        let secrets = loaded.environment?.secrets ?? []
        let readBy = Dictionary(grouping: secrets) { ShellText.variableName(definitions[$0.name]?.env.value ?? $0.name) }
        for secret in secrets {
            let read = ShellText.variableName(definitions[secret.name]?.env.value ?? secret.name)
            let fallback = definitions[secret.name]?.defaultValue?.value
            // A `--var` that replaces the secret is the secret: its reference too, its value hidden.
            let given = scope.value(of: secret.name)?.interpolatedText
            // The commands read the variable: one `--var` replaced is not what they send unless it holds that value.
            let replaced = given.map { $0 != secret.value } ?? false
            // A second secret reading the variable with another default (`run` gives each its own), or one a `--var`
            // replaced beside another reading it, gets a variable of its own, set from the one read before any default is
            // given to that one.
            var variable = read
            let otherDefault = readDefaults[read].map { $0 != fallback } ?? false
            if otherDefault || replaced && (readBy[read]?.count ?? 0) > 1 {
                var suffix = 2
                while readDefaults[read + "_\(suffix)"] != nil || placeholders.secretVariables.contains(read + "_\(suffix)") { suffix += 1 }
                variable = read + "_\(suffix)"
            }
            if readDefaults[variable] == nil { readDefaults[variable] = .some(fallback) }
            placeholders.secretVariables.insert(variable)
            // A secret's default is what `run` uses when its variable is unset or empty; the script does the same, unless a
            // `--var` gave the secret another value (`run` sends that one; the comment says to set the variable to it).
            if variable != read {
                // Before the lines that may give the variable read its own default.
                // (An assignment's word is not split, and its quotes are removed: `${A:-'x y'}` is `x y`.)
                let value = "${\(read)" + (fallback.map { ":-" + ShellText.quote($0) } ?? "-") + "}"
                // Replaced by a `--var`, it is what the comment says to set; else what the variable read gives.
                defaults.insert((variable, replaced ? "[ -n \"${\(variable)-}\" ] || \(variable)=${\(read)-}" : "\(variable)=\(value)"), at: 0)
            } else if let fallback, !replaced, !defaults.contains(where: { $0.variable == variable }) {
                defaults.append((variable, "[ -n \"${\(variable)-}\" ] || \(variable)=\(ShellText.quote(fallback))"))
            }
            for layer in [VariableScope.Layer.environment, .commandLine] {
                scope.define(secret.name, .string(placeholders.placeholder(for: variable)), in: layer, secret: true)
            }
            for value in Set([secret.value, given].compactMap { $0 }) {
                switch ResolvedSecret.hiding(value) {
                case .inText: placeholders.hiddenValues.append((value, variable))
                // Where outputs hide it (standing apart), as in a variable that is the secret (`pw: "{{ s }}"`).
                case .wholeValue: shortValues.append((value, placeholders.placeholder(for: variable)))
                case .none: break
                }
            }
            // Secrets reading one variable alike are one reference: the comment names them all.
            secretsOf[variable, default: []].append(secret.name)
            let names = secretsOf[variable, default: []].map { "'\($0)'" }
            meanings[variable] = (names.count == 1 ? "the secret \(names[0])" : "the secrets " + names.joined(separator: " and "))
                + (variable != read ? ", read from $\(read)" : "") + (replaced ? " (--var \(secret.name) gave it another value: set \(variable) to it)" : "")
            if secret.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\u{0}" }) { unsendableSecrets.insert(secret.name) }
        }
        // A variable a secret's value went into (`wrapped: "pre-{{ pw }}"`, resolved with the environment) holds its
        // reference there: the command sends what `run` does, the value encoded as one where it goes.
        hiddenForms = Self.forms(of: placeholders)
        for name in scope.definedNames where !scope.secretNames.contains(name) {
            guard let value = scope.value(of: name), hiddenForms.contains(where: { value.interpolatedText.contains($0.text) })
                || shortValues.contains(where: { ShortValue.holds($0.text, in: value.interpolatedText) })
            else { continue }
            scope.define(name, hidingSecrets(in: value), in: .environment)
        }
        var processEnvironment: [String: String] = [:]
        for name in scope.processEnvironment.variables.keys {
            let variable = ShellText.variableName(name)
            processEnvironment[name] = placeholders.placeholder(for: variable)
            guard meanings[variable] == nil else { continue }
            meanings[variable] = "the environment variable \(name) ({{ $env.\(name) }})"
            // Text, as `run` writes it into a URL (a secret is one value there).
            placeholders.textVariables.insert(variable)
        }
        scope.processEnvironment = ProcessEnvironment(processEnvironment)
        environment = loaded.environment
        hideProcessVariables(readByVariablesOf: loaded, commandLine: commandLine, in: &scope)
        return scope
    }

    /// The environment as the commands use it: a `baseURL` holding each secret's reference (see
    /// `hidingSecrets(inBaseURLOf:)`) and each `{{ $env.NAME }}` it reads.
    private(set) var environment: ResolvedEnvironment?

    /// Gives the environment's variables and `baseURL` that read `{{ $env.NAME }}` (resolved with the environment, so
    /// holding its value) the reference instead: the environment resolved again with `scope`'s process environment.
    /// A `baseURL` that is no URL then (its host, its port or all of it from a variable) keeps the value.
    private mutating func hideProcessVariables(readByVariablesOf loaded: LoadedCollection, commandLine: [(name: String, value: String)],
                                               in scope: inout VariableScope) {
        guard var resolved = loaded.environment else { return }
        let chain = SecretVariables.chain(of: resolved, sources: loaded.sources)
        var read: [String] = []
        for definition in chain {
            var templates = definition.baseURL.map { [$0] } ?? []
            for variable in definition.variables { templates += variable.value.templates }
            for template in templates {
                for case (.builtin(.env(let name)), _) in template.expressions { read.append(scope.processEnvironment[name] ?? "") }
            }
        }
        let marks = read.filter { !$0.isEmpty }
        guard !marks.isEmpty else { return }
        var merger = EnvironmentMerger(processEnvironment: scope.processEnvironment, commandLine: commandLine, random: RandomValues(seed: 1))
        let again = merger.merge(chain)
        let readsOne = { (text: String) in marks.contains { text.contains($0) } }
        for (name, value) in again.variables.members where !scope.secretNames.contains(name) && readsOne(value.interpolatedText) {
            // A `--var` of the same name wins, as in `run`.
            guard scope.value(of: name) == resolved.variables[name].map(hidingSecrets) else { continue }
            scope.define(name, Self.marksInsideJSON(value, placeholders: placeholders), in: .environment)
        }
        if let baseURL = again.baseURL, readsOne(baseURL), ServerEnvironment(baseURL: baseURL) != nil { resolved.baseURL = baseURL }
        environment = resolved
    }

    /// `value` with the marks in the strings of a mapping or list as ones JSON-escaped where they go (runner writes the
    /// value as JSON there); a string's stay as they are.
    private static func marksInsideJSON(_ value: JSONValue, placeholders: ValuePlaceholders) -> JSONValue {
        func inside(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): .string(placeholders.insideJSON(text))
            case .array(let items): .array(items.map(inside))
            case .object(let object): .object(JSONObject(object.members.map { ($0.key, inside($0.value)) }))
            default: value
            }
        }
        if case .string = value { return value }
        return inside(value)
    }

    /// Each secret's value, and in a base URL each form `resolveURL` gives it (one value where it stands: in the
    /// authority, the path or the query, and then encoded as a URL), with its reference; the longest first.
    private var hiddenForms: [(text: String, placeholder: String)] = []
    /// The values of secrets too short to hide inside other text, with their references: replaced where they stand apart.
    private var shortValues: [(text: String, placeholder: String)] = []

    /// The forms `hiddenForms` holds, made once the secrets have their placeholders.
    private static func forms(of placeholders: ValuePlaceholders) -> [(text: String, placeholder: String)] {
        let structures = [PercentEncoding.authorityStructure, PercentEncoding.pathStructure, PercentEncoding.queryStructure]
        return placeholders.hiddenValues.flatMap { (value, variable) -> [(text: String, placeholder: String)] in
            let forms = [value] + structures.map { PercentEncoding.encoding($0, in: value) }.flatMap { [$0, PercentEncoding.encodeURL($0)] }
            return Set(forms).map { (text: $0, placeholder: placeholders.placeholder(for: variable)) }
        }.sorted { $0.text.count > $1.text.count }
    }

    /// `value` with every secret's value in it as its reference.
    private func hidingSecrets(in value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            .string(shortValues.reduce(hiddenForms.reduce(text) { $0.replacingOccurrences(of: $1.text, with: $1.placeholder) }) {
                ShortValue.replacing($1.text, in: $0, with: $1.placeholder)
            })
        case .array(let items): .array(items.map(hidingSecrets))
        case .object(let object): .object(JSONObject(object.members.map { ($0.key, hidingSecrets(in: $0.value)) }))
        default: value
        }
    }

    /// The environment with its base URL holding each secret's reference where the secret's value went in (it was
    /// resolved with the environment): relative requests are written with the reference, encoded as `run` sends it.
    /// A secret that gives the base URL's host, port or all of it leaves no URL to write a reference into: an error.
    func hidingSecrets(inBaseURLOf environment: ResolvedEnvironment?) throws(RunFailure) -> ResolvedEnvironment? {
        guard var environment, let baseURL = environment.baseURL,
              case .string(let hidden) = hidingSecrets(in: .string(baseURL)) else { return environment }
        guard ServerEnvironment(baseURL: hidden) != nil else {
            let references = placeholders.shellText(hidden).variables.map { "$\($0) (\(meanings[$0] ?? $0))" }
            throw RunFailure(.error("the baseURL of environment '\(environment.name)' takes its host or port, or all of it, from "
                                    + "\(references.joined(separator: " and ")): a command cannot write it as a reference",
                                    path: environment.baseURLSource?.path, at: environment.baseURLSource?.value,
                                    suggestion: "write the scheme, host and port in the environment file; a secret can stand in its path"))
        }
        environment.baseURL = hidden
        return environment
    }

    /// Refuses a header that uses a secret holding CR, LF or NUL, as `run` refuses it: the secret's value is behind a
    /// reference here, so building the request cannot see it.
    func checkHeaders(_ headers: [(field: HeaderField, path: String)]) throws(RunFailure) {
        for (field, path) in headers {
            for case (.variable(let variable), _) in field.value.expressions where unsendableSecrets.contains(variable.name) {
                throw RunFailure(.error("the value of header '\(field.name)' contains a line break or NUL (the secret '\(variable.name)' "
                                        + "holds one); header values cannot contain CR, LF or NUL", path: path, at: field.value.mark,
                                        suggestion: "remove line breaks from the variable's value"))
            }
        }
    }

    /// Defines `item`, `index` and the element's fields of an `each:` over `template` as placeholders: the list is known
    /// only when the collection runs, so the command is written once, for the element the variables are set to. The
    /// fields are what `templates` use: `item.id` or `item.user.emails[0]` (then `item` holds what they lead to), or a
    /// name nothing else defines (`id`).
    mutating func loop(over template: Template, using templates: [Template], in scope: inout VariableScope) {
        var paths: [String: [[VariablePath.Component]]] = ["item": []]
        var roots = ["item"]
        for used in templates {
            for case (.variable(let path), _) in used.expressions where path.name != "index" {
                guard path.name == "item" || paths[path.name] != nil || scope.value(of: path.name) == nil else { continue }
                if paths[path.name] == nil { roots.append(path.name) }
                paths[path.name, default: []].append(path.components)
            }
        }
        let list = "of the list each: '\(template.source)' runs over when the collection runs: set it before running the command"
        scope.define("index", placeholder(VariablePath(name: "index"), meaning: "the number, from 1, of the element " + list), in: .capture)
        var fields: [(String, JSONValue)] = []
        for root in roots where root != "item" {
            let value = placeholders(for: VariablePath(name: root), leading: paths[root] ?? [], meaning: "the field '\(root)' of the element " + list)
            scope.define(root, value, in: .capture)
            fields.append((root, value))
        }
        // An element known by its fields (`item.id`) holds the bare ones the requests use too (`{{ label }}`).
        var item = placeholders(for: VariablePath(name: "item"), leading: paths["item"] ?? [], meaning: "the element " + list)
        if case .object(let object) = item { item = .object(JSONObject(object.members.map { ($0.key, $0.value) } + fields)) }
        scope.define("item", item, in: .capture)
    }

    /// A placeholder for the value at `path`, or, when the templates go further into it (`paths`, each what follows
    /// `path`), a mapping or list of placeholders for what they lead to.
    private mutating func placeholders(for path: VariablePath, leading paths: [[VariablePath.Component]], meaning: String) -> JSONValue {
        let deeper = paths.filter { !$0.isEmpty }
        guard let first = deeper.first?.first else { return placeholder(path, meaning: meaning) }
        func next(_ component: VariablePath.Component) -> JSONValue {
            placeholders(for: VariablePath(name: path.name, components: path.components + [component]),
                         leading: deeper.filter { $0.first == component }.map { Array($0.dropFirst()) }, meaning: meaning)
        }
        if case .index = first {
            let count = deeper.compactMap { if case .index(let index)? = $0.first { index } else { nil } }.filter { $0 >= 0 }.max().map { $0 + 1 } ?? 0
            return .array((0..<min(count, 1000)).map { next(.index($0)) })
        }
        var keys: [String] = []
        for components in deeper { if case .key(let key)? = components.first, !keys.contains(key) { keys.append(key) } }
        return .object(JSONObject(keys.map { ($0, next(.key($0))) }))
    }

    /// The placeholder of the value at `path` (`$item_user_id` for `item.user.id`).
    private mutating func placeholder(_ path: VariablePath, meaning: String) -> JSONValue {
        let variable = ShellText.variableName(([path.name] + path.components.map { component in
            switch component {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }).joined(separator: "_"))
        meanings[variable] = path.components.isEmpty ? meaning : "'\(path)' of " + meaning
        // A captured value or a list's element is text in a URL, as `run` writes it there.
        placeholders.textVariables.insert(variable)
        return .string(placeholders.placeholder(for: variable))
    }

    /// Defines captured names as placeholders: their values come from responses, unknown before a run; a capture the
    /// templates read into (`{{ graceIds[0] }}`) holds a placeholder for each value they reach (`$graceIds_0`).
    mutating func capture(_ names: [String], in scope: inout VariableScope) {
        for name in names {
            let meaning = "captured as '\(name)' from an earlier response when the collection runs: set it before running the command"
            scope.define(name, placeholders(for: VariablePath(name: name), leading: usedPaths[name] ?? [], meaning: meaning), in: .capture)
        }
    }

    /// The comment lines before a command: its name and file, and what each variable it refers to stands for.
    func comments(name: String, path: String, variables: [String]) -> String {
        // A name may hold a secret or a captured value (`name: "Row {{ item }}"`): shown as its reference; one that is
        // the file's path is the collection's own (a short secret's value may equal a folder's name).
        let shown = Redactor.isPath(name, of: path) ? nil : placeholders.shellText(name)
        var lines = [ShellText.comment("\(shown?.displayed ?? name) (\(path))")]
        var listed: Set<String> = []
        for variable in (shown?.variables ?? []) + variables where listed.insert(variable).inserted {
            lines.append(ShellText.comment("$\(variable): \(meanings[variable] ?? "set it before running the command")"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

}
