import AsyncHTTPClient
import DemoAPICore
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@Suite("Demo API: login and users")
struct DemoUserTests {
    @Test("login gives a token for the right password only; the users resource requires it")
    func login() async throws {
        try await DemoHarness.with { demo in
            let wrong = try await demo.send("/api/login", json: #"{"username":"demo","password":"nope"}"#)
            #expect(wrong.status == 401)
            #expect(wrong.json["error"] is String)
            let malformed = try await demo.send("/api/login", json: "not json")
            #expect(malformed.status == 400)

            #expect(try await demo.fetch("/api/users").status == 401)
            #expect(try await demo.fetch("/api/users", headers: [("Authorization", "Bearer made-up")]).status == 401)
            let authorization = try await demo.login()
            #expect(try await demo.fetch("/api/users", headers: [authorization]).status == 200)
        }
    }

    @Test("create, read, update with If-Match, delete")
    func crud() async throws {
        try await DemoHarness.with { demo in
            let auth = try await demo.login()
            let created = try await demo.send("/api/users", json: #"{"name":"arthur","age":42,"quota":10}"#, headers: [auth])
            #expect(created.status == 201)
            let id = try #require(created.json["id"] as? Int)
            #expect(created.header("Location") == "/api/users/\(id)")
            #expect(created.json["name"] as? String == "arthur")
            #expect(created.text.contains(#""quota":10"#))
            let etag = try #require(created.header("ETag"))

            let fetched = try await demo.fetch("/api/users/\(id)", headers: [auth])
            #expect(fetched.status == 200)
            #expect(fetched.header("ETag") == etag)
            #expect(fetched.json["age"] as? Int == 42)

            let updated = try await demo.send("/api/users/\(id)", method: .PUT, form: "name=zaphod&age=43", headers: [auth, ("If-Match", etag)])
            #expect(updated.status == 200)
            #expect(updated.json["name"] as? String == "zaphod")
            #expect(updated.text.contains(#""age":43"#))
            #expect(updated.json["quota"] as? Int == 10)
            let newTag = try #require(updated.header("ETag"))
            #expect(newTag != etag)

            let stale = try await demo.send("/api/users/\(id)", method: .PUT, json: #"{"age":50}"#, headers: [auth, ("If-Match", etag)])
            #expect(stale.status == 412)
            let unconditional = try await demo.send("/api/users/\(id)", method: .PUT, json: #"{"age":50}"#, headers: [auth])
            #expect(unconditional.json["age"] as? Int == 50)

            #expect(try await demo.fetch("/api/users/\(id)", method: .DELETE, headers: [auth]).status == 204)
            #expect(try await demo.fetch("/api/users/\(id)", headers: [auth]).status == 404)
            #expect(try await demo.fetch("/api/users/\(id)", method: .DELETE, headers: [auth]).status == 404)
        }
    }

    @Test("invalid user fields and list parameters are 422 with a JSON error naming the field")
    func validation() async throws {
        try await DemoHarness.with { demo in
            let auth = try await demo.login()
            let cases: [(String, String?)] = [
                (#"{"age":3}"#, "name"),
                (#"{"name":"x","age":"42"}"#, "age"),
                (#"{"name":"x","quota":-1}"#, "quota"),
                (#"{"name":""}"#, "name"),
                ("[1,2]", nil),
            ]
            for (json, field) in cases {
                let response = try await demo.send("/api/users", json: json, headers: [auth])
                #expect(response.status == 422, "\(json)")
                #expect(response.json["field"] as? String == field, "\(json)")
                #expect(response.json["error"] is String)
            }
            #expect(try await demo.send("/api/users/1", method: .PUT, form: "age=old", headers: [auth]).status == 422)
            #expect(try await demo.fetch("/api/users?per_page=0", headers: [auth]).status == 422)
            #expect(try await demo.fetch("/api/users?page=x", headers: [auth]).status == 422)
            let plain = try await demo.fetch("/api/users", method: .POST, headers: [auth, ("Content-Type", "text/plain")], body: Array("hi".utf8))
            #expect(plain.status == 415)
        }
    }

    @Test("the list pages through users with next links and filters by every given tag")
    func pagination() async throws {
        try await DemoHarness.with { demo in
            let auth = try await demo.login()
            let all = try await demo.fetch("/api/users?per_page=2", headers: [auth])
            let total = try #require(all.json["total"] as? Int)
            #expect(total == 3)  // the seed users
            #expect(all.json["page"] as? Int == 1)
            #expect((all.json["items"] as? [Any])?.count == 2)
            #expect(all.json["next"] as? String == "/api/users?page=2&per_page=2")
            let last = try await demo.fetch("/api/users?page=2&per_page=2", headers: [auth])
            #expect((last.json["items"] as? [Any])?.count == 1)
            #expect(last.json["next"] is NSNull)

            for name in ["one", "two", "three"] {
                _ = try await demo.send("/api/users", json: #"{"name":"\#(name)","tags":["a","b"]}"#, headers: [auth])
            }
            _ = try await demo.send("/api/users", json: #"{"name":"only-a","tags":["a"]}"#, headers: [auth])
            let tagged = try await demo.fetch("/api/users?tag=a&tag=b&per_page=2", headers: [auth])
            #expect(tagged.json["total"] as? Int == 3)
            let names = (tagged.json["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["one", "two"])
            #expect(tagged.json["next"] as? String == "/api/users?page=2&per_page=2&tag=a&tag=b")
        }
    }
}

@Suite("Demo API: uploads, OAuth and behaviours")
struct DemoBehaviourTests {
    @Test("multipart uploads list fields and files; form uploads list fields; Basic auth is required")
    func uploads() async throws {
        try await DemoHarness.with { demo in
            let basic = ("Authorization", "Basic " + Data("demo:test-password".utf8).base64EncodedString())
            let multipart = [
                "--XyZ", #"Content-Disposition: form-data; name="note""#, "", "hello",
                "--XyZ", #"Content-Disposition: form-data; name="avatar"; filename="a.txt""#, "Content-Type: text/plain", "",
                "twelve bytes",
                "--XyZ--", "",
            ].joined(separator: "\r\n")
            let contentType = ("Content-Type", "multipart/form-data; boundary=\"XyZ\"")
            let uploaded = try await demo.fetch("/api/uploads", method: .POST, headers: [basic, contentType], body: Array(multipart.utf8))
            #expect(uploaded.status == 201)
            #expect(uploaded.json["fields"] as? [String: String] == ["note": "hello"])
            let files = try #require(uploaded.json["files"] as? [[String: Any]])
            #expect(files.count == 1)
            #expect(files.first?["name"] as? String == "avatar")
            #expect(files.first?["filename"] as? String == "a.txt")
            #expect(files.first?["contentType"] as? String == "text/plain")
            #expect(files.first?["size"] as? Int == 12)

            let form = try await demo.send("/api/uploads", form: "a=1&b=two%20words", headers: [basic])
            #expect(form.status == 201)
            #expect(form.json["fields"] as? [String: String] == ["a": "1", "b": "two words"])

            let anonymous = try await demo.fetch("/api/uploads", method: .POST, headers: [contentType], body: Array(multipart.utf8))
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let broken = try await demo.fetch("/api/uploads", method: .POST, headers: [basic, contentType], body: Array("--XyZ\r\nno end".utf8))
            #expect(broken.status == 400)

            let raw = try await demo.fetch("/api/uploads", method: .POST, headers: [basic, ("Content-Type", "text/plain")], body: Array("a note".utf8))
            #expect(raw.status == 201)
            let rawFile = try #require((raw.json["files"] as? [[String: Any]])?.first)
            #expect(rawFile["name"] as? String == "body")
            #expect(rawFile["size"] as? Int == 6)
            #expect(rawFile["contentType"] as? String == "text/plain")
            let empty = try await demo.fetch("/api/uploads", method: .POST, headers: [basic], body: [])
            #expect(empty.status == 400)
        }
    }

    @Test("client credentials by Basic auth or form give a token that opens the daily report")
    func oauth() async throws {
        try await DemoHarness.with { demo in
            let basic = ("Authorization", "Basic " + Data("runner-example:test-secret".utf8).base64EncodedString())
            let byBasic = try await demo.send("/oauth/token", form: "grant_type=client_credentials&scope=reports", headers: [basic])
            #expect(byBasic.status == 200)
            #expect(byBasic.json["token_type"] as? String == "Bearer")
            #expect(byBasic.json["expires_in"] as? Int == 3600)
            #expect(byBasic.json["scope"] as? String == "reports")
            let token = try #require(byBasic.json["access_token"] as? String)

            let byForm = try await demo.send(
                "/oauth/token", form: "grant_type=client_credentials&client_id=runner-example&client_secret=test-secret"
            )
            #expect(byForm.json["access_token"] is String)
            let wrongSecret = try await demo.send(
                "/oauth/token", form: "grant_type=client_credentials&client_id=runner-example&client_secret=nope"
            )
            #expect(wrongSecret.status == 401)
            #expect(wrongSecret.json["error"] as? String == "invalid_client")
            #expect(try await demo.send("/oauth/token", form: "grant_type=password", headers: [basic]).status == 400)

            let report = try await demo.fetch("/api/reports/daily", headers: [("Authorization", "Bearer \(token)")])
            #expect(report.status == 200)
            #expect(report.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(report.text.hasPrefix("daily report: "))
            #expect(try await demo.fetch("/api/reports/daily").status == 401)
            let loginToken = try await demo.login()
            #expect(try await demo.fetch("/api/reports/daily", headers: [loginToken]).status == 401)
        }
    }

    @Test("the limited route admits 5 requests per second, then 429 with Retry-After: 1")
    func rateLimit() async throws {
        try await DemoHarness.with { demo in
            var statuses: [Int] = []
            var retryAfter: String?
            while statuses.count < 20 && !statuses.contains(429) {
                let response = try await demo.fetch("/api/limited")
                statuses.append(response.status)
                retryAfter = retryAfter ?? response.header("Retry-After")
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == 200 })
            #expect(statuses.contains(429))
            #expect(retryAfter == "1")
            try await Task.sleep(for: .milliseconds(1100))
            #expect(try await demo.fetch("/api/limited").status == 200)
        }
    }

    @Test("the flaky route fails every other request, starting with the first")
    func flaky() async throws {
        try await DemoHarness.with { demo in
            var statuses: [Int] = []
            for _ in 0..<4 {
                statuses.append(try await demo.fetch("/api/flaky").status)
            }
            #expect(statuses == [503, 200, 503, 200])
        }
    }

    @Test("the old page redirects permanently to the page, which has Welcome, a CSRF field and a session cookie")
    func redirect() async throws {
        try await DemoHarness.with { demo in
            let moved = try await demo.fetch("/api/old-page")
            #expect(moved.status == 301)
            #expect(moved.header("Location") == "/api/page")
        }
        try await DemoHarness.with(followRedirects: true) { demo in
            let page = try await demo.fetch("/api/old-page")
            #expect(page.status == 200)
            #expect(page.text.contains("Welcome"))
            #expect(page.text.range(of: #"<input type="hidden" name="csrf" value="[0-9a-f]+">"#, options: .regularExpression) != nil)
            let cookie = try #require(page.header("Set-Cookie"))
            #expect(cookie.hasPrefix("session="))
            #expect(cookie.hasSuffix("; Path=/; HttpOnly"))
        }
    }

    @Test("slow answers after the delay while other requests are served meanwhile")
    func slow() async throws {
        try await DemoHarness.with { demo in
            let clock = ContinuousClock()
            let start = clock.now
            async let slow = demo.fetch("/api/slow?ms=300")
            try await Task.sleep(for: .milliseconds(50))
            let health = try await demo.fetch("/api/health")
            let healthAnswered = clock.now
            let slowResponse = try await slow
            let slowAnswered = clock.now
            #expect(health.json["status"] as? String == "ok")
            #expect(slowResponse.status == 200)
            #expect(slowResponse.json["waited_ms"] as? Int == 300)
            #expect(slowAnswered - start >= .milliseconds(300))
            #expect(healthAnswered < slowAnswered)
            #expect(try await demo.fetch("/api/slow?ms=-1").status == 422)
        }
    }

    @Test("unknown paths are 404 and wrong methods 405 with Allow")
    func routing() async throws {
        try await DemoHarness.with { demo in
            #expect(try await demo.fetch("/api/nothing").status == 404)
            let wrongMethod = try await demo.fetch("/api/health", method: .DELETE)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "GET")
            #expect(try await demo.fetch("/api/users/1", method: .POST).header("Allow") == "DELETE, GET, PUT")
        }
    }

    @Test("settings take the password and client secret from the environment, else the documented defaults")
    func settingsFromEnvironment() {
        let defaults = DemoSettings.fromEnvironment([:])
        #expect(defaults.password == "demo-password")
        #expect(defaults.clientSecret == "demo-secret")
        #expect(defaults.username == "demo")
        #expect(defaults.clientID == "runner-example")
        let custom = DemoSettings.fromEnvironment(["RUNNER_DEMO_PASSWORD": "p", "RUNNER_DEMO_CLIENT_SECRET": "s"])
        #expect(custom.password == "p")
        #expect(custom.clientSecret == "s")
    }

    @Test("with a certificate and key it serves the same routes over HTTPS")
    func servesHTTPS() async throws {
        try await DemoHarness.with(tls: true) { demo in
            #expect(demo.server.baseURL.hasPrefix("https://127.0.0.1:"))
            let health = try await demo.fetch("/api/health")
            #expect(health.status == 200)
            #expect(health.json["status"] as? String == "ok")
            let authorization = try await demo.login()
            #expect(try await demo.fetch("/api/users", headers: [authorization]).status == 200)
        }
    }

    @Test("start binds the given port on 127.0.0.1 and stop releases it")
    func fixedPort() async throws {
        let first = try await DemoServer.start(port: 0, settings: DemoHarness.settings)
        let port = first.port
        try await first.stop()
        let second = try await DemoServer.start(port: port, settings: DemoHarness.settings)
        #expect(second.port == port)
        #expect(second.baseURL == "http://127.0.0.1:\(port)")
        try await second.stop()
        try await second.stop()
    }

    @Test("a report job moves from queued through running to done, or FAILED, one state per poll")
    func jobs() async throws {
        try await DemoHarness.with { demo in
            #expect(try await demo.send("/api/jobs", json: "{}").status == 401)
            let authorization = try await demo.login()
            for (body, last) in [("{}", "done"), (#"{"fail":true}"#, "FAILED")] {
                let created = try await demo.send("/api/jobs", json: body, headers: [authorization])
                #expect(created.status == 202)
                let id = try #require(created.json["id"] as? Int)
                #expect(created.header("Location") == "/api/jobs/\(id)")
                var states: [String] = []
                for _ in 0..<4 {
                    states.append(try await demo.fetch("/api/jobs/\(id)", headers: [authorization]).json["state"] as? String ?? "")
                }
                #expect(states == ["running", "running", last, last])
            }
            #expect(try await demo.fetch("/api/jobs/999", headers: [authorization]).status == 404)
        }
    }
}
