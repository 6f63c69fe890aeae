import CollectionFormat
import YAML

/// Replaces the `use:` steps of flows by the steps of the files they name, each file read and decoded once per
/// collection; a missing file and a cycle of uses are located errors at the `use:`.
struct FragmentInliner {
    /// The files used so far, by absolute path: nil when one could not be read or decoded.
    private var fragments: [String: RequestFile?] = [:]
    /// Why each used file that cannot be read cannot, by absolute path.
    private var unreadable: [String: String] = [:]
    /// Every problem found, each used file's own reported once.
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether a used file could not be read or decoded: what its templates read is unknown.
    private(set) var someFileUnknown = false
    /// Where the texts of used files go, for rendering their diagnostics.
    let sources: SourceCache

    init(sources: SourceCache) {
        self.sources = sources
    }

    /// The file with its `use:` steps replaced by the steps they bring in.
    mutating func inline(_ file: RequestFile) -> RequestFile {
        guard !file.uses.isEmpty else { return file }
        var inlined = file
        inlined.steps = Self.numbered(steps(of: file, through: [(file.absolutePath, file.path)]))
        inlined.uses = []
        return inlined
    }

    /// The steps with each one whose name is not written named by its place in the flow, `use:` steps put in: `step N`
    /// among the steps, `cleanup N` among the cleanup steps (the names they had were their places in their own files).
    private static func numbered(_ steps: [RequestDefinition]) -> [RequestDefinition] {
        var counts = (steps: 0, cleanup: 0)
        return steps.map { step in
            if step.isCleanup { counts.cleanup += 1 } else { counts.steps += 1 }
            return step.named(byDefault: step.isCleanup ? "cleanup \(counts.cleanup)" : "step \(counts.steps)")
        }
    }

    /// The steps of `file`, its uses inlined; `chain` holds the files using it, outermost first.
    private mutating func steps(of file: RequestFile, through chain: [(absolute: String, display: String)]) -> [RequestDefinition] {
        var steps: [RequestDefinition] = []
        var next = 0
        for use in file.uses {
            steps += file.steps[next..<use.position]
            next = use.position
            steps += usedSteps(use, in: file.path, through: chain)
        }
        return steps + file.steps[next...]
    }

    /// The steps one `use:` brings in, with its `with:` variables.
    private mutating func usedSteps(_ use: StepUse, in path: String,
                                    through chain: [(absolute: String, display: String)]) -> [RequestDefinition] {
        let absolute = PathText.normalized(use.file.absolutePath), display = PathText.normalized(use.file.path)
        if let start = chain.firstIndex(where: { $0.absolute == absolute }) {
            let cycle = (chain[start...].map(\.display) + [display]).joined(separator: " → ")
            var diagnostic = Diagnostic.error("'use' makes a cycle: \(cycle)", path: path, at: use.mark,
                                              suggestion: "a file cannot use itself, directly or through other files")
            // The flow that ran into it, when the cycle does not start there (trial helper-174).
            if start > 0 { diagnostic.notes = ["note: reached from " + chain[...start].map(\.display).joined(separator: " → ")] }
            diagnostics.append(diagnostic)
            return []
        }
        let site = UseSite(path: path, mark: use.mark)
        guard let fragment = fragment(use.file, absolute: absolute, display: display, usedAt: site) else { return [] }
        let used = steps(of: fragment, through: chain + [(absolute, display)]).map { $0.inFlow(fragment) }
        warnUnread(use.inputs, by: used, in: display, at: path)
        return used.map { $0.used(at: site, by: use) }
    }

    /// Warns of each `with:` input (written in the file at `path`) that no template of the used file's steps reads (a
    /// typo: `with: { cdoe: 500 }`), which would give nothing its value.
    private mutating func warnUnread(_ inputs: [StepInput], by steps: [RequestDefinition], in used: String, at path: String) {
        var read: Set<String> = []
        func add(_ template: Template) { read.formUnion(template.variableNames) }
        for step in steps {
            step.forEachTemplate(add)
            step.forEachControlTemplate(add)
            for input in step.inputs { input.value.forEachTemplate(add) }
        }
        // A value of the same `with:` may read it too (`with: { id: 1, path: "/x/{{ id }}" }`).
        for input in inputs { input.value.forEachTemplate(add) }
        let given = Set(inputs.map(\.name))
        for input in inputs where !read.contains(input.name) {
            let suggestion = VariableScope.closestName(to: input.name, among: read.subtracting(given)).map { "did you mean '\($0)'?" }
                ?? "remove it, or read it in \(used) as {{ \(input.name) }}"
            diagnostics.append(.warning("'\(input.name)' is given to \(used), which reads it nowhere: it gives nothing its value",
                                        path: path, at: input.mark, suggestion: suggestion))
        }
    }

    /// The used file, read and decoded the first time it is used (at `site`); nil when it cannot be.
    private mutating func fragment(_ reference: FileReference, absolute: String, display: String, usedAt site: UseSite) -> RequestFile? {
        let path = site.path
        // A file that cannot be read is said at every use of it (each file that uses it fails), read once.
        if let problem = unreadable[absolute] {
            reportUnreadable(reference, problem, at: path)
            return nil
        }
        if let known = fragments[absolute] { return known }
        let kind = FileSystem.kind(of: absolute)
        guard kind.exists, !kind.isDirectory,
              let document = SourceReader.read(path: display, absolutePath: absolute)?.document else {
            let problem = kind.isDirectory ? "is a directory" : kind.exists ? "cannot be read" : FileSystem.missingReason(absolute)
            unreadable[absolute] = problem
            reportUnreadable(reference, problem, at: path)
            someFileUnknown = true
            return nil
        }
        let decoded = FileDecoding.requestFile(document, absolutePath: absolute,
                                               defaultName: Discovery.withoutExtension(display))
        diagnostics += decoded.diagnostics
        if let each = decoded.value.flatMap(\.eachMark) { diagnostics.append(Self.eachRefused(at: each, in: display, usedAt: site)) }
        sources.store(decoded.text, for: display)
        fragments[absolute] = .some(decoded.value)
        if decoded.value == nil { someFileUnknown = true }
        return decoded.value
    }

    /// Reports the used file `reference` names (in the file at `path`), which cannot be read for `problem`.
    private mutating func reportUnreadable(_ reference: FileReference, _ problem: String, at path: String) {
        let help = problem == "is a directory" ? "name a file inside it, such as '\(reference.written)/_steps.yaml'"
            : reference.missingHelp("paths are relative to the file that uses them")
        diagnostics.append(.error("used file '\(reference.written)' \(problem)\(reference.lookedFor)", path: path,
                                  at: reference.mark, suggestion: help))
    }

    /// `each:` in a used file: its steps run once, where a flow uses them, so rows cannot apply; the rows belong at
    /// the top of the flow, whose row variables its used steps see.
    private static func eachRefused(at mark: Mark, in path: String, usedAt site: UseSite) -> Diagnostic {
        var diagnostic = Diagnostic.error("'each' cannot be used in a file that a flow uses: its steps run once, where they are used",
                                          path: path, at: mark,
                                          suggestion: "move 'each:' to the top of the flow that uses this file (\(site.path)); "
                                              + "the used steps see the variables of its rows")
        diagnostic.notes = ["note: \(site.path):\(site.mark.line):\(site.mark.column): used here"]
        return diagnostic
    }
}

extension PathText {
    /// The path with `.` segments and `name/..` pairs removed, as far as the text allows.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
