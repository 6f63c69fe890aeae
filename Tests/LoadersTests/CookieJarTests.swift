import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

@Suite struct CookieJarTests {
    /// A clock the tests move by hand.
    final class Clock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_900_000_000)
    }

    private func url(_ text: String) -> URL { URL(string: text)! }

    @Test func hostOnlyCookiesStayOnTheirHostDomainCookiesReachSubdomains() {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["host=1", "wide=2; Domain=.Example.com"], from: url("http://example.com/"))
        #expect(jar.cookieHeader(for: url("http://example.com/")) == "host=1; wide=2")
        #expect(jar.cookieHeader(for: url("http://api.example.com/")) == "wide=2")
        #expect(jar.cookieHeader(for: url("http://badexample.com/")) == nil)
        #expect(jar.cookieHeader(for: url("http://other.test/")) == nil)
        // A cookie belongs to a host, not a port (RFC 6265 section 8.5), as browsers keep them.
        jar.store(setCookieHeaders: ["session=s"], from: url("http://127.0.0.1:8001/login"))
        #expect(jar.cookieHeader(for: url("http://127.0.0.1:9002/")) == "session=s")
        #expect(jar.cookieHeader(for: url("http://127.0.0.2:8001/")) == nil)
    }

    @Test func aDomainTheHostIsNotInsideIsIgnored() {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["a=1; Domain=other.test", "b=2; Domain=api.example.com"], from: url("http://example.com/"))
        #expect(jar.storedCookies.isEmpty)
        jar.store(setCookieHeaders: ["c=3; Domain=0.0.1"], from: url("http://127.0.0.1/"))
        #expect(jar.storedCookies.isEmpty, "an IP address matches itself only")
    }

    @Test func pathsMatchBySegmentAndTheDefaultPathIsTheRequestsDirectory() {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["root=r; Path=/", "api=a; Path=/api", "dir=d"], from: url("http://h.test/docs/page"))
        #expect(jar.cookieHeader(for: url("http://h.test/api/items")) == "api=a; root=r")
        #expect(jar.cookieHeader(for: url("http://h.test/api")) == "api=a; root=r")
        #expect(jar.cookieHeader(for: url("http://h.test/apix")) == "root=r")
        #expect(jar.cookieHeader(for: url("http://h.test/docs/other")) == "dir=d; root=r")
        #expect(jar.cookieHeader(for: url("http://h.test/")) == "root=r")
    }

    @Test func secureCookiesGoOverHTTPSOnlyAndHttpOnlyIsKept() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["s=1; Secure; HttpOnly", "p=2"], from: url("https://h.test/"))
        #expect(jar.cookieHeader(for: url("https://h.test/")) == "s=1; p=2")
        #expect(jar.cookieHeader(for: url("http://h.test/")) == "p=2")
        let stored = try #require(jar.storedCookies.first)
        #expect(stored.secure && stored.httpOnly)
        // An answer over http sets no Secure cookie, nor shadows a stored one (RFC 6265bis; trial helper-170).
        jar.store(setCookieHeaders: ["fromHTTP=1; Secure", "s=overwritten", "q=3"], from: url("http://h.test/"))
        #expect(jar.cookieHeader(for: url("https://h.test/")) == "s=1; p=2; q=3")
        jar.store(setCookieHeaders: ["s=renewed; Secure"], from: url("https://h.test/"))
        #expect(jar.cookieHeader(for: url("https://h.test/")) == "s=renewed; p=2; q=3")
    }

    @Test func expiresAndMaxAgeEndACookieAndMaxAgeWins() {
        let clock = Clock()
        let jar = CookieJar(now: { clock.now })
        let page = url("http://h.test/")
        jar.store(setCookieHeaders: [
            "short=1; Max-Age=60; Expires=Fri, 01 Jan 2100 00:00:00 GMT",
            "dated=2; Expires=\(httpDate(clock.now.addingTimeInterval(120)))",
            "session=3",
        ], from: page)
        #expect(jar.cookieHeader(for: page) == "short=1; dated=2; session=3")
        clock.now += 61
        #expect(jar.cookieHeader(for: page) == "dated=2; session=3")
        clock.now += 60
        #expect(jar.cookieHeader(for: page) == "session=3")
        jar.store(setCookieHeaders: ["session=; Max-Age=0"], from: page)
        #expect(jar.cookieHeader(for: page) == nil)
    }

    @Test func aCookieSetAgainReplacesTheOldValueAndKeepsItsPlace() {
        let jar = CookieJar()
        let page = url("http://h.test/")
        jar.store(setCookieHeaders: ["a=1", "b=2"], from: page)
        jar.store(setCookieHeaders: ["a=3"], from: page)
        #expect(jar.cookieHeader(for: page) == "a=3; b=2")
    }

    @Test func malformedCookiesAreIgnored() {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["novalue", "=empty-name", "ok=1; Max-Age=soon"], from: url("http://h.test/"))
        #expect(jar.cookieHeader(for: url("http://h.test/")) == "ok=1")
    }

    @Test(arguments: ["Wed, 21 Oct 2015 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT", "Wed Oct 21 07:28:00 2015"])
    func expiryDatesInTheCommonFormatsAreRead(_ text: String) {
        let jar = CookieJar(now: { Date(timeIntervalSince1970: 1_445_412_479) }) // one second before
        jar.store(setCookieHeaders: ["a=1; Expires=\(text)"], from: url("http://h.test/"))
        #expect(jar.storedCookies.first?.expires == Date(timeIntervalSince1970: 1_445_412_480))
    }

    @Test func theLoaderSendsAndStoresOnEveryRedirectHopAndKeepsAWrittenCookie() async throws {
        let scripted = ScriptedLoader([
            .response(status: 302, headers: HTTPHeaders([("Location", "http://api.test/next"), ("Set-Cookie", "hop=1")])),
            .response(status: 200, headers: ["Set-Cookie": "last=2"]),
        ])
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["early=0"], from: url("http://api.test/"))
        let loader = chain([.redirects, .cookies], ending: scripted)
        let response = try await CookieJar.$current.withValue(jar) {
            try await loader.load(request("http://api.test/start", headers: ["Cookie": "mine=x"]))
        }
        let sent = await scripted.received.map { $0.headers.values(for: "Cookie") }
        #expect(sent == [["mine=x; early=0"], ["mine=x; early=0; hop=1"]])
        #expect(response.request.headers.values(for: "Cookie") == ["mine=x"], "the jar's cookies stay out of the chain above it")
        #expect(jar.cookieHeader(for: url("http://api.test/")) == "early=0; hop=1; last=2")
    }

    @Test func withoutAJarOrWithCookiesOffRequestsPassUntouched() async throws {
        let scripted = ScriptedLoader([.response(status: 200, headers: ["Set-Cookie": "a=1"])])
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["early=0"], from: url("http://api.test/"))
        var options = HTTPRequestOptions()
        options.cookies = false
        _ = try await CookieJar.$current.withValue(jar) {
            try await CookieLoader(next: scripted).load(request(options: options))
        }
        _ = try await CookieLoader(next: scripted).load(request())
        #expect(await scripted.received.allSatisfy { $0.headers["Cookie"] == nil })
        #expect(jar.cookieHeader(for: url("http://api.test/")) == "early=0")
    }

    private func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
