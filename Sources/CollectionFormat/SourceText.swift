import YAML

/// The text of one file split into lines, for locating positions inside scalars.
struct SourceText: Sendable {
    /// The path as displayed in diagnostics.
    let path: String
    let text: String
    private let lines: [[Unicode.Scalar]]

    init(path: String, text: String) {
        self.path = path
        self.text = text
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
    }

    /// Maps the offset of a `{{` inside a scalar's text to its mark in the file.
    ///
    /// For plain and quoted scalars the n-th `{{` of the text is the n-th `{{` of the source from the
    /// scalar's start (escapes and folding change offsets, not the order of braces); block scalars
    /// and braces that cannot be found point at the scalar's start.
    func braceLocator(for scalar: Scalar, at mark: Mark) -> (Int) -> Mark {
        guard scalar.style != .literal, scalar.style != .folded else { return { _ in mark } }
        let textOffsets = Self.braceOffsets(in: Array(scalar.text.unicodeScalars))
        guard !textOffsets.isEmpty else { return { _ in mark } }
        let sourceMarks = braceMarks(from: mark, count: textOffsets.count)
        return { offset in
            guard let position = textOffsets.firstIndex(of: offset), position < sourceMarks.count else { return mark }
            return sourceMarks[position]
        }
    }

    /// Offsets of non-overlapping `{{` pairs, scanning left to right.
    private static func braceOffsets(in scalars: [Unicode.Scalar]) -> [Int] {
        var offsets: [Int] = []
        var index = 0
        while index + 1 < scalars.count {
            if scalars[index] == "{" && scalars[index + 1] == "{" {
                offsets.append(index)
                index += 2
            } else {
                index += 1
            }
        }
        return offsets
    }

    /// Marks of the first `count` `{{` pairs at or after `start`.
    private func braceMarks(from start: Mark, count: Int) -> [Mark] {
        var marks: [Mark] = []
        var line = start.line - 1
        var column = start.column - 1
        while line < lines.count, line >= 0, marks.count < count {
            let characters = lines[line]
            while column + 1 < characters.count, marks.count < count {
                if characters[column] == "{" && characters[column + 1] == "{" {
                    marks.append(Mark(line: line + 1, column: column + 1))
                    column += 2
                } else {
                    column += 1
                }
            }
            line += 1
            column = 0
        }
        return marks
    }
}
