/// What follows `name=` in a curl `-F` (after its `@` or `<` for a file), read as curl reads it: a word, either
/// double-quoted (where `\"` and `\\` are escapes, and text between the closing quote and the next `;` is left out) or
/// running to the first `;` (spaces around it dropped); then `;`-separated attributes (`type=`, `filename=`,
/// `headers=`, `encoder=`, and words curl does not know, which it skips, or, after a `type=`, takes as parameters of
/// the type: `type=text/plain;charset=utf-8`). A file's word also ends at a `,`, which starts another file.
struct CurlFormContent {
    /// One `;key=value` after the word; `key` is empty for a word curl does not know.
    struct Attribute: Equatable {
        let key: String
        var value: String
        /// The attribute as curl names it in a warning.
        var text: String { key.isEmpty ? value : key + "=" + value }
    }

    /// The value, or the file's path.
    private(set) var word = ""
    private(set) var attributes: [Attribute] = []
    /// Whether text stands between the word's closing quote and the next `;` (curl warns and leaves it out).
    private(set) var trailingText = false
    /// Whether a `,` after a file's word names more files for the part (`@a.txt,b.txt`); they are not read.
    private(set) var moreFiles = false

    private let characters: [Character]
    private let wordEnds: Set<Character>
    private var position = 0

    /// Reads `text`, the content of a file part (`isFile`: after its `@`) or of a value part.
    init(_ text: Substring, isFile: Bool = false) {
        characters = Array(text)
        wordEnds = isFile ? [";", ","] : [";"]
        word = nextWord(isMain: true)
        moreFiles = position < characters.count && characters[position] == ","
        // Where the text of the last `type=` value starts, to take the parameters after it.
        var typeStart: Int?
        while !moreFiles, position < characters.count, characters[position] == ";" {
            position += 1
            skipSpaces()
            if let key = ["type", "filename", "headers", "encoder"].first(where: { hasPrefix($0 + "=") }) {
                position += key.count + 1
                skipSpaces()
                if key == "type" { typeStart = position }
                attributes.append(Attribute(key: key, value: nextWord(isMain: false)))
            } else if case let unknown = nextWord(isMain: false), !unknown.isEmpty {
                guard let typeStart, let type = attributes.lastIndex(where: { $0.key == "type" }) else {
                    attributes.append(Attribute(key: "", value: unknown))
                    continue
                }
                var end = position
                while end > typeStart, characters[end - 1].isWhitespace { end -= 1 }
                attributes[type].value = String(characters[typeStart..<end])
            }
        }
    }

    /// The word at the position: quoted, or up to the next `;` without the spaces around it.
    private mutating func nextWord(isMain: Bool) -> String {
        skipSpaces()
        if position < characters.count, characters[position] == "\"", let quoted = quotedWord(isMain: isMain) { return quoted }
        let start = position
        while position < characters.count, !wordEnds.contains(characters[position]) { position += 1 }
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
                while index < characters.count, !wordEnds.contains(characters[index]) {
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
