internal import CYAML

/// Turns a libyaml parser failure into a `YAMLError` with a 1-based mark and a readable message.
enum SyntaxErrors {
    /// The error libyaml reported for `parser`, located in `source`.
    static func error(from parser: UnsafePointer<yaml_parser_t>, source: UnsafeBufferPointer<UInt8>) -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "invalid YAML"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(.syntax, "out of memory while parsing YAML", at: Mark(line: 1, column: 1))
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset but no mark.
            let mark = SourcePosition.mark(ofByteOffset: state.problem_offset, in: source)
            return YAMLError(.syntax, problem, at: mark)
        default:
            let problemMark = mark(of: state.problem_mark)
            if isTab(at: problemMark, in: source) {
                return YAMLError(.syntax, "tab character used for indentation", at: problemMark,
                                 suggestion: "indent with spaces; YAML does not allow tabs for indentation")
            }
            if problem == "did not find expected <document start>" {
                // Content after a `...` document end marker is a second document without `---`.
                return TreeBuilder.secondDocument(at: problemMark)
            }
            var message = problem
            let contextMark = mark(of: state.context_mark)
            // A key glued to its value (`page:2` in a block mapping) reads as one text that starts a key with no ':'.
            // Or, before a key on the next line at its indentation, as a text that goes on there (`Authorization:x`).
            let gluedAt = problem == "could not find expected ':'" ? contextMark
                : problem == "mapping values are not allowed in this context" ? textAbove(problemMark, in: source) : nil
            if let gluedAt, let colon = gluedColon(after: gluedAt, in: source) {
                return YAMLError(.syntax, "this line reads as one text, not a key and its value: a key needs a space after its ':'",
                                 at: colon, suggestion: "add a space after the ':'")
            }
            // The file ended inside something (a quoted scalar or a `[` never closed): what is to fix is where that starts.
            let atEnd = (SourcePosition.byteOffset(of: problemMark, in: source) ?? source.count) >= source.count
            // libyaml's context reads "while scanning a quoted scalar": the file ends inside "a quoted scalar". Without one
            // that starts elsewhere, the innermost `[` or `{` left open is found in the text.
            let opened: (inside: String, mark: Mark)? = if let context = state.context.map({ String(cString: $0) }), contextMark != problemMark {
                (["while scanning ", "while parsing "].first(where: context.hasPrefix).map { String(context.dropFirst($0.count)) } ?? context,
                 contextMark)
            } else {
                UnclosedFlow.innermost(in: source).map { ("a " + $0.kind, $0.mark) }
            }
            if atEnd, let (inside, openedAt) = opened {
                let closing = [("quoted scalar", "close the quote"), ("flow sequence", "close it with ']'"), ("flow mapping", "close it with '}'")]
                    .first { inside.hasSuffix($0.0) }.map { "\($0.1) where the value ends" }
                return YAMLError(.syntax, "the file ends inside \(inside) that starts here"
                                     + (problem == "found unexpected end of stream" ? "" : " (\(problem))"),
                                 at: openedAt, suggestion: closing)
            }
            // A context at the problem itself ("while scanning for the next token") adds nothing.
            if let context = state.context.map({ String(cString: $0) }), contextMark != problemMark {
                message += " (\(context) that starts at line \(contextMark.line), column \(contextMark.column))"
            }
            let indentation = indentationSuggestion(for: problem, context: state.context.map { String(cString: $0) },
                                                    startingAt: contextMark, at: problemMark, in: source)
            return YAMLError(.syntax, message, at: problemMark,
                             suggestion: indentation ?? bracketInWordSuggestion(at: problemMark, in: source)
                                ?? strayClosingSuggestion(at: problemMark, in: source) ?? suggestion(forProblem: problem))
        }
    }

    /// What to do when libyaml stopped at or just after a `[` that follows a character of the same word, inside a flow
    /// collection (`{ $.items[0].id: 1 }`): there a `[` starts a list even inside a word, so the word is to be quoted.
    /// Nil elsewhere.
    private static func bracketInWordSuggestion(at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source), UnclosedFlow.innermost(in: source, before: offset) != nil
        else { return nil }
        let ends: Set<UInt8> = Set(" \t,{}\n".utf8)
        var bracket = min(offset, source.count - 1)
        while bracket > 0, source[bracket] != UInt8(ascii: "["), !ends.contains(source[bracket]) || bracket == offset { bracket -= 1 }
        guard bracket > 0, source[bracket] == UInt8(ascii: "["), !ends.union(Set(":[".utf8)).contains(source[bracket - 1]) else {
            return nil
        }
        var start = bracket
        while start > 0, !ends.contains(source[start - 1]) { start -= 1 }
        // To the end of the word, which runs on through spaces inside brackets (`$.items[?(@.id == 1)].name`).
        var (end, depth) = (bracket, 0)
        while end < source.count, source[end] != 0x0A, depth > 0 || !ends.contains(source[end]),
              depth > 0 || !(source[end] == UInt8(ascii: ":") && end + 1 < source.count && ends.contains(source[end + 1])) {
            if source[end] == UInt8(ascii: "[") { depth += 1 } else if source[end] == UInt8(ascii: "]") { depth = max(0, depth - 1) }
            end += 1
        }
        let word = String(decoding: UnsafeBufferPointer(rebasing: source[start..<end]), as: UTF8.self)
        return "quote the text that holds the '[': \"\(word)\" (inside '{ }' or '[ ]', a '[' starts a list, even within a word)"
    }

    /// The column a line misplaced by its indentation belongs at, for libyaml's `problem` at `mark` inside the collection
    /// `context` that starts at `start`: at a list's dashes but no item, indented past the key with a value above it, or
    /// past the keys of its mapping; nil for other problems.
    private static func indentationSuggestion(for problem: String, context: String?, startingAt start: Mark, at mark: Mark,
                                              in source: UnsafeBufferPointer<UInt8>) -> String? {
        switch problem {
        case "did not find expected '-' indicator":
            return notAnItemSuggestion(list: start, at: mark, in: source)
        case "mapping values are not allowed in this context":
            return overIndentedSuggestion(at: mark, in: source)
        case "did not find expected key" where context == "while parsing a block mapping" && start.line < mark.line && start.column <= mark.column:
            return pastKeysSuggestion(mapping: start, at: mark, in: source)
        case "did not find expected node content":
            return emptyItemSuggestion(at: mark, in: source)
        default:
            return nil
        }
    }

    /// What to do with a line at `mark` inside the list whose first dash is at `list` that starts no item (a step's
    /// `expect:` two spaces left of its `request:`): indent it as the keys of the item above are, or make it an item; move
    /// it into the braces of an item written in them. Nil when `list` is no dash.
    private static func notAnItemSuggestion(list: Mark, at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = SourcePosition.byteOffset(of: list, in: source), first < source.count, source[first] == UInt8(ascii: "-"),
              let offset = SourcePosition.byteOffset(of: mark, in: source) else {
            return nil
        }
        // The dash of the item above: the last line before this one that starts with a dash at the list's column.
        var dash = first, lineStart = first - (list.column - 1)
        while let next = nextLineStart(after: lineStart, in: source), next + list.column - 1 < offset {
            lineStart = next
            if source[next + list.column - 1] == UInt8(ascii: "-"), source[next..<next + list.column - 1].allSatisfy({ $0 == 0x20 }) {
                dash = next + list.column - 1
            }
        }
        let item = SourcePosition.mark(ofByteOffset: dash, in: source)
        var key = dash + 1
        while key < source.count, source[key] == 0x20 { key += 1 }
        var keyColumn = list.column + (key - dash)
        if key < source.count, [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(source[key]) {
            return "the item at line \(item.line) is written in '\(UnicodeScalar(source[key]))…', which holds all of it: move "
                + "this line inside, or write the item one key a line, indented past its '-'"
        }
        if key >= source.count || [0x0A, 0x0D, UInt8(ascii: "#")].contains(source[key]) {
            // A dash alone on its line: the item's keys start on the next line that holds one.
            guard let column = firstTextColumn(after: key, in: source), column > list.column else { return nil }
            keyColumn = column
        }
        let place = mark.column == list.column ? "is at the column of the dashes of the list at line \(list.line)"
            : "is in the list at line \(list.line)"
        return "this line \(place) but starts no item: indent it to column \(keyColumn), as the keys of the item above, or start "
            + "a new item with '- '"
    }

    /// The offset where the line after the one holding `offset` starts; nil on the last line.
    private static func nextLineStart(after offset: Int, in source: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = offset
        while index < source.count, source[index] != 0x0A { index += 1 }
        return index + 1 < source.count ? index + 1 : nil
    }

    /// What to do with a line indented past the keys of the mapping that starts at `start`: start it at their column, or,
    /// for an item (`- `, also at their column) of the list that mapping is an item of, at that list's dashes; and at the
    /// column of the line above, when that is further right (a key of the item above). Nil for a key at their column.
    private static func pastKeysSuggestion(mapping start: Mark, at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        let nest = "or under a key with nothing after its ':' to nest it"
        if let offset = SourcePosition.byteOffset(of: mark, in: source), offset < source.count, source[offset] == UInt8(ascii: "-"),
           let keys = SourcePosition.byteOffset(of: start, in: source) {
            // The mapping is a list's item when a dash stands before its first key on its line.
            var dash = keys - 1
            while dash > 0, source[dash] == 0x20 { dash -= 1 }
            if dash >= 0, source[dash] == UInt8(ascii: "-") {
                let item = SourcePosition.mark(ofByteOffset: dash, in: source)
                let place = mark.column == start.column ? "at the column of" : "indented past"
                return "this item is \(place) the keys of the item at line \(start.line) (column \(start.column)): start its '-' at "
                    + "column \(item.column), as the dashes of that list, \(nest)"
            }
        }
        guard mark.column > start.column else { return nil }
        let above = columnOfLineAbove(mark, in: source).flatMap { $0 > mark.column && $0 != start.column ? $0 : nil }
        return "the keys of the mapping that starts at line \(start.line) start at column \(start.column)"
            + (above.map { ", those of the lines above at column \($0): start this line at one of them, " } ?? ": start this line there, ")
            + nest
    }

    /// The column of the text on the last line above `mark` that holds some (not a comment), past a `- ` that starts it.
    private static func columnOfLineAbove(_ mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source) else { return nil }
        var end = offset
        while end > 0, source[end - 1] != 0x0A { end -= 1 }
        while end > 0 {
            var start = end - 1
            while start > 0, source[start - 1] != 0x0A { start -= 1 }
            var text = start
            while text < end, source[text] == 0x20 || source[text] == UInt8(ascii: "-") { text += 1 }
            if text < end - 1, ![0x0A, 0x0D, UInt8(ascii: "#")].contains(source[text]) { return text - start + 1 }
            end = start
        }
        return nil
    }

    /// What to do when an item's `-` stands alone on its line (or before a comment) and the next line is not indented
    /// past it (`-` then `name: x` under it): the item is empty; nil elsewhere.
    private static func emptyItemSuggestion(at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source) else { return nil }
        var start = offset
        while start > 0, source[start - 1] != 0x0A { start -= 1 }
        var above = start
        // The line above, past blank lines.
        repeat {
            guard above > 0 else { return nil }
            above -= 1
            while above > 0, source[above - 1] != 0x0A { above -= 1 }
        } while source[above..<start].allSatisfy { [0x20, 0x0A, 0x0D].contains($0) }
        var dash = above
        while source[dash] == 0x20 { dash += 1 }
        guard source[dash] == UInt8(ascii: "-"), dash - above + 1 >= mark.column else { return nil }
        var rest = dash + 1
        while rest < start, source[rest] == 0x20 { rest += 1 }
        guard rest >= start || [0x0A, 0x0D, UInt8(ascii: "#")].contains(source[rest]) else { return nil }
        let item = SourcePosition.mark(ofByteOffset: dash, in: source)
        return "the item at line \(item.line) is empty: its keys start past its '-' (at column \(item.column + 2)), on its line or "
            + "the lines below"
    }

    /// The column of the first text on the lines after the one holding `offset`, past blank and comment lines.
    private static func firstTextColumn(after offset: Int, in source: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = offset
        while index < source.count {
            while index < source.count, source[index] != 0x0A { index += 1 }
            index += 1
            var column = 1
            while index < source.count, source[index] == 0x20 { index += 1; column += 1 }
            if index < source.count, ![0x0A, 0x0D, UInt8(ascii: "#")].contains(source[index]) { return column }
        }
        return nil
    }

    /// What to do with a key indented more than the key with a value on the line above (`   method: GET` under
    /// `  url: /users`: libyaml reads it as going on with that value): start it at that key's column; nil otherwise.
    private static func overIndentedSuggestion(at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source) else { return nil }
        let lines = String(decoding: UnsafeBufferPointer(rebasing: source[..<offset]), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = lines.last, let above = lines.dropLast().last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let indentation = line.prefix { $0 == " " }.count, aboveIndentation = above.prefix { $0 == " " }.count
        let aboveText = above.dropFirst(aboveIndentation)
        guard indentation > aboveIndentation, !aboveText.hasPrefix("-"), !aboveText.hasPrefix("#"),
              let colon = aboveText.firstRange(of: ": "), !aboveText[colon.upperBound...].allSatisfy(\.isWhitespace),
              !aboveText[..<colon.lowerBound].contains(where: { "\"'{[".contains($0) }) else { return nil }
        let key = aboveText[..<colon.lowerBound]
        guard line.dropFirst(indentation).hasPrefix("- ") else {
            return "this line is indented more than '\(key)' above, so it reads as more of its value: start it at column "
                + "\(aboveIndentation + 1) to make it a key beside it, or quote a value that holds ': '"
        }
        // An item: it belongs with the dashes of the nearest list above it that starts left of it.
        guard let (number, dashes) = lines.enumerated().reversed().lazy.compactMap({ number, text -> (Int, Int)? in
            let width = text.prefix { $0 == " " }.count
            let rest = text.dropFirst(width)
            return width < indentation && (rest.hasPrefix("- ") || rest == "-") ? (number + 1, width + 1) : nil
        }).first else { return nil }
        return "this item is indented more than '\(key)' above, so it reads as more of its value: start its '-' at column "
            + "\(dashes), as the dashes of the list at line \(number)"
    }

    /// What to do with a `]` or `}` where libyaml stopped: it closes nothing open there, or a bracket of the other kind
    /// is open (`[a, b}`); nil for another character, or when one of its kind is open.
    private static func strayClosingSuggestion(at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> String? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source),
              let (closing, opening) = [(UInt8(ascii: "]"), "["), (UInt8(ascii: "}"), "{")].first(where: { $0.0 == source[offset] })
        else { return nil }
        let character = String(UnicodeScalar(closing))
        guard let open = UnclosedFlow.innermost(in: source, before: offset) else {
            return "this '\(character)' closes no '\(opening)': remove it, or add the '\(opening)' it should close"
        }
        let (openedWith, closedWith) = open.kind == "flow sequence" ? ("[", "]") : ("{", "}")
        guard openedWith != opening else { return nil }
        return "the '\(openedWith)' at line \(open.mark.line), column \(open.mark.column) is closed with '\(closedWith)', not '\(character)'"
    }

    /// The mark of the first `:` glued to what follows it (`page:2`) in the plain text starting at `mark`, up to the end
    /// of its line; nil when there is none, or the text is quoted or holds a space before it.
    private static func gluedColon(after mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> Mark? {
        guard let start = SourcePosition.byteOffset(of: mark, in: source), start < source.count,
              ![UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "#")].contains(source[start]) else { return nil }
        var index = start
        while index + 1 < source.count, ![0x0A, 0x0D, 0x20, 0x09].contains(source[index]) {
            if source[index] == UInt8(ascii: ":"), index > start, ![0x0A, 0x0D, 0x20, 0x09].contains(source[index + 1]) {
                return SourcePosition.mark(ofByteOffset: index, in: source)
            }
            index += 1
        }
        return nil
    }

    /// The start of the text on the line above the one of `mark` when that line is indented as much as it (the text
    /// a key's line may go on), skipping blank lines; nil otherwise.
    private static func textAbove(_ mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> Mark? {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source) else { return nil }
        func lineStart(before index: Int) -> Int {
            var start = index
            while start > 0, source[start - 1] != 0x0A { start -= 1 }
            return start
        }
        func indentation(at start: Int) -> Int {
            var index = start
            while index < source.count, source[index] == 0x20 { index += 1 }
            return index - start
        }
        let start = lineStart(before: offset)
        var above = start
        repeat {
            guard above > 0 else { return nil }
            above = lineStart(before: above - 1)
        } while indentation(at: above) < source.count - above && [0x0A, 0x0D].contains(source[above + indentation(at: above)])
        let width = indentation(at: above)
        guard width == indentation(at: start) else { return nil }
        return SourcePosition.mark(ofByteOffset: above + width, in: source)
    }

    /// Converts a 0-based libyaml mark to a 1-based `Mark`.
    static func mark(of mark: yaml_mark_t) -> Mark {
        Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func isTab(at mark: Mark, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let offset = SourcePosition.byteOffset(of: mark, in: source) else { return false }
        return source[offset] == UInt8(ascii: "\t")
    }

    private static func suggestion(forProblem problem: String) -> String? {
        switch problem {
        case "mapping values are not allowed in this context":
            return "quote the value if it contains ': ', or check the indentation of this line"
        case "found character that cannot start any token":
            return "quote the value if it starts with a special character such as @, ` or %"
        case "did not find expected key":
            return "check the indentation: keys of one mapping must start in the same column"
        case "could not find expected ':'":
            return "add ': ' after the key, or quote a value that spans several lines"
        case "found undefined tag handle":
            return "use a known tag such as !!str, or quote the value"
        default:
            return nil
        }
    }
}
