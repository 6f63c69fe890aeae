import CollectionFormat
import Foundation

/// Reads a Postman collection (v2.0 or v2.1) and Postman environments into the files of a runner collection: a
/// directory per folder and a request file per request, numbered in the collection's order, and an environment file
/// for the collection's variables and for each environment.
public enum PostmanImport {
    /// What the files give: the files to write, and every problem found.
    public struct Result: Sendable {
        /// The files, paths relative to the output folder, environments first.
        public var files: [(path: String, text: String)] = []
        /// What makes the input untranslatable, each placed in its file; when any, nothing may be written.
        public var errors: [PostmanProblem] = []
        /// What was not translated or deserves a look, placed; the files are still written.
        public var warnings: [PostmanProblem] = []
        /// The environments written, as `--env` names them, the collection's first.
        public var environments: [String] = []
        /// Every credential the files hold, as their JSON text writes them: a quoted line hides them.
        public var credentials: [String] = []
        /// The secrets the environments read: environment, secret and process environment variable.
        public var secrets: [(environment: String, name: String, variable: String)] = []
    }

    /// The name of the environment of the collection's variables.
    public static let collectionEnvironment = "postman"

    /// Translates `collection` and `environments`; `fileReference` maps a file a request names (its `src`) and the path
    /// of the request file (relative to the output folder) to the path that file must write, and whether it exists.
    public static func read(collection: PostmanSource, environments: [PostmanSource],
                            fileReference: @escaping (_ source: String, _ requestFile: String) -> (path: String, exists: Bool)) -> Result {
        var result = Result()
        result.credentials = ([collection] + environments).flatMap(PostmanCredentials.values(in:))
        let notes = PostmanNotes()
        var reader = PostmanCollectionReader(notes: notes, fileReference: fileReference)
        var written: [PostmanEnvironmentDocument] = []
        do throws(PostmanProblem) {
            let root = try collection.root(exportedFrom: "⋯ › Export › Collection v2.1")
            let items = try checkedItems(of: root)
            var own = PostmanEnvironmentDocument(name: collectionEnvironment)
            own.add(try root.list("variable") ?? [], notes: notes)
            notes.collectionValues = Dictionary(own.variables.map { ($0.name, $0.value) }) { first, _ in first }
            // The environments' values, for the query items that insert them, and their secrets' names; read again (and
            // listed) below.
            let read = environments.compactMap { try? environment($0, named: [], notes: PostmanNotes()) }
            notes.environmentValues = read.map { environment in
                Dictionary(environment.variables.map { ($0.name, $0.value) }) { first, _ in first }
            }
            notes.environmentSecrets = Set(read.flatMap { $0.secrets.map(\.name) })
            let folder = PostmanCollectionReader.Folder(directory: "requests/", auth: root["auth"],
                                                        checks: PostmanScripts.checks(of: try root.list("event"), owner: "the collection", notes: notes))
            reader.walk(items, in: folder)
            written.append(own)
        } catch {
            result.errors.append(error)
        }
        for source in environments {
            do throws(PostmanProblem) {
                written.append(try environment(source, named: written.map(\.name), notes: notes))
            } catch {
                result.errors.append(error)
            }
        }
        result.errors += reader.errors
        if result.errors.isEmpty, reader.requests.isEmpty {
            result.errors.append(collection.problem("the collection has no request", at: ["item"]))
        }
        guard result.errors.isEmpty, var own = written.first else { return result }
        for (name, value) in notes.pathValues where !own.defines(name) { own.variables.append((name, value)) }
        for placeholder in notes.placeholders where !own.defines(placeholder) { own.variables.append((placeholder, "")) }
        written[0] = own
        let documents = relativeToBaseURL(reader.requests, environments: &written)
        listUndefined(notes: notes, environments: written, documents: documents.map(\.document))
        result.files = written.map { ("environments/\($0.name).yaml", $0.yaml) } + documents.map { ($0.path, $0.document.yaml) }
        result.environments = written.map(\.name)
        result.secrets = written.flatMap { environment in environment.secrets.map { (environment.name, $0.name, $0.env) } }
        result.warnings = notes.warnings
        return result
    }

