import Foundation
import Synchronization
import Testing
import HTTPCore
import Loaders
import TestSupport

@Suite struct RedirectLoaderTests {
    func redirect(_ status: Int, to location: String) -> ScriptedLoader.Reply {
        .response(status: status, headers: ["Location": location])
    }

    let credentials: HTTPHeaders = ["authorization": "Bearer t", "COOKIE": "a=b", "Proxy-Authorization": "p", "X-Keep": "1"]

    @Test func seeOtherAndPostFoundBecomeGetWithoutBody() async throws {
        for status in [303, 302, 301] {
            let scripted = ScriptedLoader([redirect(status, to: "/next"), .response(status: 200)])
            var post = request(method: .post, headers: ["Content-Type": "text/plain"])
            post.body = DataBody(text: "payload")
            let response = try await RedirectLoader(next: scripted).load(post)
            let second = try #require(await scripted.received.last)
            #expect(response.status == .ok)
            #expect(second.method == .get)
            #expect(second.body.isEmpty)
            #expect(second.headers["Content-Type"] == nil)
            #expect(second.url?.absoluteString == "http://api.test/next")
        }
    }

    @Test func temporaryRedirectKeepsMethodAndBody() async throws {
        let scripted = ScriptedLoader([redirect(307, to: "http://api.test/other"), .response(status: 200)])
        var post = request(method: .post)
        post.body = DataBody(text: "payload")
        _ = try await RedirectLoader(next: scripted).load(post)
        let second = try #require(await scripted.received.last)
        #expect(second.method == .post)
        #expect(try second.body.encode() == Data("payload".utf8))
    }

    /// A body holding a secret is not sent again to another origin (trial helper-160: a 307 carried a password there): the
    /// hop is an error; to the same origin, and as a GET without body after a 303, it is followed.
    @Test func aBodyHoldingASecretIsNotSentAgainToAnotherOrigin() async throws {
        for (status, location, follows) in [(307, "http://other.test/x", false), (308, "https://api.test/x", false),
                                            (307, "/same", true), (303, "http://other.test/x", true)] {
            let scripted = ScriptedLoader([redirect(status, to: location), .response(status: 200)])
            var post = request(method: .post)
            post.body = DataBody(text: #"{"password":"pw-123456"}"#)
            post.options.bodyHoldsCredential = true
            let error = await failure(of: RedirectLoader(next: scripted), post)
            #expect(await scripted.received.count == (follows ? 2 : 1), "\(status) to \(location)")
            #expect((error == nil) == follows, "\(status) to \(location): \(error?.message ?? "")")
            if !follows {
                #expect(error?.message == "refused to follow the \(status) redirect from http://api.test/items to "
                        + "\(location), another origin: the request's body holds a secret or a credential, which a \(status) sends there again")
            }
        }
    }

    @Test func crossOriginHopDropsCredentialsSameOriginKeepsThem() async throws {
        for (location, kept) in [("http://other.test/x", false), ("https://api.test/x", false),
                                 ("http://api.test:8080/x", false), ("/same", true), ("http://API.test:80/x", true)] {
            let scripted = ScriptedLoader([redirect(302, to: location), .response(status: 200)])
            _ = try await RedirectLoader(next: scripted).load(request(headers: credentials))
            let second = try #require(await scripted.received.last)
            for name in ["Authorization", "Cookie", "proxy-authorization"] {
                #expect(second.headers.contains(name) == kept, "\(name) after a hop to \(location)")
            }
            #expect(second.headers["X-Keep"] == "1")
        }
    }

    /// A header named as a credential (`X-Api-Key`, `X-Auth-Token`, `Private-Token`) is one, whatever gives its value (a
    /// literal, a variable, a capture): dropped on a hop to another origin, kept on the same (trial helper-202 F1: only
    /// those holding a secret were dropped, while every output hid them as credentials).
    @Test func headersNamedAsCredentialsDoNotFollowARedirectToAnotherOrigin() async throws {
        let named: HTTPHeaders = ["X-Api-Key": "LiteralKey-1", "X-Auth-Token": "captured-2", "Private-Token": "p-3", "X-Keep": "1"]
        for (location, kept) in [("http://other.test/x", false), ("/same", true)] {
            let scripted = ScriptedLoader([redirect(302, to: location), .response(status: 200)])
            _ = try await RedirectLoader(next: scripted).load(request(headers: named))
            let second = try #require(await scripted.received.last)
            for name in ["X-Api-Key", "X-Auth-Token", "Private-Token"] {
                #expect(second.headers.contains(name) == kept, "\(name) after a hop to \(location)")
            }
            #expect(second.headers["X-Keep"] == "1")
        }
    }

