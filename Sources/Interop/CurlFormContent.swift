/// What follows `name=` in a curl `-F` (after its `@` or `<` for a file), read as curl reads it: a word, either
/// double-quoted (where `\"` and `\\` are escapes, and text between the closing quote and the next `;` is left out) or
/// running to the first `;` (spaces around it dropped); then `;`-separated attributes (`type=`, `filename=`,
/// `headers=`, `encoder=`, and words curl does not know, which it skips).
struct CurlFormContent {
    /// One `;key=value` after the word; `key` is empty for a word curl does not know.
    struct Attribute: Equatable {
        let key: String
        let value: String
        /// The attribute as curl names it in a warning.
        var text: String { key.isEmpty ? value : key + "=" + value }
    }

    /// The value, or the file's path.
    private(set) var word = ""
    private(set) var attributes: [Attribute] = []
    /// Whether text stands between the word's closing quote and the next `;` (curl warns and leaves it out).
    private(set) var trailingText = false

    private let characters: [Character]
    private var position = 0

    init(_ text: Substring) {
        characters = Array(text)
        word = nextWord(isMain: true)
        while position < characters.count, characters[position] == ";" {
            position += 1
            skipSpaces()
            if let key = ["type", "filename", "headers", "encoder"].first(where: { hasPrefix($0 + "=") }) {
                position += key.count + 1
                attributes.append(Attribute(key: key, value: nextWord(isMain: false)))
            } else if case let unknown = nextWord(isMain: false), !unknown.isEmpty {
                attributes.append(Attribute(key: "", value: unknown))
            }
        }
    }

    /// The word at the position: quoted, or up to the next `;` without the spaces around it.
    private mutating func nextWord(isMain: Bool) -> String {
        skipSpaces()
        if position < characters.count, characters[position] == "\"", let quoted = quotedWord(isMain: isMain) { return quoted }
        let start = position
        while position < characters.count, characters[position] != ";" { position += 1 }
        var end = position
        while end > start, characters[end - 1].isWhitespace { end -= 1 }
        return String(characters[start..<end])
    }

    /// A double-quoted word from the position, moving past it to the next `;`; nil (not moving) when it is not closed,
    /// which curl then reads as written.
    private mutating func quotedWord(isMain: Bool) -> String? {
        var word = ""
        var index = position + 1
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, characters[index + 1] == "\\" || characters[index + 1] == "\"" {
                word.append(characters[index + 1])
                index += 2
            } else if character == "\"" {
                index += 1
                while index < characters.count, characters[index] != ";" {
                    if isMain, !characters[index].isWhitespace { trailingText = true }
                    index += 1
                }
                position = index
                return word
            } else {
                word.append(character)
                index += 1
            }
        }
        return nil
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    private func hasPrefix(_ prefix: String) -> Bool {
        characters[position...].starts(with: prefix)
    }
}
