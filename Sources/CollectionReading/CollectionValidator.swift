import CollectionFormat
import HTTPCore
import Expectations
import OpenAPIContract
import YAML

/// The checks of `runner validate` that span files: variables defined at their point of use, referenced files.
struct CollectionValidator {
    let environment: ResolvedEnvironment?
    /// Whether the environment's polling without `attempts` was reported (once, not for each request).
    private var reportedEnvironmentPolling = false
    let processEnvironment: ProcessEnvironment
    /// Whether the collection is about to be sent (`run`), not only checked.
    var forSending = false
    /// The requests `--tag` and `--exclude-tag` select.
    var selection = TagFilter()
    /// Whether the environment named could not be read (an error in its structure): what it defines is unknown, so an
    /// undefined variable or a missing `baseURL` is left unsaid, and the rest is checked.
    var environmentUnknown = false
    /// What the checks found so far; `finish()` hands it on, completed.
    private var diagnostics = DiagnosticBag()
    /// The names defined so far in run order.
    private var defined: Set<String>
    /// The names defined so far by the environment, `--var`s and the captures of selected requests.
    private var definedWhenSelected: Set<String>
    /// For each name captured by a request the selection leaves out, the first request capturing it: its file, or the
    /// step of a flow and its file.
    private var capturedWhenLeftOut: [String: String] = [:]
    /// For each name captured so far, the first request capturing it, named as in `capturedWhenLeftOut`.
    private var capturers: [String: String] = [:]
    /// The names captured so far by requests the selection runs.
    private var capturedWhenSelected: Set<String> = []
    /// Undefined variables found so far, with the request using each (named as a capturer), reported by `finish()`
    /// once every capture is known.
    /// `asksForItsFile`: an environment's template whose variable no earlier request captures, nor one of a close name (the
    /// request capturing it may be in a file the run was not given).
    /// `closeName`: the defined name its "did you mean" offers. `inWithValue`: whether it is read by a `with:` value.
    private var undefinedUses: [(name: String, user: String?, inItsFile: Bool, asksForItsFile: Bool, closeName: String?,
                                 inWithValue: Bool, diagnostic: Diagnostic)] = []
    /// The variables `when:` conditions test where they are not defined (absent there), with the places and the defined
    /// name close to each: once every file is checked, one a later request captures is a warning, else one with a close
    /// name (a likely typo).
    private var absentInConditions: [(name: String, path: String, mark: Mark, closeName: String?)] = []
    /// Whether the templates checked now are the environment's (checked for each request that uses them).
    private var checkingEnvironment = false
    /// Whether the template checked now is a `with:` value (resolved before the steps its `use:` brings in).
    private var checkingWithValue = false
    /// The request being checked, named as a capturer; nil between requests.
    private var currentRequest: String?
    /// The file being checked (an environment's templates, checked for each of its requests, are in another).
    private var currentFile: String?
    /// The values known before sending: the environment's variables and secrets, `--var`s, the process environment.
    private let known: VariableScope
    /// The root names of the variables the templates checked so far read, in every file, selected or not.
    private(set) var read: Set<String> = []
    /// The names a capture, a data row or a `with:` may have given another value than `known` holds.
    private var redefined: Set<String> = []
    /// The names `--var` gives, whose values win over every capture, row and `with:`.
    private let commandLineNames: Set<String>
    /// Whether the requests checked now loop (`each:`) over a list known only when they run: the fields of its
    /// elements cannot be known, so an undefined variable there is left for the run to report.
    private var fieldsUnknown = false
    /// The variables of the `each:` the requests checked now loop over, when its list is known before sending (and no
    /// capture so far has their names): a path into one (`{{ item.name }}`) is checked against the list's first element.
    private var knownElement: (names: Set<String>, scope: VariableScope, fields: [String], loop: String)?

    init(environment: ResolvedEnvironment?, commandLine: [(name: String, value: String)], processEnvironment: ProcessEnvironment) {
        self.environment = environment
        self.processEnvironment = processEnvironment
        defined = Set(commandLine.map(\.name))
        commandLineNames = defined
        if let environment {
            defined.formUnion(environment.variables.keys)
            defined.formUnion(environment.secrets.map(\.name))
            defined.formUnion(environment.unresolvedNames)
        }
        definedWhenSelected = defined
        known = (environment ?? .empty).scope(commandLine: commandLine, processEnvironment: processEnvironment)
    }