    /// `http:host/path` has the scheme runner follows but no host: said so, not that only http and https are followed
    /// (trial helper-202 F5).
    @Test func aRedirectWithoutAHostSaysSo() async throws {
        let scripted = ScriptedLoader([redirect(302, to: "http:127.0.0.1:8080/landed"), .response(status: 200)])
        let error = await failure(of: RedirectLoader(next: scripted), request())
        #expect(error?.message == "http://api.test/items redirected to an invalid URL: http:127.0.0.1:8080/landed (no host: http: is not followed by //)",
                "\(error?.message ?? "")")
    }

    @Test func hopBackToTheFirstOriginCarriesItsCredentialsAgain() async throws {
        let scripted = ScriptedLoader([redirect(302, to: "http://other.test/x"), redirect(302, to: "http://api.test/back"),
                                       .response(status: 200)])
        _ = try await RedirectLoader(next: scripted).load(request(headers: credentials))
        let hops = await scripted.received
        #expect(hops.count == 3)
        #expect(hops[1].headers["Authorization"] == nil && hops[1].headers["Cookie"] == nil)
        #expect(hops[2].headers["Authorization"] == "Bearer t")
        #expect(hops[2].headers["Cookie"] == "a=b")
        #expect(hops[2].headers["Proxy-Authorization"] == "p")
    }

    @Test func refusesNonHTTPTargets() async {
        let scripted = ScriptedLoader([redirect(302, to: "file:///etc/passwd")])
        let error = await failure(of: RedirectLoader(next: scripted), request())
        #expect(error?.code == .invalidResponse)
        #expect(error?.response?.status.code == 302)
        #expect(await scripted.count == 1)
    }

    /// A Location whose port is outside 1-65535 (or too large for an Int) is not followed: it would reach another port.
    @Test(arguments: ["http://127.0.0.1:99999/x", "http://127.0.0.1:0/x", "http://127.0.0.1:99999999999999999999/x"])
    func refusesTargetsWithAPortOutOfRange(location: String) async {
        let scripted = ScriptedLoader([redirect(302, to: location)])
        let error = await failure(of: RedirectLoader(next: scripted), request())
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("is not a number from 1 to 65535") == true, "\(error?.message ?? "")")
        #expect(await scripted.count == 1)
    }

    /// A hop that fails (a TLS handshake, a refused connection) says it was a redirect target, and from where.
    @Test func aFailingHopSaysItFollowedARedirect() async {
        let scripted = ScriptedLoader([redirect(302, to: "https://other.test/x"), .failure(.insecureConnection)])
        let error = await failure(of: RedirectLoader(next: scripted), request("http://api.test/start"))
        #expect(error?.code == .insecureConnection)
        #expect(error?.request.url?.absoluteString == "https://other.test/x")
        #expect(error?.message.hasSuffix(" (after a redirect from http://api.test/start)") == true, "\(error?.message ?? "")")
        let first = ScriptedLoader([.failure(.cannotConnect)])
        #expect(await failure(of: RedirectLoader(next: first), request())?.message.contains("redirect") == false)
    }

    /// A hop that times out says so too: the timeout is told above the redirects, from the hop's error (trial helper-146).
    @Test func aHopThatTimesOutSaysItFollowedARedirect() async {
        let scripted = ScriptedLoader([redirect(302, to: "/slow"), .delayed(.seconds(5), .response(status: 200))])
        var options = HTTPRequestOptions()
        options.timeout = .milliseconds(50)
        let error = await failure(of: TimeoutLoader(next: RedirectLoader(next: scripted)), request("http://api.test/start", options: options))
        #expect(error?.code == .timedOut)
        #expect(error?.message.hasPrefix("no complete response from http://api.test/slow within 50ms") == true, "\(error?.message ?? "")")
        #expect(error?.message.hasSuffix(" (after a redirect from http://api.test/start)") == true, "\(error?.message ?? "")")
    }

    @Test func detectsCyclesAndLimits() async {
        let cycle = ScriptedLoader(routes: [.path("/a", redirect(302, to: "/b")), .path("/b", redirect(302, to: "/a"))])
        let cycleError = await failure(of: RedirectLoader(next: cycle), request("http://api.test/a"))
        #expect(cycleError?.code == .tooManyRedirects)
        #expect(cycleError?.message.contains("cycle") == true)

        let endless = ScriptedLoader(routes: [.init({ _ in true }, reply: .response(status: 302, headers: ["Location": "?n=1"]))])
        let chainOfHops = ScriptedLoader((1...5).map { redirect(301, to: "/hop\($0)") })
        let limited = await failure(of: RedirectLoader(next: chainOfHops), request(options: HTTPRequestOptions(maxRedirects: 3)))
        #expect(limited?.code == .tooManyRedirects)
        #expect(await chainOfHops.count == 4)
        #expect(await failure(of: RedirectLoader(next: endless), request())?.code == .tooManyRedirects)
    }

    @Test func returnsTheRedirectWhenNotFollowing() async throws {
        let scripted = ScriptedLoader([redirect(302, to: "/next")])
        let response = try await RedirectLoader(next: scripted).load(request(options: HTTPRequestOptions(followRedirects: false)))
        #expect(response.status == .found)
        #expect(await scripted.count == 1)
    }
}

@Suite struct TraceLoaderTests {
    @Test func reportsExchangesWithCredentialsMasked() async throws {
        let collected = Collected<TracedExchange>()
        let scripted = ScriptedLoader([.response(status: 200, headers: ["Set-Cookie": "s=1", "X-Echo": "hunter2"],
                                                 body: Data("token hunter2".utf8)), .failure(.cannotConnect)])
        let loader = chain([.trace(redacting: { $0.replacingOccurrences(of: "hunter2", with: "***") }, report: collected.add)],
                           ending: scripted)
        var sent = request("http://api.test/items?key=hunter2", method: .post, headers: ["authorization": "Basic abc", "X-Other": "ok"])
        sent.body = DataBody(text: "pw=hunter2")
        let response = try await loader.load(sent)
        #expect(response.text == "token hunter2")
        #expect(await failure(of: loader, request())?.code == .cannotConnect)

        let exchanges = collected.all
        #expect(exchanges.count == 2)
        let first = exchanges[0]
        #expect(first.request.headers["Authorization"] == "***")
        #expect(first.request.headers["X-Other"] == "ok")
        #expect(first.request.url?.absoluteString == "http://api.test/items?key=***")
        #expect(first.requestBodyText == "pw=***")
        #expect(first.response?.headers["set-cookie"] == "***")
        #expect(first.response?.headers["X-Echo"] == "***")
        #expect(first.response?.text == "token ***")
        #expect(exchanges[1].error?.code == .cannotConnect)
        #expect(await scripted.received.first?.headers["Authorization"] == "Basic abc")
    }
}
