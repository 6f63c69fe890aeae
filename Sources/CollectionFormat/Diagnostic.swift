internal import Synchronization
public import YAML

/// One problem found while reading a collection: where it is, what is wrong, and how to fix it.
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad the problem is; any error makes a collection invalid.
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    public var severity: Severity
    /// The file as the user named it (relative where possible), or nil for problems of the command line.
    public var path: String?
    /// Where in the file, or nil when the problem concerns the whole file.
    public var mark: Mark?
    public var message: String
    /// A hint, rendered as `= help: ...`.
    public var suggestion: String?
    /// Further facts, each rendered as `= note` lines after the source line (expected and actual values).
    public var notes: [String] = []
    /// Whether the problem is in a secret's definition, whose quoted line may hold the secret written under a mistyped
    /// key (`defualt: hunter2`): its values are hidden when quoted.
    public var quotesSecret = false
    /// Whether the key the diagnostic points at, the first of its line, is not named (it may be the secret): the quoted
    /// line hides it too.
    public var hidesKey = false

    public init(_ severity: Severity = .error, path: String?, mark: Mark?, message: String, suggestion: String? = nil) {
        self.severity = severity
        self.path = path
        self.mark = mark
        self.message = message
        self.suggestion = suggestion
    }

    /// Builds an error diagnostic.
    public static func error(_ message: String, path: String?, at mark: Mark?, suggestion: String? = nil) -> Diagnostic {
        Diagnostic(.error, path: path, mark: mark, message: message, suggestion: suggestion)
    }

    /// Builds a warning diagnostic.
    public static func warning(_ message: String, path: String?, at mark: Mark?, suggestion: String? = nil) -> Diagnostic {
        Diagnostic(.warning, path: path, mark: mark, message: message, suggestion: suggestion)
    }

    /// The first line of the rendered form: `path:line:col: error: message`.
    public var description: String {
        var location = ""
        if let path {
            location = path
            if let mark { location += ":\(mark.line):\(mark.column)" }
            location += ": "
        }
        return "\(location)\(severity.rawValue): \(message)"
    }
}

/// Collects every problem of a run so all of them are reported, not only the first.
public struct DiagnosticBag: Sendable {
    public private(set) var diagnostics: [Diagnostic] = []
    private var seen: Set<Diagnostic> = []

    public init() {}

    /// Adds a diagnostic unless the same one (path, mark, message) was already reported.
    public mutating func add(_ diagnostic: Diagnostic) {
        if seen.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
    }

    /// Adds a diagnostic or, when one with the same severity, place and message was reported, the notes it lacks: a
    /// problem in a used file found through several `use:` steps is reported once, naming each of them.
    package mutating func addMergingNotes(_ diagnostic: Diagnostic) {
        guard let index = diagnostics.firstIndex(where: {
            ($0.severity, $0.path, $0.mark, $0.message) == (diagnostic.severity, diagnostic.path, diagnostic.mark, diagnostic.message)
        }) else { return add(diagnostic) }
        var merged = diagnostics[index]
        merged.notes += diagnostic.notes.filter { !merged.notes.contains($0) }
        seen.remove(diagnostics[index])
        seen.insert(merged)
        diagnostics[index] = merged
    }

    /// Adds several diagnostics.
    public mutating func add(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { add(diagnostic) }
    }

    /// Whether any error (not only warnings) was reported.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics sorted by path, then position; problems without a path come first.
    public var sorted: [Diagnostic] { Self.sort(diagnostics) }

    /// Sorts diagnostics by path then mark, keeping the reporting order for ties.
    public static func sort(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        sort(diagnostics, by: \.self)
    }

    /// `items` in the order of their diagnostics (path, then position; the order given where those are the same).
    public static func sort<Item>(_ items: [Item], by diagnostic: (Item) -> Diagnostic) -> [Item] {
        items.enumerated().sorted { lhs, rhs in
            let (leftDiagnostic, rightDiagnostic) = (diagnostic(lhs.element), diagnostic(rhs.element))
            let left = (leftDiagnostic.path ?? "", leftDiagnostic.mark?.line ?? 0, leftDiagnostic.mark?.column ?? 0, lhs.offset)
            let right = (rightDiagnostic.path ?? "", rightDiagnostic.mark?.line ?? 0, rightDiagnostic.mark?.column ?? 0, rhs.offset)
            return left < right
        }.map(\.element)
    }
}

/// The texts of the files a run may show lines of, by displayed path, for rendering source lines.
///
/// Shared by reference: a run that decodes its files again as they run stores the text of a file whose
/// request fails, and the reports holding the same cache can show its lines.
public final class SourceCache: Sendable {
    private let texts = Mutex<[String: String]>([:])

    public init() {}

    /// Records the text of a file.
    public func store(_ text: String, for path: String) { texts.withLock { $0[path] = text } }

    /// The paths of every file stored, sorted.
    public var paths: [String] { unorderedPaths.sorted() }

    /// The paths of every file stored, in no particular order.
    public var unorderedPaths: [String] { texts.withLock { Array($0.keys) } }

    /// The text of a file, if it was stored.
    public func text(for path: String) -> String? { texts.withLock { $0[path] } }
}