    /// Checks the next file in run order; captures of a request count for the requests after it.
    mutating func validate(_ file: RequestFile) {
        // Without its rows (reported where each: names them), the file's columns are unknown: a variable it reads is not
        // said to be undefined, the rest of it is checked, and its captures count for the files after it.
        fieldsUnknown = file.rowsUnknown
        defer { if file.rowsUnknown { fieldsUnknown = false } }
        currentFile = file.path
        // A single request's file-level templates (its name, rows, `when:`) belong to that request.
        currentRequest = file.isFlow ? nil : file.path
        // An each: file's row values are resolved in the file's starting scope; its columns are variables of its steps.
        let fileSelected = file.steps.contains { selection.selects($0, of: file) }
        let columns = file.rows?.columns ?? []
        let rowOnly = columns.filter { !defined.contains($0) }
        // A column only a request the selection leaves out captures is the rows' when this file is selected.
        let rowOnlyWhenSelected = columns.filter { !definedWhenSelected.contains($0) }
        // Captures sit above row values: a column a selected earlier request captures never gives its rows' values (a
        // mistake only where the file reads it).
        let read = columns.isEmpty ? [] : Self.variablesRead(by: file)
        for column in columns where capturedWhenSelected.contains(column) && read.contains(column) {
            guard let capturer = capturers[column], let rows = file.rows else { continue }
            diagnostics.add(.warning("'\(column)' is captured by \(capturer) before this file: the capture wins over every row's '\(column)'",
                                     path: file.path, at: rows.mark, suggestion: "rename the column or the capture"))
        }
        // Row values are written in the data file (or inline, in the request file), and located there.
        let rowsPath = file.rows?.valuesPath(in: file.path) ?? file.path
        for row in file.rows?.rows ?? [] {
            for value in row { value.forEachTemplate { check($0, in: rowsPath, selected: fileSelected) } }
        }
        defined.formUnion(rowOnly)
        definedWhenSelected.formUnion(rowOnlyWhenSelected)
        // Row columns (and a step's `with:` names, below) change a variable for this file (step) only; captures for every
        // request after it.
        let redefinedBefore = redefined
        redefined.formUnion(columns)
        let (fileOuter, fileOuterWhenSelected) = (defined, definedWhenSelected)
        if let template = file.rowsTemplate {
            check(template, in: file.path, selected: fileSelected)
            fieldsUnknown = !defineElementVariables(of: template, in: file.path, capturesWinOver: Self.variablesRead(by: file)).fieldsKnown
        }
        if let name = file.nameTemplate { check(name, in: file.path, selected: fileSelected) }
        // A `when:` key whose variable is undefined is absent, not an error; its operands must resolve.
        for condition in file.conditions { check(condition, in: file.path, selected: fileSelected) }
        checkKnownLists(file.conditions.map(\.matcher), in: file.path)
        for template in file.conditionTemplatesBesideSyntaxErrors { check(template, in: file.path, selected: fileSelected) }
        var captured: Set<String> = []
        defer {
            redefined = redefinedBefore.union(captured)
            defined.subtract(Set(rowOnly).subtracting(captured))
            definedWhenSelected.subtract(Set(rowOnlyWhenSelected).subtracting(captured))
            if file.rowsTemplate != nil {
                // The elements' variables belong to this file's steps; what its steps captured stays.
                (defined, definedWhenSelected) = (fileOuter.union(captured), fileOuterWhenSelected.union(captured))
                fieldsUnknown = false
                knownElement = nil
            }
        }
        for step in file.steps {
            captured.formUnion(step.captures.map(\.name))
            let capturer = file.isFlow ? "step '\(step.name)' of \(file.path)" : file.path
            currentRequest = capturer
            defer { currentRequest = nil }
            // A used file's steps are checked where they are written.
            let path = step.path
            let selected = selection.runs(step, of: file)
            // `with:` values are resolved in the flow's scope; their names are defined for this step only.
            let (outer, outerWhenSelected, outerRedefined) = (defined, definedWhenSelected, redefined)
            // A variable the step's `when:` requires to exist is defined where the step runs, and for its `with:` values
            // (one that reads it is left undefined when it does not exist, and the step is skipped); the `when:` itself
            // is checked without it.
            let required = Set(Condition.requiredNames(step.conditions) + Condition.requiredNames(file.conditions))
            let inputNames = Set(step.inputs.map(\.name))
            (defined, definedWhenSelected) = (outer.union(required), outerWhenSelected.union(required))
            for input in step.inputs {
                // A value written in a used file may read what a `use:` of that file gives: those sites are noted.
                let sites = Array(step.useSites.prefix { $0.path != input.path })
                checkingWithValue = true
                input.value.forEachTemplate { check($0, in: input.path ?? path, selected: selected, usedAt: sites) }
                checkingWithValue = false
                defined.insert(input.name)
                definedWhenSelected.insert(input.name)
                redefined.insert(input.name)
            }
            (defined, definedWhenSelected) = (outer.union(inputNames), outerWhenSelected.union(inputNames))
            defined.formUnion(required)
            definedWhenSelected.formUnion(required)
            let (fileFieldsUnknown, fileElement) = (fieldsUnknown, knownElement)
            var element = (fieldsKnown: true, names: Set<String>())
            if let loop = step.loop {
                check(loop, in: path, selected: selected)
                element = defineElementVariables(of: loop, in: path)
            }
            let (stepDefined, stepDefinedWhenSelected) = (defined, definedWhenSelected)
            // A `when:` beside a `use:` sees the `with:` values of the uses around that one, not its own; the step's own
            // `when:` is checked for each element of its `each:`, with the element's variables.
            for condition in step.conditions {
                let own = condition.inputsVisible >= step.inputs.count
                let visible = Set(step.inputs.prefix(condition.inputsVisible).map(\.name)).union(own ? element.names : [])
                (defined, definedWhenSelected) = (outer.union(visible), outerWhenSelected.union(visible))
                fieldsUnknown = fileFieldsUnknown || (own && !element.fieldsKnown)
                check(condition, in: condition.path ?? path, selected: selected,
                      notSeen: inputNames.subtracting(visible).subtracting(outer))
            }
            (defined, definedWhenSelected) = (stepDefined, stepDefinedWhenSelected)
            fieldsUnknown = fileFieldsUnknown || !element.fieldsKnown
            checkGraphQLVariables(of: step, in: path)
            let loops = step.loop != nil || file.rowsTemplate != nil
            checkKnownURL(step.request.url, in: path, loops: loops)
            // The token URL of the OAuth2 auth the request uses (its own, else the environment's), as its URL.
            let auth = step.auth.map { ($0.value, path) } ?? environment?.auth.map { ($0.value.value, $0.path) }
            if case (.oauth2(let oauth), let path)? = auth { checkKnownURL(oauth.tokenURL, in: path, loops: loops) }
            checkKnownJSONBody(of: step, in: path, loops: loops)
            if !loops {
                checkKnownParameters(of: step, in: path)
                checkKnownNulls(of: step, in: path)
            }
            if !loops {
                var matchers = step.conditions.map(\.matcher)
                step.expect.forEachMatcher { matchers.append($0) }
                step.options.retry?.stopWhen?.value.forEachMatcher { matchers.append($0) }
                checkKnownLists(matchers, in: path)
            }
            step.forEachTemplate { check($0, in: path, selected: selected, usedAt: step.useSites) }
            for template in step.templatesBesideSyntaxErrors { check(template, in: path, selected: selected, usedAt: step.useSites) }
            (defined, definedWhenSelected, redefined) = (outer, outerWhenSelected, outerRedefined)
            (fieldsUnknown, knownElement) = (fileFieldsUnknown, fileElement)
            checkBaseURL(for: step.request.url, in: path)
            checkEnvironmentTemplates(for: step, selected: selected)
            for reference in step.fileReferences { check(reference, in: path) }
            checkPollingAttempts(of: step, in: path)
            checkMergedRetryWaits(of: step, in: path)
            if let caCert = step.options.caCert, let problem = CertificateFile.diagnostic(for: caCert, in: path) {
                diagnostics.add(problem)
            }
            if let schema = step.expect.schema, FileSystem.kind(of: schema.absolutePath).exists {
                checkSchema(schema, in: path)
            }
            if let openapi = step.expect.openapi, FileSystem.kind(of: openapi.absolutePath).exists {
                checkOpenAPI(openapi, in: path)
            }
            let captured = step.captures.map(\.name)
            defined.formUnion(captured)
            redefined.formUnion(captured)
            for name in captured where capturers[name] == nil { capturers[name] = capturer }
            if selected {
                definedWhenSelected.formUnion(captured)
                capturedWhenSelected.formUnion(captured)
            } else {
                for name in captured where capturedWhenLeftOut[name] == nil { capturedWhenLeftOut[name] = capturer }
            }
        }
    }

