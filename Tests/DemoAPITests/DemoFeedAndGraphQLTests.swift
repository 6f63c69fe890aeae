import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Demo API: the XML feed and GraphQL")
struct DemoFeedAndGraphQLTests {
    @Test("the feed is well-formed Atom with an entry per user, escaped, and needs a login")
    func feed() async throws {
        try await DemoHarness.with { demo in
            #expect(try await demo.fetch("/api/feed.xml").status == 401)
            let auth = try await demo.login()
            _ = try await demo.send("/api/users", json: #"{"name":"<b>&co","tags":["a\"b"]}"#, headers: [auth])
            let feed = try await demo.fetch("/api/feed.xml", headers: [auth])
            #expect(feed.status == 200)
            #expect(feed.header("Content-Type") == "application/atom+xml; charset=utf-8")
            #expect(XMLParser(data: Data(feed.body)).parse(), "\(feed.text)")
            #expect(feed.text.contains(#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:demo="https://demo-api.example/ns">"#))
            #expect(feed.text.components(separatedBy: "<entry>").count - 1 == 4)
            #expect(feed.text.contains("<title>ada</title>\n    <updated>2025-01-01T00:00:00Z</updated>\n    <demo:age>36</demo:age>"))
            #expect(feed.text.contains(#"<title>&lt;b&gt;&amp;co</title>"#))
            #expect(feed.text.contains(#"<category term="a&quot;b"/>"#))
        }
    }

    @Test("a query with variables and an operation name answers data in the selection's shape")
    func query() async throws {
        try await DemoHarness.with { demo in
            let auth = try await demo.login()
            let one = try await graphql(demo, auth, #"""
                {"query": "query User($id: ID!) { user(id: $id) { id name age tags __typename } } query Other { users { id } }",
                 "variables": {"id": 3}, "operationName": "User"}
                """#)
            #expect(one.status == 200)
            let user = try #require((one.json["data"] as? [String: Any])?["user"] as? [String: Any])
            #expect(user["id"] as? String == "3")
            #expect(user["name"] as? String == "grace")
            #expect(user["age"] as? Int == 85)
            #expect(user["tags"] as? [String] == ["admin", "staff"])
            #expect(user["__typename"] as? String == "User")

            let list = try await graphql(demo, auth, ##"{"query": "# every user\n{ people: users { name }, nobody: user(id: \"99\") { name } }"}"##)
            let data = try #require(list.json["data"] as? [String: Any])
            #expect((data["people"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["ada", "alan", "grace"])
            #expect(data["nobody"] is NSNull)
        }
    }

    @Test("GraphQL errors are 200 with an errors list; a body that is not a GraphQL request is 400")
    func errors() async throws {
        try await DemoHarness.with { demo in
            #expect(try await demo.send("/api/graphql", json: #"{"query": "{ users { name } }"}"#).status == 401)
            let auth = try await demo.login()
            let cases: [(body: String, message: String)] = [
                (#"{"query": "{ user(id: 1) { email } }"}"#, "cannot query field 'email' on type 'User'"),
                (#"{"query": "{ users }"}"#, "field 'users' of type '[User!]!' must have a selection of subfields"),
                (#"{"query": "{ user(id: 1) { name "}"#, "unexpected end of the document"),
                (#"{"query": "mutation { users { name } }"}"#, "mutation operations are not supported by the demo API; send a query"),
                (#"{"query": "{ users { ...F } }"}"#, "fragments are not supported by the demo API"),
                (#"{"query": "query A { users { id } } query B { users { id } }"}"#, "the document has 2 operations: send an operationName"),
                (#"{"query": "{ user(id: $id) { id } }"}"#, "variable '$id' is not declared"),
                (#"{"query": "query Q($id: ID) { user(id: $id) { id } }", "variables": {"id": true}}"#,
                 "argument 'id' of field 'user' must be an ID (a string or an integer)"),
            ]
            for (body, message) in cases {
                let response = try await graphql(demo, auth, body)
                #expect(response.status == 200, "\(body)")
                #expect(((response.json["errors"] as? [[String: Any]])?.first?["message"] as? String) == message, "\(body)")
                #expect(response.json["data"] == nil)
            }
            let notGraphQL = try await graphql(demo, auth, #"{"question": "{ users { name } }"}"#)
            #expect(notGraphQL.status == 400)
            #expect(notGraphQL.json["errors"] is [[String: Any]])
            #expect(try await demo.fetch("/api/graphql", headers: [auth]).status == 405)
        }
    }

    private func graphql(_ demo: DemoHarness, _ auth: (String, String), _ body: String) async throws -> DemoResponse {
        try await demo.send("/api/graphql", json: body, headers: [auth])
    }
}
