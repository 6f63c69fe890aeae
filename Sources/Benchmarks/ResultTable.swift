import Foundation

/// Whether a measured figure meets its target.
enum Verdict: String, Sendable {
    case pass = "PASS"
    case miss = "MISS"

    /// PASS when `condition` holds.
    init(_ condition: Bool) { self = condition ? .pass : .miss }
}

/// One line of the printed table.
struct ResultRow: Sendable {
    /// What was measured, e.g. `throughput demo-api sequential`.
    var measure: String
    /// The unit of the runner and raw figures.
    var unit: String
    /// The runner's figure, formatted.
    var runner: String
    /// The raw client's figure, formatted, or "" when there is none.
    var raw: String = ""
    /// runner/raw or another comparison, formatted, or "".
    var ratio: String = ""
    /// The target in words, or "".
    var target: String = ""
    /// The verdict against the target, or nil when the row has none.
    var verdict: Verdict? = nil
}

/// Renders rows as an aligned text table: text columns left, figures right.
enum ResultTable {
    private static let rightAligned: Set<Int> = [2, 3, 4]

    /// The table as lines of text, with a heading line and a rule under it; `against` heads the column of the
    /// figures the runner's are compared with.
    static func render(_ rows: [ResultRow], against: String = "raw") -> String {
        let headings = ["measure", "unit", "runner", against, "ratio", "target", ""]
        let cells = [headings] + rows.map {
            [$0.measure, $0.unit, $0.runner, $0.raw, $0.ratio, $0.target, $0.verdict?.rawValue ?? ""]
        }
        let widths = headings.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        let lines = cells.map { line in
            line.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - line[column].count)
                return rightAligned.contains(column) ? padding + line[column] : line[column] + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return ([lines[0], rule] + lines.dropFirst()).joined(separator: "\n")
    }
}

/// Number formats used in the table.
enum Figure {
    /// A whole number with thousands separators: 12,345.
    static func whole(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var grouped = ""
        for (offset, character) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 && character != "-" { grouped.append(",") }
            grouped.append(character)
        }
        return String(grouped.reversed())
    }

    /// A value with `places` decimals: 0.83.
    static func decimal(_ value: Double, places: Int = 2) -> String { String(format: "%.\(places)f", value) }

    /// Bytes as megabytes (10^6 bytes) with one decimal: 23.4.
    static func megabytes(_ bytes: Int) -> String { decimal(Double(bytes) / 1_000_000, places: 1) }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