    /// A `when:` condition: its operands must resolve; its key's variable may be undefined (absent then), but in a
    /// selected request not one that only requests the selection leaves out capture (it would always be absent, and
    /// the request skipped).
    ///
    /// A key's variable defined nowhere, whose name is close to a defined one, is likely a typo (when the condition asks
    /// whether it exists, close to a captured one: a `--var` alone may give it): a warning says so. So does one only a `with:` beside it gives (`notSeen`): a `when:`
    /// beside a `use:` is checked before that use's values are defined; and one a later request captures (`finish`).
    private mutating func check(_ condition: Condition, in path: String, selected: Bool, notSeen: Set<String> = []) {
        read.formUnion(condition.subject.variableNames)
        condition.matcher.forEachOperandTemplate { check($0, in: path, selected: selected) }
        let asksForPresence = Self.asksForPresence(condition.matcher)
        for (expression, mark) in condition.subject.expressions {
            guard case .variable(let variable) = expression else { continue }
            if !defined.contains(variable.name), notSeen.contains(variable.name) {
                diagnostics.add(.warning("'\(variable.name)' is given by the with: beside this when:, which does not see it: the condition "
                                         + "decides whether the use runs, before its with: values are defined, so it finds it absent",
                                         path: path, at: mark,
                                         suggestion: "test a variable of the flow here, or write the condition in the used file"))
            } else if selected, !definedWhenSelected.contains(variable.name), let capturer = capturedWhenLeftOut[variable.name] {
                diagnostics.add(Self.capturedOnlyWhenLeftOut(variable.name, by: capturer, selection: selection, at: mark, in: path))
            } else if !defined.contains(variable.name) {
                // One asked for by `exists` may be given by a `--var` alone: only a name close to a captured one is a likely typo.
                let guess = fieldsUnknown || environmentUnknown ? nil
                    : VariableScope.closestName(to: variable.name, among: asksForPresence ? Set(capturers.keys) : defined)
                absentInConditions.append((variable.name, path, mark, guess))
            }
        }
    }

    /// Whether `matcher` asks whether its value exists (`exists`, also inside `not` or beside other operators).
    private static func asksForPresence(_ matcher: Matcher<TemplateValue>) -> Bool {
        switch matcher {
        case .exists: true
        case .all(let matchers): matchers.contains(where: asksForPresence)
        case .not(let inner): asksForPresence(inner)
        default: false
        }
    }