    /// The collection's items, once it is known to be a Postman collection of a version this reads.
    private static func checkedItems(of root: PostmanValue) throws(PostmanProblem) -> [PostmanValue] {
        guard root.isObject else {
            throw root.problem("not a Postman collection: the file holds \(root.json.kindName), not an object with 'info' and 'item'")
        }
        if root["info"] == nil, root["requests"] != nil || root["folders"] != nil || root["order"] != nil {
            throw root.problem("a Postman collection v1, which runner does not read", suggestion: Self.conversionHint)
        }
        guard let info = root["info"], info.isObject else {
            throw root.problem("not a Postman collection: it has no 'info' object", suggestion: "export the collection from Postman (⋯ › Export › Collection v2.1)")
        }
        if let schema = try info.string("schema") {
            let version = schema.components(separatedBy: "/collection/v").dropFirst().first?.split(separator: "/").first.map(String.init) ?? "unknown"
            if version.hasPrefix("1.") {
                throw info["schema"]?.problem("a Postman collection v\(version), which runner does not read", suggestion: Self.conversionHint)
                    ?? root.problem("a Postman collection v1")
            }
            guard ["2.0", "2.1"].contains(version) || version.hasPrefix("2.0.") || version.hasPrefix("2.1.") else {
                throw info["schema"]?.problem("the collection schema version \(version) is not supported: runner reads v2.0 and v2.1",
                                              suggestion: "export it from Postman as Collection v2.1 (⋯ › Export)")
                    ?? root.problem("unsupported schema")
            }
        }
        guard let items = try root.list("item") else { throw root.problem("not a Postman collection: it has no 'item' list") }
        return items
    }

    /// How to turn a v1 collection into one this reads.
    private static let conversionHint = "export it again from Postman as Collection v2.1 (⋯ › Export), or convert it with "
        + "`npx postman-collection-transformer convert -i old.json -o new.json -j 1.0.0 -p 2.1.0`"

    /// A Postman environment export (`{name, values: [{key, value, type, enabled}]}`) as an environment over the
    /// collection's, named after it (unique among `taken`).
    private static func environment(_ source: PostmanSource, named taken: [String], notes: PostmanNotes) throws(PostmanProblem)
        -> PostmanEnvironmentDocument {
        let root = try source.root(exportedFrom: "Environments › ⋯ › Export")
        guard root.isObject, let values = try root.list("values") else {
            throw root.problem("not a Postman environment: it has no 'values' list",
                               suggestion: "export the environment from Postman (Environments › ⋯ › Export)")
        }
        let fileName = URL(fileURLWithPath: source.path).deletingPathExtension().lastPathComponent
        let base = RequestDocument.slug(try root.string("name") ?? fileName, or: "environment", limit: 60)
        let name = RequestDocument.unusedName(base, separator: "-", isTaken: taken.contains)
        var environment = PostmanEnvironmentDocument(name: name, extends: collectionEnvironment)
        environment.add(values, notes: notes)
        return environment
    }

    /// When every URL starts with the same variable (`{{ baseUrl }}/users`) and an environment defines it: URLs
    /// relative to it, and `baseURL: "{{ baseUrl }}"` in each environment that defines it.
    private static func relativeToBaseURL(_ requests: [(path: String, document: RequestDocument)],
                                          environments: inout [PostmanEnvironmentDocument]) -> [(path: String, document: RequestDocument)] {
        guard let first = requests.first?.document.url, first.hasPrefix("{{ "), let close = first.range(of: " }}") else { return requests }
        let prefix = String(first[..<close.upperBound])
        let variable = String(first[first.index(first.startIndex, offsetBy: 3)..<close.lowerBound])
        let isShared = requests.allSatisfy { request in
            let url = request.document.url
            return url.hasPrefix(prefix) && (url.count == prefix.count || url.dropFirst(prefix.count).hasPrefix("/"))
        }
        guard VariablePath.isValidName(variable), isShared, environments.contains(where: { $0.defines(variable) }) else { return requests }
        for index in environments.indices where environments[index].defines(variable) { environments[index].baseURL = "{{ \(variable) }}" }
        return requests.map { request in
            var document = request.document
            let rest = String(document.url.dropFirst(prefix.count))
            document.url = rest.hasPrefix("/") ? rest : "/" + rest
            return (request.path, document)
        }
    }

