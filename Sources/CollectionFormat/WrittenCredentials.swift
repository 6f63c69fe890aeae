import Foundation
import HTTPCore
import YAML

/// Credentials a file writes as they are (a `bearer:` token, a password, a credential header's value, a secret's
/// `default:`), which every output hides as it hides secrets: a YAML alias may show one where no rule of a key hides it
/// (`status: *token`, `method: *token`).
enum WrittenCredentials {
    /// The texts of the credentials written in the document whose root is `root`; a template, a JSONPath, a matcher or
    /// a capture's source written under such a key is none.
    static func texts(in root: Node?) -> [String] {
        var found: [String] = []
        func add(_ text: String) {
            guard !text.isEmpty else { return }
            // Beside templates, the text written between them (`abc12345{{ x }}`), but a scheme word (`Bearer {{ t }}`) and
            // a shorter text, which a suffix or prefix is more often than a piece of a credential (`{{ pw }}-prod`).
            guard !text.contains("{{") else {
                found += textsBesideTemplates(text).map { withoutSchemeWord($0).trimmingCharacters(in: .whitespaces) }
                    .filter { $0.count >= shortestBesideTemplates }
                return
            }
            found.append(text)
            // `Bearer abc`: the token alone too.
            if let space = text.firstIndex(of: " ") { found.append(String(text[text.index(after: space)...])) }
        }
        func leaves(_ node: Node, cookie: Bool = false) {
            switch node.content {
            case .scalar(let scalar):
                let text = scalar.text
                // A JSONPath, or a shell variable's name (`$API_TOKEN`, warned of as sent as written), is none.
                guard !text.isEmpty, !isPathOrShellVariable(text),
                      ![.null, .bool(true), .bool(false)].contains(scalar.value) else { return }
                guard cookie else { return add(text) }
                // A `Cookie` header's `name=value` pairs: their values (a cookie's name is none).
                for pair in text.split(separator: ";") {
                    let value = pair.firstIndex(of: "=").map { pair[pair.index(after: $0)...] } ?? pair
                    add(value.trimmingCharacters(in: .whitespaces))
                }
            case .mapping(let pairs):
                let keys = pairs.indices.compactMap { pairs.keyText(at: $0) }
                guard !keys.contains(where: checkKeys.contains) else { return }
                for position in pairs.indices where !keys.contains("env") || pairs.keyText(at: position) == "default" {
                    leaves(pairs.value(at: position))
                }
            case .sequence(let items):
                items.forEach { leaves($0) }
            }
        }
        func walk(_ node: Node, under parent: String) {
            switch node.content {
            case .scalar: return
            case .sequence(let items): items.forEach { walk($0, under: parent) }
            case .mapping(let pairs):
                for position in pairs.indices {
                    let key = pairs.keyText(at: position) ?? ""
                    let value = pairs.value(at: position)
                    // What a check reads or a capture takes is no credential written.
                    if ["capture", "expect", "stopWhen"].contains(key) { continue }
                    if key == "secrets", case .mapping(let secrets) = value.content {
                        // A secret's definition: its `default` (a definition written as a text is one too).
                        secrets.indices.forEach { leaves(secrets.value(at: $0)) }
                    } else if isCredential(key, under: parent) || key == "auth" && value.scalar != nil && value.scalar?.text != "none" {
                        leaves(value, cookie: parent == "headers" && key.lowercased() == "cookie")
                    } else {
                        walk(value, under: key)
                    }
                }
            }
        }
        if let root { walk(root, under: "") }
        return found
    }

    /// Whether `key`'s value (in the mapping of `parent`) is a credential: a credential's key, or under `headers:` a
    /// header's name that says so (`X-Api-Key`); but a secret's `default` (read under `secrets:`) and a capture's.
    private static func isCredential(_ key: String, under parent: String) -> Bool {
        guard key.lowercased() != "default" else { return false }
        return NodeDecoder.credentialKey(key) || parent == "headers" && HTTPHeaders.namesCredential(key)
    }

    /// The texts between the templates of `text` (`{{ … }}`, up to its first `}}`).
    private static func textsBesideTemplates(_ text: String) -> [Substring] {
        var texts: [Substring] = [], rest = text[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            texts.append(rest[..<open.lowerBound])
            rest = rest[close.upperBound...]
        }
        return (texts + [rest]).filter { !$0.isEmpty }
    }

    /// `text` without a scheme word before a space at its start (`Bearer `).
    private static func withoutSchemeWord(_ text: Substring) -> Substring {
        let word = text.prefix { $0.isASCII && $0.isLetter }
        guard !word.isEmpty, text.dropFirst(word.count).first == " " else { return text }
        return text.dropFirst(word.count + 1)
    }

    /// Whether `text` is a JSONPath (`$.token`, `$[0]`) or a shell variable's name (`$API_TOKEN`, `${API_TOKEN}`).
    private static func isPathOrShellVariable(_ text: String) -> Bool {
        guard text.hasPrefix("$") else { return false }
        var name = text.dropFirst()
        if name.first == "." || name.first == "[" { return true }
        if name.first == "{" { name = name.dropFirst() }
        if name.last == "}" { name = name.dropLast() }
        guard let first = name.first, first == "_" || first.isASCII && first.isLetter else { return false }
        return name.allSatisfy { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The shortest text written beside a template in a credential's value that is hidden as one.
    static let shortestBesideTemplates = 8

    /// The keys of a matcher and of a capture's source: a mapping holding one is what a check reads.
    private static let checkKeys = Set(FormatKeys.matcher.names + FormatKeys.captureSource.names)
}