    /// The error for a variable of a selected request that only `capturer`, left out by `selection`, captures.
    private static func capturedOnlyWhenLeftOut(_ name: String, by capturer: String, selection: TagFilter, at mark: Mark,
                                                in path: String) -> Diagnostic {
        .error("'\(name)' is captured only by \(capturer), which \(selection.commandLine) leaves out", path: path, at: mark,
               suggestion: "select \(capturer) too, or pass --var \(name)=VALUE")
    }

    /// Every problem found, once every file is checked: the undefined variables (one that a later request captures
    /// says so) and the environment's `expect.openapi` among them.
    mutating func finish() -> [Diagnostic] {
        // One per place: an environment's template is checked for every request, with what each may suggest (a name
        // an earlier request captured, for a later one); a "did you mean" wins.
        var found: [Diagnostic] = []
        for (name, user, inItsFile, asksForItsFile, closeName, inWithValue, diagnostic) in undefinedUses {
            var diagnostic = diagnostic
            if let capturer = capturers[name] {
                // In an environment's template the request is named: the place shown is the environment's.
                let named = inItsFile ? nil : user
                let when = switch (capturer == user, inWithValue) {
                case (true, true): "a step this use brings in captures it, after the with: values are resolved for the first one"
                case (true, false):
                    "\(named.map { "the first request using it, \($0)," } ?? "this request") captures it from its own response, after it is sent"
                case (false, true): "\(capturer) captures it, but runs after this use"
                case (false, false): "\(capturer) captures it, but runs after \(named ?? "this request")"
                }
                diagnostic.suggestion = "\(when): capture it earlier, or define it in the environment or with --var \(name)=VALUE"
            } else if asksForItsFile, let user {
                // The capturing request may be in a file the run was not given, or nowhere (a typo, a variable never defined).
                let hint = "no request run before \(user) captures it: give the file that captures it too, if one does; else define it in "
                    + "the environment's 'variables', or pass --var \(name)=VALUE"
                // The file left out first: the close name may be another variable altogether (`tokenURL` for `token`).
                diagnostic.suggestion = hint + (closeName.map { " (or did you mean '\($0)'?)" } ?? "")
            }
            let guesses = { (diagnostic: Diagnostic) in diagnostic.suggestion?.hasPrefix("did you mean") == true }
            if let index = found.firstIndex(where: { ($0.path, $0.mark, $0.message) == (diagnostic.path, diagnostic.mark, diagnostic.message) }) {
                if guesses(diagnostic), !guesses(found[index]) { found[index] = diagnostic }
            } else {
                found.append(diagnostic)
            }
        }
        diagnostics.add(contentsOf: found)
        undefinedUses = []
        // Tested before the request that captures it runs: always absent there, whatever the capture gives; else a name
        // close to a defined one is likely a typo.
        for (name, path, mark, closeName) in absentInConditions {
            guard let capturer = capturers[name] else {
                if let closeName {
                    diagnostics.add(.warning("'\(name)' is not defined here, so this condition finds it absent", path: path, at: mark,
                                             suggestion: "did you mean '\(closeName)'?"))
                }
                continue
            }
            diagnostics.add(.warning("'\(name)' is captured by \(capturer), which runs after this condition: the condition always finds it "
                                     + "absent", path: path, at: mark,
                                     suggestion: "capture it in an earlier request, or test it in a request that runs after \(capturer)"))
        }
        absentInConditions = []
        checkEnvironmentOpenAPI()
        return diagnostics.diagnostics
    }

    /// Defines the variables an `each:` over `template` gives its requests: `item` and `index`, and the fields of the
    /// list's first mapping when the list is known before sending (an environment variable that no capture, row or
    /// `with:` changes; a value known not to be a list is an error); returns whether those fields are known, and the names
    /// defined. An empty list, or a value that is not a list, has none to know (it is one SKIP, or the error, in this
    /// environment at least). Sets `knownElement` from the list's first element when it is known.
    ///
    /// A file's `each:` passes the variables its steps read as `capturesWinOver` (its elements' variables sit below
    /// captures): each of them a selected earlier request captures gets a warning, as the capture gives its value in
    /// every run.
    private mutating func defineElementVariables(of template: Template, in path: String,
                                                 capturesWinOver read: Set<String> = []) -> (fieldsKnown: Bool, names: Set<String>) {
        let names: [String]
        var known = false
        knownElement = nil
        if case .variable(let variable)? = template.singleExpression?.expression, !redefined.contains(variable.name),
           let value = try? self.known.resolve(template) {
            // A value that is not a list is the one error: what its requests use of it is not checked.
            if case .array(let elements) = value { known = !elements.isEmpty }
            switch value {
            case .array(let elements):
                if case .object(let object)? = elements.first { names = object.keys } else { names = [] }
                if let first = elements.first {
                    var scope = self.known
                    scope.defineElement(first, number: 1, in: .input)
                    knownElement = (Set(names + ["item", "index"]).subtracting(capturers.keys), scope, names, template.source)
                }
            default:
                names = []
                diagnostics.add(.error("each: '\(template.source)' is \(value.kindName), not a list", path: path,
                                       at: template.mark, suggestion: "loop over a list, such as a variable holding [a, b]"))
            }
        } else {
            names = []
        }
        for name in names + ["item", "index"] {
            defined.insert(name)
            definedWhenSelected.insert(name)
            redefined.insert(name)
            guard read.contains(name), capturedWhenSelected.contains(name), let capturer = capturers[name] else { continue }
            diagnostics.add(.warning("'\(name)' is captured by \(capturer) before this file: the capture wins over every element's '\(name)'",
                                     path: path, at: template.mark,
                                     suggestion: "rename the capture, or loop in a step, where the elements' variables win"))
        }
        return (known, Set(names + ["item", "index"]))
    }