    /// Lists each variable the templates use that no environment written defines and no request captures.
    private static func listUndefined(notes: PostmanNotes, environments: [PostmanEnvironmentDocument], documents: [RequestDocument]) {
        let captured = Set(documents.flatMap { $0.capture.map(\.name) })
        for use in notes.uses where !captured.contains(use.name) && !environments.contains(where: { $0.defines(use.name) }) {
            notes.warn("the variable '\(use.name)' is defined in no environment written and captured by no request", at: use.place,
                       suggestion: "add it to environments/\(collectionEnvironment).yaml, give the Postman environment that defines it "
                       + "with --environment, or pass --var \(use.name)=VALUE")
        }
    }
}

/// Walks a collection's items: a directory per folder, a request file per request, in order, with the auth and test
/// scripts of the folders above each request.
struct PostmanCollectionReader {
    /// What the items of a folder (or of the collection) inherit.
    struct Folder {
        /// The directory the folder's files go in, relative to the output folder: `requests/`, `requests/01-users/`.
        var directory: String
        /// The nearest auth written above.
        var auth: PostmanValue?
        /// The checks of the test scripts above.
        var checks: PostmanChecks
    }

    let notes: PostmanNotes
    let fileReference: (_ source: String, _ requestFile: String) -> (path: String, exists: Bool)
    private(set) var requests: [(path: String, document: RequestDocument)] = []
    private(set) var errors: [PostmanProblem] = []

    init(notes: PostmanNotes, fileReference: @escaping (_ source: String, _ requestFile: String) -> (path: String, exists: Bool)) {
        self.notes = notes
        self.fileReference = fileReference
    }

    /// Reads `items` into files under `folder`, prefixed `01-`, `02-`… so that runner's order is the collection's.
    mutating func walk(_ items: [PostmanValue], in folder: Folder) {
        let width = max(2, String(items.count).count)
        for (offset, item) in items.enumerated() {
            let number = String(repeating: "0", count: width - String(offset + 1).count) + String(offset + 1)
            do throws(PostmanProblem) {
                guard item.isObject else { throw item.problem("an item is \(item.json.kindName), not an object") }
                let name = try item.string("name") ?? "request \(offset + 1)"
                let slug = number + "-" + RequestDocument.slug(name, or: "request", limit: 60)
                let auth = Self.nearest(item["auth"] ?? item["request"]?["auth"], above: folder.auth)
                let checks = PostmanScripts.checks(of: try item.list("event"), owner: "'\(name)'", notes: notes).inheriting(folder.checks)
                if let children = try item.list("item") {
                    let before = requests.count
                    walk(children, in: Folder(directory: folder.directory + slug + "/", auth: auth, checks: checks))
                    if requests.count == before { notes.warn("the folder '\(name)' has no request: no directory is written", at: item) }
                } else if let request = item["request"] {
                    let path = folder.directory + slug + ".yaml"
                    let reference = fileReference
                    let translation = PostmanRequestTranslation(notes: notes, owner: "'\(name)'") { reference($0, path) }
                    var document = try translation.document(request, name: name, auth: auth)
                    document.options = options(item)
                    checks.apply(to: &document)
                    requests.append((path, document))
                } else {
                    throw item.problem("the item '\(name)' has no 'request' (and no 'item', as a folder has)")
                }
            } catch {
                errors.append(error)
            }
        }
    }

    /// `auth` unless it is absent or `inherit`, else the auth above.
    private static func nearest(_ auth: PostmanValue?, above: PostmanValue?) -> PostmanValue? {
        guard let auth, auth["type"]?.text != "inherit" else { return above }
        return auth
    }

    /// Options from an item's `protocolProfileBehavior`: `followRedirects`, and `strictSSL: false` as `insecure`;
    /// the other settings are listed.
    private func options(_ item: PostmanValue) -> [(key: String, value: YAMLNode)] {
        guard let behavior = item["protocolProfileBehavior"], case .object(let settings) = behavior.json else { return [] }
        var options: [(key: String, value: YAMLNode)] = []
        for setting in settings.members {
            switch (setting.key, setting.value) {
            case ("followRedirects", .bool(let follow)): options.append(("followRedirects", .scalar(String(follow))))
            case ("strictSSL", .bool(false)): options.append(("insecure", .scalar("true")))
            case ("strictSSL", .bool(true)): break
            default:
                notes.warn("the setting '\(setting.key)' is not translated", at: behavior[setting.key] ?? behavior)
            }
        }
        return options
    }
}
