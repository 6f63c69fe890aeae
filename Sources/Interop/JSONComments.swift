/// Comments in a JSON body as Postman's editor lets them be written (`// …` to the line's end, `/* … */`), which Postman
/// leaves out when it sends the body (postman-runtime strips them from a raw body in JSON mode).
enum JSONComments {
    /// `text` without its comments (a line comment's line break kept), strings read with their escapes so that a `//`
    /// in one (`"http://…"`) stays; nil when it has none.
    static func stripped(_ text: String) -> String? {
        guard text.contains("//") || text.contains("/*") else { return nil }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        var (inString, escaped, found) = (false, false, false)
        while let scalar = scalars.popFirst() {
            if inString {
                result.append(scalar)
                (inString, escaped) = escaped ? (true, false) : (scalar != "\"", scalar == "\\")
                continue
            }
            if scalar == "/", scalars.first == "/" {
                found = true
                scalars = scalars.drop { $0 != "\n" && $0 != "\r" }
            } else if scalar == "/", scalars.first == "*" {
                found = true
                scalars = scalars.dropFirst()
                while let next = scalars.popFirst(), !(next == "*" && scalars.first == "/") {}
                scalars = scalars.dropFirst()
            } else {
                result.append(scalar)
                inString = scalar == "\""
            }
        }
        return found ? String(result) : nil
    }
}