    /// The names of the variables a file's steps and its name read (the first component of each path).
    private static func variablesRead(by file: RequestFile) -> Set<String> {
        var names: Set<String> = []
        func add(_ template: Template) { names.formUnion(template.variableNames) }
        for step in file.steps {
            step.forEachTemplate(add)
            step.forEachControlTemplate(add)
        }
        if let name = file.nameTemplate { add(name) }
        return names
    }

    /// A URL written as a path needs an environment with a `baseURL` to be joined to: an error when the
    /// selected environment has none, and, before sending, when no environment is selected.
    private mutating func checkBaseURL(for url: Template, in path: String) {
        guard !environmentUnknown, environment?.baseURL == nil, environment?.baseURLUnresolved != true, environment != nil || forSending,
              case .literal? = url.segments.first, url.literalScheme == nil else { return }
        let place = environment.map { "environment '\($0.name)' has no baseURL" } ?? "no environment is selected"
        diagnostics.add(.error("the relative URL '\(url.source)' needs a baseURL, but \(place)", path: path, at: url.mark,
                               suggestion: environment == nil ? "pass --env NAME, or write an absolute http(s) URL"
                                   : "set baseURL in the environment, or write an absolute http(s) URL"))
    }

    /// GraphQL `variables` written as one template must give a mapping: checked here when the value is known before
    /// sending (a built-in, or an environment variable or a `--var` no capture, row or `with:` gives another value).
    /// A polled request needs at most how many tries: its own `attempts`, or its environment's (merged field by field).
    /// Reported where the polling is asked for: the request's `on`, or once the environment's. An `attempts` written but
    /// not valid (`0`) is its own error.
    private mutating func checkPollingAttempts(of step: RequestDefinition, in path: String) {
        let own = step.options.retry, inherited = environment?.options.retry
        guard let merged = step.options.merged(over: environment?.options ?? OptionsDefinition()).retry, merged.polls,
              merged.attempts == nil, !merged.attemptsInvalid else { return }
        let suggestion = "say how many tries at most, such as attempts: 20, here or in the environment's options.retry"
        if let on = own?.on, own?.polls == true {
            diagnostics.add(.error(Self.pollingWithoutAttempts, path: path, at: on.mark, suggestion: suggestion))
        } else if !reportedEnvironmentPolling, let on = inherited?.on {
            reportedEnvironmentPolling = true
            diagnostics.add(.error(Self.pollingWithoutAttempts, path: environment?.retryOnPath, at: on.mark,
                                   suggestion: "say how many tries at most, such as attempts: 20, here or in each polling request's options.retry"))
        }
    }

    private static let pollingWithoutAttempts = "polling ('expectations' in 'options.retry.on') needs 'attempts'"

    /// A request's retry merged over its environment's (field by field, as it is sent) whose waits add up to more than
    /// an hour, when neither alone says so (each file's own `attempts` is checked where it is read): at the request's
    /// `retry`, naming the environment's part.
    private mutating func checkMergedRetryWaits(of step: RequestDefinition, in path: String) {
        guard let own = step.options.retry, let inherited = environment?.options.retry else { return }
        let warnedAlone = { (retry: RetryDefinition) in retry.attempts != nil && retry.waitsLonger(than: RetryDefinition.longestWaits) }
        let merged = own.merged(over: inherited)
        guard !warnedAlone(own), !warnedAlone(inherited), merged.waitsLonger(than: RetryDefinition.longestWaits) else { return }
        var from: [String] = []
        if own.attempts == nil, inherited.attempts != nil { from.append("attempts") }
        if own.delay == nil, inherited.delay != nil { from.append("delay") }
        if own.backoff == nil, inherited.backoff != nil { from.append("backoff") }
        let place = environment?.retryPath.map { " (\($0))" } ?? ""
        let taken = from.isEmpty ? "retry" : from.joined(separator: " and ")
        diagnostics.add(.warning("this retry, with the environment's \(taken)\(place), waits more than an hour in all "
                                 + "between its tries: a request whose answer never comes right holds the run that long", path: path, at: own.mark,
                                 suggestion: "give fewer attempts or a shorter delay here, or in the environment"))
    }

    private mutating func checkGraphQLVariables(of step: RequestDefinition, in path: String) {
        guard case .graphql(let graphql)? = step.request.body?.value, let variables = graphql.variables,
              case .string(let template) = variables.content, let expression = template.singleExpression?.expression
        else { return }
        if case .variable(let variable) = expression, redefined.contains(variable.name) { return }
        guard let value = try? known.resolve(variables),
              let problem = GraphQLBody.variablesProblem(value, of: variables, in: path) else { return }
        diagnostics.add(problem)
    }

