internal import LoopbackHTTP
internal import NIOHTTP1

/// `GET /api/feed.xml`: the users as an Atom feed, for XPath examples with namespaces.
extension DemoRouter {
    /// The namespace of the demo API's own elements in the feed (`demo:age`).
    static let feedNamespace = "https://demo-api.example/ns"

    /// An Atom feed (default namespace `http://www.w3.org/2005/Atom`) with one `entry` per user, by ascending id:
    /// `id`, `title` (the name), a `category` per tag and `demo:age` when known.
    func feed(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        let entries = users.users(taggedWithAll: []).map { user in
            let age = user.age.map { "\n    <demo:age>\($0)</demo:age>" } ?? ""
            let categories = user.tags.map { "\n    <category term=\"\(Self.escapedXML($0))\"/>" }.joined()
            return """
              <entry>
                <id>urn:demo-api:users:\(user.id)</id>
                <title>\(Self.escapedXML(user.name))</title>
                <updated>2025-01-01T00:00:00Z</updated>\(age)\(categories)
              </entry>

            """
        }
        let xml = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:demo="\(Self.feedNamespace)">
          <title>Demo API users</title>
          <id>urn:demo-api:users</id>
          <updated>2025-01-01T00:00:00Z</updated>
        \(entries.joined())</feed>

        """
        writer.send(.ok, contentType: "application/atom+xml; charset=utf-8", body: Array(xml.utf8))
    }

    /// Text with `&`, `<`, `>` and `"` escaped, for element content and attribute values.
    static func escapedXML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
