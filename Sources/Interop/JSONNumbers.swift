import HTTPCore

/// The numbers of JSON text that `JSONValue` (64-bit integers and doubles) cannot keep: parsed and written back, they
/// would be another number.
enum JSONNumbers {
    /// The first number of `json` (valid JSON text) that would change when written from its `JSONValue`: out of a
    /// double's range (`1e400`), an integer past 64 bits written as a double, or more digits than a double holds
    /// (`0.10000000000000000001`); nil when every number stays the same number (`1.50` as `1.5` does).
    static func firstChanged(in json: String) -> String? {
        var inString = false
        var escaped = false
        var index = json.startIndex
        while index < json.endIndex {
            let character = json[index]
            guard !inString, character == "-" || ("0"..."9").contains(character) else {
                if escaped {
                    escaped = false
                } else if character == "\"" {
                    inString.toggle()
                } else {
                    escaped = inString && character == "\\"
                }
                index = json.index(after: index)
                continue
            }
            let end = json[index...].firstIndex { !("0"..."9").contains($0) && !"+-.eE".contains($0) } ?? json.endIndex
            if !keepsValue(json[index..<end]) { return String(json[index..<end]) }
            index = end
        }
        return nil
    }

    /// The note for a body written as text because of `number`.
    static func keptAsText(because number: String) -> String {
        "the number \(number) would change in a json: body (its numbers are 64-bit integers and doubles): the body is text:, as written"
    }

    /// Whether the number `text` is the same number once read into a `JSONValue` and written back.
    static func keepsValue(_ text: Substring) -> Bool {
        let written: String
        switch try? JSONValue.parse(String(text)) {
        case .int(let int)?: written = String(int)
        case .double(let double)? where double.isFinite: written = double.description
        default: return false
        }
        guard let value = canonical(text) else { return false }
        return value == canonical(Substring(written))
    }

    /// A JSON number's value as its significant digits and a power of ten (`1.50` and `15e-1` both give `15e-1`, any
    /// zero `0`); nil when the exponent is too large to count.
    static func canonical(_ text: Substring) -> String? {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : text
        let exponentStart = unsigned.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = unsigned[..<(exponentStart ?? unsigned.endIndex)]
        guard let exponent = exponentStart.map({ Int(unsigned[unsigned.index(after: $0)...]) }) ?? 0 else { return nil }
        let dot = mantissa.firstIndex(of: ".")
        let fraction = dot.map { mantissa[mantissa.index(after: $0)...] } ?? ""
        var digits = (mantissa[..<(dot ?? mantissa.endIndex)] + fraction).drop { $0 == "0" }
        guard !digits.isEmpty else { return "0" }
        var (power, overflow) = exponent.subtractingReportingOverflow(fraction.count)
        while !overflow, digits.last == "0" {
            digits.removeLast()
            (power, overflow) = power.addingReportingOverflow(1)
        }
        return overflow ? nil : (negative ? "-" : "") + digits + "e" + String(power)
    }
}