    /// A JSON body (or GraphQL `variables`) whose templates are known before sending (`isKnownBeforeSending`) must not
    /// give a number JSON cannot write: an environment variable `.inf` in `json: { n: "{{ big }}" }`.
    private mutating func checkKnownJSONBody(of step: RequestDefinition, in path: String, loops: Bool) {
        guard !loops, let body = step.request.body?.value else { return }
        let value: TemplateValue
        switch body {
        case .json(let json): value = json
        case .graphql(let graphql):
            guard let variables = graphql.variables else { return }
            value = variables
        default: return
        }
        // Each template whose value is known, at its place: a value made of others can only hold a number they give.
        for template in value.templates where isKnownBeforeSending(template) {
            guard let number = (try? known.resolve(template))?.firstNonFiniteNumber else { continue }
            diagnostics.add(.error("the JSON body would hold \(JSONBody.describeNonFinite(number)), which JSON cannot express, "
                                   + "from '\(template.source)'", path: path, at: template.mark,
                                   suggestion: "give the variable a finite number, or send it as a string"))
        }
    }

    /// A query or form value of the request (or of the environment's query it is sent with) whose template is known
    /// before sending must not give null, as a null written there must not.
    private mutating func checkKnownParameters(of step: RequestDefinition, in path: String) {
        var parameters = step.request.query.map { ($0, path) }
        if case .form(let form)? = step.request.body?.value { parameters += form.map { ($0, path) } }
        let own = step.ownQueryNames
        parameters += (environment?.query ?? []).filter { !own.contains($0.value.name) }.map { ($0.value, $0.path) }
        for (parameter, path) in parameters {
            for value in parameter.values {
                guard case .string(let template) = value.content, template.singleExpression != nil, isKnownBeforeSending(template),
                      (try? known.resolve(value)) == .null else { continue }
                diagnostics.add(Parameter.nullValue(from: template, at: value.mark, in: path))
            }
        }
    }

    /// The URL, a header value (the request's, or its environment's it is sent with), a Basic or bearer credential (its auth,
    /// else the environment's) or a multipart value whose variables are known before sending must not hold a null, which
    /// would be sent as the word null, as the run refuses.
    private mutating func checkKnownNulls(of step: RequestDefinition, in path: String) {
        let own = Set(step.request.headers.map { $0.name.lowercased() })
        let headers = step.request.headers.map { ($0, path) }
            + (environment?.headers ?? []).filter { !own.contains($0.value.name.lowercased()) }.map { ($0.value, $0.path) }
        var texts = [(step.request.url, "a URL", path)] + headers.map { ($0.0.value, "a header value", $0.1) }
        for (header, path) in headers where !header.value.isLiteral && isKnownBeforeSending(header.value) {
            guard let value = try? known.resolve(header.value), value != .null else { continue }
            warnRefusedAtRun(HeaderField.emptyCredentialsProblem(value.interpolatedText, of: header.value, named: header.name, in: path))
        }
        if case .multipart(let parts)? = step.request.body?.value {
            texts += parts.compactMap { part in if case .value(let value) = part.content { (value, "a multipart value", path) } else { nil } }
        }
        switch step.auth.map({ ($0.value, path) }) ?? environment?.auth.map({ ($0.value.value, $0.path) }) {
        case (.basic(let username, let password), let path)?: texts += [(username, "a user name", path), (password, "a password", path)]
        case (.bearer(let token), let path)?:
            texts.append((token, "a bearer token", path))
            checkKnownBearerToken(token, in: path)
        default: break
        }
        for (template, what, path) in texts where !template.isLiteral && isKnownBeforeSending(template) {
            guard let null = known.firstNullVariable(in: template) else { continue }
            diagnostics.add(.nullSentAsText(null.source, in: what, at: null.mark, path: path))
        }
    }

    /// A bearer token whose templates are known before sending (a secret's `default: ""`) that the run refuses (empty, or
    /// holding a space): a warning, as each request sent with it is then an ERROR.
    private mutating func checkKnownBearerToken(_ token: Template, in path: String) {
        // (What its written text refuses is an error already, where the file was read.)
        guard !token.isLiteral, AuthDefinition.bearerTokenProblem(token.literalText, of: token, in: path, resolved: false) == nil,
              isKnownBeforeSending(token), let value = try? known.resolve(token), value != .null else { return }
        warnRefusedAtRun(AuthDefinition.bearerTokenProblem(value.interpolatedText, of: token, in: path, resolved: true))
    }

    /// `problem`, the run's error for a value known before sending, as a warning: the run refuses each request sending it,
    /// not the whole run.
    private mutating func warnRefusedAtRun(_ problem: Diagnostic?) {
        guard var problem else { return }
        problem.severity = .warning
        problem.message += ": each request sent with it is an ERROR"
        diagnostics.add(problem)
    }

    /// An `in:` list whose template is known before sending (a `--var`, which is text, or an environment's value) must
    /// give a list with values, as the run requires (in an expectation, `retry.stopWhen` or a `when:`).
    private mutating func checkKnownLists(_ matchers: [Matcher<TemplateValue>], in path: String) {
        for matcher in matchers {
            matcher.forEachListOperand { operand in
                guard case .string(let template) = operand.content, isKnownBeforeSending(template),
                      let value = try? known.resolve(operand) else { return }
                if case .array(let elements) = value, !elements.isEmpty { return }
                diagnostics.add(VariableScope.notAList(value, from: template.source, at: operand.mark).diagnostic(in: path))
            }
        }
    }

