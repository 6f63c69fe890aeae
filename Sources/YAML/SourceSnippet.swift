/// One source line and a caret line (`    ^`) under the column of a mark, for error messages.
public struct SourceSnippet: Sendable, Hashable {
    /// The source line the mark is on, without its line break.
    public var line: String
    /// Spaces (and the line's own tabs, so the caret aligns) followed by `^` under the mark's column.
    public var caret: String

    /// The snippet for `mark` in `source`, or nil when the mark's line is not in the source.
    ///
    /// Lines end at LF, CR LF or CR, as libyaml counts them; columns count characters (Unicode scalars).
    /// A column past the end of the line puts the caret just after the last character. A line longer
    /// than `maxWidth` is cut to a window around the column, with `…` where text was left out. Control characters are
    /// shown as escapes unless `escapingControls` is false (a line to redact before it is shown).
    public init?(source: String, mark: Mark, maxWidth: Int = 120, escapingControls: Bool = true) {
        guard mark.line >= 1 else { return nil }
        // Works on the UTF-8 bytes and decodes only the window, so a line of megabytes costs one pass.
        var source = source
        let window: (text: String, column: Int, leading: Bool, trailing: Bool)? = source.withUTF8 { bytes in
            guard let line = LineBreaks.range(ofLine: mark.line, in: bytes) else { return nil }
            let scalarCount = LineBreaks.scalarCount(in: bytes, line)
            var start = 0, end = scalarCount
            if scalarCount > maxWidth {
                start = max(0, min(mark.column - 1 - maxWidth / 2, scalarCount - maxWidth))
                end = min(scalarCount, start + maxWidth)
            }
            let lower = LineBreaks.byteOffset(afterScalars: start, in: bytes, line)
            let upper = LineBreaks.byteOffset(afterScalars: end - start, in: bytes, lower..<line.upperBound)
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self),
                    mark.column - start, start > 0, end < scalarCount)
        }
        guard let window else { return nil }
        // Built as bytes: appending to a String a character at a time costs more than the rest on a long line.
        var prefix: [UInt8] = window.leading ? [UInt8(ascii: " ")] : []
        var current = 1
        // A control character (ESC, NUL) is shown as its escape, which would otherwise drive the terminal.
        var text: [UInt8] = []
        text.reserveCapacity(window.text.utf8.count)
        for scalar in window.text.unicodeScalars {
            let escaped = escapingControls && ControlCharacters.isControl(scalar) ? ControlCharacters.escape(scalar) : nil
            if let escaped { text += escaped.utf8 } else { UTF8.encode(scalar) { text.append($0) } }
            guard current < window.column else { continue }
            if scalar == "\t" {
                prefix.append(UInt8(ascii: "\t"))
            } else {
                for _ in 0..<(escaped?.unicodeScalars.count ?? Self.columns(of: scalar)) { prefix.append(UInt8(ascii: " ")) }
            }
            current += 1
        }
        for _ in current..<max(current, window.column) { prefix.append(UInt8(ascii: " ")) }
        self.line = (window.leading ? "…" : "") + String(decoding: text, as: UTF8.self) + (window.trailing ? "…" : "")
        self.caret = String(decoding: prefix, as: UTF8.self) + "^"
    }

    /// How many columns a terminal gives `scalar`: two for East Asian wide and fullwidth characters (CJK, Hangul, emoji),
    /// none for a combining mark or a joiner, one otherwise; so that the caret stands under the text on screen.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        // Below U+00A0 (ASCII, and C1 controls, which are shown escaped) every scalar is one column: a window of a long
        // line asks for thousands, and a general category is a table search.
        if scalar.value < 0xA0 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return wide.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// The ranges of East Asian wide and fullwidth characters (Unicode's EastAsianWidth W and F, in the blocks terminals
    /// draw two columns wide).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// The line followed by the caret line.
    public var rendered: String {
        line + "\n" + caret
    }
}
