/// A path template of an OpenAPI document (`/files/{name}.json`), read to match request paths: a template expression
/// stands for one or more characters of a segment, alone (`{id}`) or beside literal text (`{id}.csv`, `{id}:activate`).
struct OpenAPIPathTemplate: Sendable {
    /// A piece of a segment: literal text, or a `{parameter}`.
    enum Piece: Sendable, Hashable {
        case literal(String)
        case parameter
    }

    /// The template's segments after its leading `/`, each as its pieces.
    let segments: [[Piece]]

    /// The template's literal characters (`/` and `{…}` not counted): the more, the more specific the template.
    let literalCharacters: Int

    /// The number of its template expressions.
    let parameters: Int

    /// Reads `template`; a `{` without its `}` is literal text.
    init(_ template: String) {
        segments = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Self.pieces)
        let pieces = segments.joined()
        literalCharacters = pieces.reduce(0) { count, piece in
            if case .literal(let text) = piece { count + text.count } else { count }
        }
        parameters = pieces.filter { $0 == .parameter }.count
    }

    /// The pieces of one segment: `{id}.csv` is a parameter, then `.csv`; literal text percent-decoded, as the request
    /// path's segments are (`a%2Fb` is the one segment `a/b`).
    private static func pieces(of segment: Substring) -> [Piece] {
        var pieces: [Piece] = []
        var rest = segment
        func literal(_ text: Substring) -> Piece { .literal(text.removingPercentEncoding ?? String(text)) }
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { pieces.append(literal(rest[..<open])) }
            pieces.append(.parameter)
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty || pieces.isEmpty { pieces.append(literal(rest)) }
        return pieces
    }

    /// Whether the template matches a request path's segments (decoded, after the server's base path): as many, each
    /// literal piece as written (scalar by scalar: `e` and a combining accent is not `é`, as a server routes bytes), each
    /// parameter one or more characters.
    func matches(_ pathSegments: [String]) -> Bool {
        pathSegments.count == segments.count
            && zip(segments, pathSegments).allSatisfy { pieces, segment in Self.matches(pieces[...], segment.unicodeScalars[...]) }
    }

    /// Whether `pieces` match all of `text`, trying each length a parameter may take.
    private static func matches(_ pieces: ArraySlice<Piece>, _ text: Substring.UnicodeScalarView) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            let scalars = literal.unicodeScalars
            return text.starts(with: scalars) && matches(pieces.dropFirst(), text.dropFirst(scalars.count))
        case .parameter:
            guard !text.isEmpty else { return false }
            var end = text.index(after: text.startIndex)
            while true {
                if matches(pieces.dropFirst(), text[end...]) { return true }
                guard end < text.endIndex else { return false }
                end = text.index(after: end)
            }
        }
    }

    /// Whether the template is more specific than `other`, both matching a path: more literal characters (a path
    /// without templates has the most), then fewer parameters.
    func isMoreSpecific(than other: OpenAPIPathTemplate) -> Bool {
        (other.literalCharacters, parameters) < (literalCharacters, other.parameters)
    }
}