    /// Whether `template`'s value is known before sending: its variables `--var`s give (which win over the rest), or the
    /// environment or its secrets give and no capture, row, `with:` or `each:` gives another value, and no random
    /// built-in (a value drawn here could differ from the run's).
    private func isKnownBeforeSending(_ template: Template) -> Bool {
        template.expressions.allSatisfy { expression, _ in
            switch expression {
            case .variable(let variable): commandLineNames.contains(variable.name) || !redefined.contains(variable.name)
            case .builtin(let builtin): !builtin.isRandom
            }
        }
    }

    /// A URL template whose values are known before sending (`isKnownBeforeSending`, in no `each:` or rows: `loops`) must
    /// give a URL that can be sent, as a URL written without templates must.
    private mutating func checkKnownURL(_ url: Template, in path: String, loops: Bool) {
        guard !url.isLiteral, !loops, isKnownBeforeSending(url), let text = try? known.resolveURL(url) else { return }
        do { _ = try known.requestURL(text, resolving: url, in: path) } catch { diagnostics.add(error) }
    }

    /// The environment's headers, query, auth and client certificate password are used by every request (auth and
    /// client certificate unless the request has its own).
    private mutating func checkEnvironmentTemplates(for step: RequestDefinition, selected: Bool) {
        checkingEnvironment = true
        defer { checkingEnvironment = false }
        environment?.forEachRequestTemplate(usedBy: step) { check($0, in: $1, selected: selected) }
    }

    /// Every variable must be defined before it is used, and, in a selected request, not only by the captures of
    /// requests the selection leaves out; every `$env.NAME` must be set.
    ///
    /// In a step a `use:` brought in (`sites`, outermost first), an undefined variable also names the `use:` steps that
    /// could give it with `with:`.
    private mutating func check(_ template: Template, in path: String, selected: Bool, usedAt sites: [UseSite] = []) {
        for (expression, mark) in template.expressions {
            if case .variable(let variable) = expression { read.insert(variable.name) }
            switch expression {
            case .variable(let variable) where !defined.contains(variable.name) && (fieldsUnknown || environmentUnknown):
                break
            case .variable(let variable) where !defined.contains(variable.name) && !sites.isEmpty:
                diagnostics.addMergingNotes(Self.undefinedInUsedFile(variable.name, at: mark, in: path, usedAt: sites,
                                                                     among: defined))
            case .variable(let variable) where !defined.contains(variable.name):
                let undefined = VariableScope.undefinedVariable(variable.name, at: mark, among: defined)
                var diagnostic = undefined.diagnostic(in: path)
                if let element = knownElement, !element.fields.isEmpty,
                   VariableScope.closestName(to: variable.name, among: Set(element.fields)) == nil {
                    // Likely meant as a field of the loop's elements, which are checked against its first.
                    let fields = "the first element of each: '\(element.loop)' has no field '\(variable.name)' "
                        + "(its fields: \(element.fields.sorted().joined(separator: ", ")))"
                    diagnostic.suggestion = undefined.closeName != nil ? "\(diagnostic.suggestion ?? "") Or: \(fields)" : fields
                }
                let guessesCapture = undefined.closeName.map { capturers[$0] != nil } ?? false
                undefinedUses.append((variable.name, currentRequest, path == currentFile, checkingEnvironment && !guessesCapture,
                                      undefined.closeName, checkingWithValue, diagnostic))
            case .variable(let variable) where selected && !definedWhenSelected.contains(variable.name):
                let capturer = capturedWhenLeftOut[variable.name] ?? "a request left out"
                diagnostics.add(Self.capturedOnlyWhenLeftOut(variable.name, by: capturer, selection: selection, at: mark, in: path))
            case .variable(let variable) where !variable.components.isEmpty && knownElement?.names.contains(variable.name) == true:
                // A path into an element of a list known before sending is checked against its first element.
                do { _ = try knownElement?.scope.evaluate(.variable(variable), at: mark) } catch { diagnostics.add(error.diagnostic(in: path)) }
            case .variable(let variable) where !variable.components.isEmpty && !redefined.contains(variable.name):
                // A path into a value known before sending (`{{ limits.max }}` of an environment's mapping) must lead somewhere.
                do { _ = try known.evaluate(.variable(variable), at: mark) } catch { diagnostics.add(error.diagnostic(in: path)) }
            case .builtin(.env(let name)) where processEnvironment[name] == nil:
                diagnostics.add(VariableScope.unsetEnvironmentVariable(name, in: processEnvironment, at: mark).diagnostic(in: path))
            default: break
            }
        }
    }

