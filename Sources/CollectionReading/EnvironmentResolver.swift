import CollectionFormat
import Foundation
import HTTPCore
import YAML

/// Reads `--env NAME` from the environments directory: follows `extends`, merges, reads secrets, resolves variables.
struct EnvironmentResolver {
    /// The directory as displayed and as an absolute path.
    let directory: (path: String, absolute: String)
    /// Merges the chain read, with the process environment and the `--var`s.
    private let merger: EnvironmentMerger
    private(set) var diagnostics = DiagnosticBag()
    private(set) var sources = SourceCache()
    /// The credentials the environment files read write as they are.
    private(set) var credentials: Set<String> = []
    /// The environment `resolve` found errors in merging (an unset secret, a variable that does not resolve), to check
    /// the rest of the collection with: every problem is reported at once, not the environment's first.
    private(set) var withErrors: ResolvedEnvironment?
    /// The root names of the variables the templates of the environment files read.
    private(set) var read: Set<String> = []

    /// The environment names available in the directory (hidden files aside, as for request files), sorted; nil when it
    /// cannot be listed, with the system's reason. Listed once, when the resolver is made.
    private let listing: Result<[String], SystemError>

    /// Why the directory cannot be listed: `errno`.
    private struct SystemError: Error {
        var code: Int32
    }

    init(directory: (path: String, absolute: String), processEnvironment: ProcessEnvironment,
         commandLine: [(name: String, value: String)], random: RandomValues) {
        self.directory = directory
        merger = EnvironmentMerger(processEnvironment: processEnvironment, commandLine: commandLine, random: random)
        if let entries = FileSystem.visibleEntries(of: directory.absolute) {
            listing = .success(Set(entries.map(\.name).filter(Discovery.hasYAMLExtension).map(Discovery.withoutExtension)).sorted())
        } else {
            listing = .failure(SystemError(code: errno))
        }
    }

    /// The environment names available in the directory, sorted (none when it cannot be listed).
    var availableNames: [String] { (try? listing.get()) ?? [] }

    /// `available environments: base, qa`, the directory named when it is not the `environments` of the current
    /// directory (found above it); that there are none otherwise.
    private var availableList: String {
        availableNames.isEmpty ? "there are no environment files in '\(directory.path)'"
            : "available environments\(directory.path == "environments" ? "" : " in '\(directory.path)'"): "
                + availableNames.joined(separator: ", ")
    }

    /// Resolves `name`; nil (with diagnostics) when it or its chain is broken.
    mutating func resolve(_ name: String) -> ResolvedEnvironment? {
        // A directory that cannot be listed (too many open files, no permission) would read as holding no environment.
        if case .failure(let error) = listing {
            diagnostics.add(.error("cannot read the environments directory: \(SystemErrorText.words(error.code))", path: directory.path,
                                   at: nil, suggestion: error.code == EACCES ? "check its permissions" : nil))
            return nil
        }
        guard availableNames.contains(name) else {
            let available = availableNames
            let list = availableList
            // Names that differ only in digits (`qa-2`, `qa-3`; `prod`, `prod2`) are other systems, not typos; a path or
            // a file name is told the name without them.
            let last = name.contains("/") ? String(name.split(separator: "/").last ?? "") : name
            let written = Discovery.hasYAMLExtension(last) ? Discovery.withoutExtension(last) : last
            let withoutDigits = { (text: String) in text.filter { !$0.isNumber } }
            let candidates = available.filter { $0 == written || withoutDigits($0) != withoutDigits(written) }
            let suggestion = Suggestions.didYouMean(written, among: candidates).map { "\($0) (\(list))" } ?? list
            diagnostics.add(.error("unknown environment '\(name)'", path: nil, at: nil, suggestion: suggestion))
            return nil
        }
        guard let (chain, complete) = readChain(name) else { return nil }
        for definition in chain { definition.forEachTemplate { read.formUnion($0.variableNames) } }
        var merger = self.merger
        let resolved = merger.merge(chain)
        diagnostics.add(contentsOf: merger.diagnostics.diagnostics)
        guard complete, !merger.diagnostics.hasErrors else {
            withErrors = resolved
            return nil
        }
        return resolved
    }

