import CollectionFormat
import Foundation
import HTTPCore
import Interop
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
        if let status = DiagnosticsOutput.report(loaded, color: .auto) { return status }
        guard collection.selectedRequests(in: loaded) != nil else { return .badCommandLine }
        var references = References()
        var scope = references.hide(loaded: loaded)
        let exporter = CurlExport(placeholders: references.placeholders, displayPath: Self.displayPath)
        let builder = RequestBuilder(environment: loaded.environment)
        var commands: [String] = []
        var problems: [Diagnostic] = []
        for file in loaded.files {
            for row in file.rows.map({ $0.rows.indices.map(Optional.some) }) ?? [nil] {
                var rowScope = scope
                var label = file.name
                do throws(RunFailure) {
                    if let row, let rows = file.rows {
                        try Self.define(row: row, of: rows, in: &rowScope, path: file.path)
                        label = (try? file.rowLabel(row, in: rowScope)) ?? file.defaultRowLabel(row)
                    }
                    if let template = file.rowsTemplate { references.loop(over: template, in: &rowScope) }
                    for step in file.steps {
                        var stepScope = try Self.scope(rowScope, with: step.inputs, in: step.path)
                        if let loop = step.loop { references.loop(over: loop, in: &stepScope) }
                        if collection.filter.selects(step, of: file) {
                            let name = file.isFlow ? "\(label) › \(step.name)" : label
                            let exported = try export(step, builder: builder, scope: stepScope)
                            let command = exporter.command(for: exported)
                            let skip = (file.skip ?? step.skip).map {
                                ShellText.comment("skipped when the collection runs" + ($0.reason.map { ": \($0)" } ?? "")) + "\n"
                            }
                            commands.append(references.comments(name: name, path: step.path, variables: command.variables)
                                + (skip ?? "") + command.text)
                        }
                        references.capture(step.captures.map(\.name), in: &rowScope)
                    }
                } catch {
                    problems.append(error.diagnostic)
                }
                references.capture(file.steps.flatMap { $0.captures.map(\.name) }, in: &scope)
            }
        }
        Console.out(commands.joined(separator: "\n\n"))
        guard problems.isEmpty else {
            Console.error(DiagnosticRenderer.render(problems, sources: loaded.sources, color: false))
            return .invalidCollection
        }
        return .success
    }

    /// The request of `step` built as `run` builds it, with what curl writes differently: a `file:` body by its path,
    /// and the timeout and redirect limit only when written.
    private func export(_ step: RequestDefinition, builder: RequestBuilder, scope: VariableScope) throws(RunFailure) -> ExportedRequest {
        let request = try builder.build(step, path: step.path, scope: scope)
        let written = builder.writtenOptions(of: step)
        var bodyFile: String?
        if case .file(let reference)? = step.request.body?.value { bodyFile = Self.displayPath(reference.absolutePath) }
        let inlineQuery = (try? scope.resolveString(step.request.url)).map(Self.queryItemCount) ?? 0
        return ExportedRequest(request: request, bodyFile: bodyFile, timeout: written.timeout?.value,
                               writesMaxRedirects: written.maxRedirects != nil,
                               appendedQueryItems: Self.queryItemCount(request.displayURL) - inlineQuery)
    }

    /// How many query items a URL's text has (as runner parses it, encoded when it does not parse as written).
    private static func queryItemCount(_ url: String) -> Int {
        let components = URLComponents(string: url) ?? PercentEncoding.encodeURL(url).flatMap(URLComponents.init(string:))
        return components?.percentEncodedQueryItems?.count ?? 0
    }

    /// `scope` with the row's fields as variables.
    private static func define(row: Int, of rows: DataRows, in scope: inout VariableScope, path: String) throws(RunFailure) {
        for (column, value) in zip(rows.columns, rows.rows[row]) {
            do { scope.define(column, try scope.resolve(value), in: .row) } catch { throw RunFailure(error.diagnostic(in: rows.valuesPath(in: path))) }
        }
    }

    /// `scope` with the `with:` variables of the `use:` steps that brought a step in.
    private static func scope(_ scope: VariableScope, with inputs: [StepInput], in path: String) throws(RunFailure) -> VariableScope {
        var scope = scope
        for input in inputs {
            do { scope.define(input.name, try scope.resolve(input.value), in: .input) } catch { throw RunFailure(error.diagnostic(in: path)) }
        }
        return scope
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

    /// The collection's starting scope with every secret and process environment variable as a placeholder; a secret's
    /// value is also hidden where a variable that used it holds it.
    mutating func hide(loaded: LoadedCollection) -> VariableScope {
        var scope = loaded.scope
        let environmentNames = loaded.environment.map { SecretVariables.names(in: $0, sources: loaded.sources) } ?? [:]
        for secret in loaded.environment?.secrets ?? [] {
            let variable = ShellText.variableName(environmentNames[secret.name] ?? secret.name)
            scope.define(secret.name, .string(placeholders.placeholder(for: variable)), in: .environment, secret: true)
            if secret.value.count >= ResolvedSecret.shortestHiddenInText { placeholders.hiddenValues.append((secret.value, variable)) }
            meanings[variable] = "the secret '\(secret.name)'"
        }
        var processEnvironment: [String: String] = [:]
        for name in scope.processEnvironment.keys {
            let variable = ShellText.variableName(name)
            processEnvironment[name] = placeholders.placeholder(for: variable)
            if meanings[variable] == nil { meanings[variable] = "the environment variable \(name) ({{ $env.\(name) }})" }
        }
        scope.processEnvironment = processEnvironment
        return scope
    }

    /// Defines `item` and `index` of an `each:` over `template` as placeholders: the list is known only when the collection
    /// runs, so the command is written once, for the element the variables are set to.
    mutating func loop(over template: Template, in scope: inout VariableScope) {
        for name in ["item", "index"] {
            let variable = ShellText.variableName(name)
            scope.define(name, .string(placeholders.placeholder(for: variable)), in: .capture)
            meanings[variable] = "the \(name == "item" ? "element" : "number, from 1, of the element") of the list "
                + "each: '\(template.source)' runs over when the collection runs: set it before running the command"
        }
    }

    /// Defines captured names as placeholders: their values come from responses, unknown before a run.
    mutating func capture(_ names: [String], in scope: inout VariableScope) {
        for name in names {
            let variable = ShellText.variableName(name)
            scope.define(name, .string(placeholders.placeholder(for: variable)), in: .capture)
            meanings[variable] = "captured as '\(name)' from an earlier response when the collection runs: set it before running the command"
        }
    }

    /// The comment lines before a command: its name and file, and what each variable it refers to stands for.
    func comments(name: String, path: String, variables: [String]) -> String {
        var lines = [ShellText.comment("\(name) (\(path))")]
        for variable in variables {
            lines.append(ShellText.comment("$\(variable): \(meanings[variable] ?? "set it before running the command")"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

}