    /// An undefined variable in a used file, with a note at each `use:` that brought it in (the nearest first) and a
    /// suggestion to give it there with `with:`.
    private static func undefinedInUsedFile(_ name: String, at mark: Mark, in path: String, usedAt sites: [UseSite],
                                            among defined: Set<String>) -> Diagnostic {
        var diagnostic = VariableScope.undefinedVariable(name, at: mark, among: defined).diagnostic(in: path)
        let closest = VariableScope.closestName(to: name, among: defined)
        // The nearest `use:` says what is close (its `with:` key, often): the notes of several uses are merged, not their help.
        diagnostic.notes = sites.reversed().enumerated().map { position, site in
            "note: \(site.path):\(site.mark.line):\(site.mark.column): this 'use:' gives no 'with:' value for '\(name)'"
                + (position == 0 ? closest.map { " (did you mean '\($0)'?)" } ?? "" : "")
        }
        // The close name is in the note only: offered here too it would read as renaming the variable, while a `with:` key
        // the used file reads nowhere is the likely typo (that key's warning says so).
        diagnostic.suggestion = "add 'with: { \(name): ... }' to a 'use:' noted above, or define '\(name)' in the using flow's scope"
        return diagnostic
    }

    /// A referenced file must exist and be a regular file; returns whether it does.
    @discardableResult
    private mutating func check(_ reference: FileReference, in path: String, besides file: String = "request file") -> Bool {
        let kind = FileSystem.kind(of: reference.absolutePath)
        guard kind.exists, !kind.isDirectory else {
            let problem = kind.exists ? "is a directory" : FileSystem.missingReason(reference.absolutePath)
            diagnostics.add(.error("file '\(reference.written)' \(problem)\(reference.lookedFor)", path: path,
                                   at: reference.mark, suggestion: reference.missingHelp("paths are relative to the \(file)")))
            return false
        }
        return true
    }

    /// Each OpenAPI document checked, by absolute path: compiled, or why it cannot be used.
    private(set) var openAPIContracts: [String: Result<OpenAPIContract, OpenAPIProblems>] = [:]

    /// The environment's `expect.openapi` must name an OpenAPI document that can be used, as a request's must.
    private mutating func checkEnvironmentOpenAPI() {
        guard let openapi = environment?.openapi else { return }
        guard check(openapi.value, in: openapi.path, besides: "environment file") else { return }
        checkOpenAPI(openapi.value, in: openapi.path)
    }

    /// An OpenAPI document must parse and follow the OpenAPI rules, and its response schemas must compile; each problem
    /// is reported at the `openapi:` key with a note saying where it is in the document (read once per validation).
    private mutating func checkOpenAPI(_ reference: FileReference, in path: String) {
        documentPaths[reference.absolutePath] = reference.path
        let checked = openAPIContracts[reference.absolutePath] ?? OpenAPIFile.compiled(atPath: reference.absolutePath)
        openAPIContracts[reference.absolutePath] = checked
        guard case .failure(let problems) = checked, !reportedOnce(reference, kind: "openapi", in: path) else { return }
        for problem in problems.problems.prefix(OpenAPIFile.shownProblems) {
            var diagnostic = Diagnostic.error("openapi '\(reference.written)' \(problem.message)", path: path, at: reference.mark,
                                              suggestion: problem.suggestion)
            diagnostic.notes = ["at \(reference.path)\(problem.place.isEmpty ? "" : ":" + problem.place)"]
            diagnostics.add(diagnostic)
        }
    }

    /// Where the problems of each unusable schema file or OpenAPI document were reported, by absolute path.
    private var problemsReported: [String: String] = [:]

    /// Whether the problems of the unusable file `reference` names were reported at an earlier reference: this one is then
    /// an error that says where (a document many requests name is not listed for each); else notes this place.
    private mutating func reportedOnce(_ reference: FileReference, kind: String, in path: String) -> Bool {
        // By the file, however the path reaches it (`environments/../api.yaml` and `requests/../api.yaml`).
        let file = FileSystem.absolute(reference.absolutePath, from: "/")
        guard let first = problemsReported[file] else {
            problemsReported[file] = "\(path):\(reference.mark.line):\(reference.mark.column)"
            return false
        }
        diagnostics.add(.error("\(kind) '\(reference.written)' cannot be used: its problems are listed at \(first)", path: path,
                               at: reference.mark))
        return true
    }

    /// Each schema file checked, by absolute path: compiled, or why it cannot be used. A schema many requests use
    /// compiles once, and the run uses what was checked.
    private(set) var schemas: [String: Result<JSONSchema, SchemaProblem>] = [:]

    /// The schema files and OpenAPI documents checked: how each is shown, by absolute path.
    private(set) var documentPaths: [String: String] = [:]

    /// A schema file must be JSON and a schema whose references resolve; a problem is reported at the request's
    /// `schema:` with a note saying where it is in the schema file (each file is compiled once per validation).
    private mutating func checkSchema(_ reference: FileReference, in path: String) {
        documentPaths[reference.absolutePath] = reference.path
        let checked = schemas[reference.absolutePath]
            ?? SchemaFile.compiled(atPath: reference.absolutePath, displayPath: reference.path)
        schemas[reference.absolutePath] = checked
        guard case .failure(let problem) = checked, !reportedOnce(reference, kind: "schema", in: path) else { return }
        var diagnostic = Diagnostic.error("schema '\(reference.written)' \(problem.message)", path: path, at: reference.mark,
                                          suggestion: problem.suggestion)
        diagnostic.notes = ["at \(problem.location)"]
        diagnostics.add(diagnostic)
    }
}