    /// The definitions from `name` to its farthest base, and whether they are without errors (a file whose errors are
    /// all in `options` is in the chain, to be resolved and checked with them); nil on a missing base, a cycle or a file
    /// broken elsewhere. A broken file's `extends` is still followed, so that a cycle or a missing base is reported with
    /// its other errors.
    private mutating func readChain(_ name: String) -> (chain: [EnvironmentDefinition], complete: Bool)? {
        var chain: [EnvironmentDefinition] = []
        var names: [String] = []
        var current = name
        var complete = true
        while true {
            let file = read(current)
            names.append(current)
            if let definition = file.definition { chain.append(definition) }
            complete = complete && file.valid
            guard let extends = file.extends else { return chain.count == names.count ? (chain, complete) : nil }
            if names.contains(extends.value) {
                let cycle = (names + [extends.value]).joined(separator: " -> ")
                diagnostics.add(.error("'extends: \(extends.value)' closes a cycle: \(cycle)", path: file.path,
                                       at: extends.mark, suggestion: "remove 'extends' from one environment of the cycle"))
                return nil
            }
            guard checkExists(extends.value, at: extends.mark, in: file.path) else { return nil }
            current = extends.value
        }
    }

    /// Whether the environment `base` that an `extends` at `mark` of `path` names exists; if not, says so.
    private mutating func checkExists(_ base: String, at mark: Mark, in path: String) -> Bool {
        guard !availableNames.contains(base) else { return true }
        diagnostics.add(.error("environment '\(base)' does not exist", path: path, at: mark,
                               suggestion: Suggestions.didYouMean(base, among: availableNames) ?? availableList))
        return false
    }

    /// One environment file as read.
    private struct EnvironmentFile {
        /// Its definition; nil when it has errors outside `options`.
        var definition: EnvironmentDefinition?
        /// Whether it has no errors and its `options.caCert` can be used.
        var valid: Bool
        /// The base its `extends` names, read from the YAML when the file has other errors.
        var extends: Located<String>?
        /// Its path as shown.
        var path: String
    }

    /// Reads and decodes one environment file.
    private mutating func read(_ name: String) -> EnvironmentFile {
        let existing = Discovery.extensions.map { name + $0 }.filter { FileSystem.kind(of: PathText.join(directory.absolute, $0)).exists }
        let fileName = existing.first ?? name + ".yaml"
        let display = PathText.join(directory.path, fileName)
        if existing.count > 1 {
            let paths = existing.map { PathText.join(directory.path, $0) }
            diagnostics.add(.error("two files define the environment '\(name)': \(paths.joined(separator: " and "))", path: nil, at: nil,
                                   suggestion: "remove or rename one of them"))
            return EnvironmentFile(definition: nil, valid: false, extends: nil, path: display)
        }
        let absolutePath = PathText.join(directory.absolute, fileName)
        guard let document = SourceReader.read(path: display, absolutePath: absolutePath)?.document else {
            diagnostics.add(.error("cannot read the file: \(FileSystem.unreadableReason(absolutePath))", path: display, at: nil))
            return EnvironmentFile(definition: nil, valid: false, extends: nil, path: display)
        }
        let (decoded, checkable) = FileDecoding.environmentForChecking(document, name: name, absolutePath: absolutePath)
        sources.store(decoded.text, for: display)
        credentials.formUnion(decoded.credentials)
        diagnostics.add(contentsOf: decoded.diagnostics)
        guard let definition = checkable else {
            let extends = document.root?["extends"].flatMap { node in node.string.map { Located($0, at: node.mark) } }
            return EnvironmentFile(definition: nil, valid: false, extends: extends, path: display)
        }
        if let caCert = definition.options.caCert, let problem = CertificateFile.diagnostic(for: caCert, in: display) {
            diagnostics.add(problem)
            return EnvironmentFile(definition: definition, valid: false, extends: definition.extends, path: display)
        }
        return EnvironmentFile(definition: definition, valid: decoded.value != nil, extends: definition.extends, path: display)
    }
}
