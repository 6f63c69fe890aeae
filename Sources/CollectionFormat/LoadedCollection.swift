public import Expectations

/// Everything read for a run: the request files in run order, the environment, and every problem found.
public struct LoadedCollection: Sendable {
    /// The request files in run order, decoded as far as possible even when they have errors.
    public var files: [RequestFile]
    /// The selected environment, or nil without `--env` (or when it is broken).
    public var environment: ResolvedEnvironment?
    /// Every problem, sorted by path then position.
    public var diagnostics: [Diagnostic]
    /// The texts of the files read, for rendering diagnostics.
    public var sources: SourceCache
    /// The starting variable scope: the environment's variables and secrets, `--var`s, the process environment.
    public var scope: VariableScope
    /// The schema files `expect.schema` names, compiled when they were checked, by absolute path: a run uses
    /// these, not the files as they are later.
    public var schemas: [String: JSONSchema] = [:]
    /// The OpenAPI documents `expect.openapi` names, read and compiled when they were checked, by absolute path: each an
    /// `OpenAPIContract`, held without its type so that the format does not depend on OpenAPIKit.
    public var openAPIContracts: [String: any Sendable] = [:]

    /// Whether the paths hold no request file but used files (fragments, named with a leading `_`), which were skipped.
    public var foundOnlyUsedFiles = false

    /// A collection of `files` read with `environment`, and what was found reading it.
    package init(files: [RequestFile], environment: ResolvedEnvironment?, diagnostics: [Diagnostic], sources: SourceCache,
                 scope: VariableScope) {
        (self.files, self.environment, self.diagnostics) = (files, environment, diagnostics)
        (self.sources, self.scope) = (sources, scope)
    }

    /// Every file the run reads: the collection's (requests, environments, fragments, data rows, `.env`) and those they
    /// name (bodies, multipart parts, schemas, OpenAPI documents, certificates and keys), in no particular order.
    public var filesRead: [String] {
        func certificates(of options: OptionsDefinition) -> [String] {
            [options.caCert, options.clientCert?.certificate, options.clientCert?.key].compactMap { $0?.absolutePath }
        }
        var paths = sources.unorderedPaths
        for step in files.lazy.flatMap(\.steps) {
            paths += step.fileReferences.map(\.absolutePath)
            paths += certificates(of: step.options)
        }
        return paths + (environment.map { certificates(of: $0.options) } ?? []) + [environment?.openapi?.value.absolutePath].compactMap { $0 }
    }

    /// The names of the variables requests send as credentials (in `auth:`, a header, query item, form field, multipart
    /// value or JSON member named as one, a client certificate's password: `forEachCredentialTemplate`), in any file or
    /// the environment; those a `with:` input or `each:` row giving one of them reads; and the lists an `each:` loops
    /// over whose elements a step sends so: a value captured into one is hidden from its capture on, before it is sent.
    /// The fields those templates take of structured values (`key` of `{{ item.key }}`) are among them: of a captured
    /// mapping or list of mappings sent so, those fields are the credentials.
    public var credentialVariables: Set<String> {
        var names = Set<String>()
        let add = { (template: Template) in names.formUnion(template.variableNames + template.fieldNames) }
        for step in files.lazy.flatMap(\.steps) { step.forEachCredentialTemplate(add) }
        environment?.forEachCredentialTemplate(add)
        names.formUnion(listsLoopedAsCredentials)
        // Through any number of `with:` inputs and rows (`with: { t: "{{ token }}" }`).
        let givers = valueGivers
        var grew = true
        while grew {
            let count = names.count
            for giver in givers where names.contains(giver.name) { names.formUnion(giver.reads) }
            grew = names.count > count
        }
        return names
    }

    /// The variables of the lists an `each: "{{ list }}"` loops over (a step's, or a file's rows) whose elements (`item`,
    /// or their fields) a step sends as credentials.
    private var listsLoopedAsCredentials: [String] {
        let loops: [(loop: Template, steps: [RequestDefinition])] = files.flatMap { file in
            file.steps.compactMap { step in step.loop.map { ($0, [step]) } } + (file.rowsTemplate.map { [($0, file.steps)] } ?? [])
        }
        return loops.filter { loop in
            loop.steps.contains { step in
                var sends = false
                step.forEachCredentialTemplate { sends = sends || !$0.variableNames.isEmpty }
                return sends
            }
        }.flatMap(\.loop.variableNames)
    }

    /// Each variable a `with:` input or an `each:` row gives from templates, and the variables those read.
    private var valueGivers: [(name: String, reads: [String])] {
        files.flatMap { file in
            let values = file.steps.flatMap(\.inputs).map { ($0.name, $0.value) }
                + (file.rows.map { rows in rows.rows.flatMap { zip(rows.columns, $0) } } ?? [])
            return values.compactMap { name, value -> (name: String, reads: [String])? in
                let reads = value.templates.flatMap(\.variableNames)
                return reads.isEmpty ? nil : (name, reads)
            }
        }
    }

    /// Whether any diagnostic is an error (then nothing may be sent; exit 2).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The number of requests in `files` the `steps` function selects (steps of flows counted one by one, once per
    /// row or known list element of an `each:`; `RequestCounter`).
    public func requestCount(selecting steps: (RequestFile) -> [RequestDefinition] = \.steps) -> Int {
        let counter = RequestCounter(files: files, scope: scope)
        return files.reduce(0) { $0 + counter.count(steps($1), of: $1) }
    }
}
