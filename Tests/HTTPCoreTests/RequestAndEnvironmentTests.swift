import Foundation
import Testing
import HTTPCore

@Suite struct RequestAndEnvironmentTests {
    @Test func environmentFromBaseURL() throws {
        let environment = try #require(ServerEnvironment(baseURL: "https://qa.example.com:8443/api/v1/?lang=en"))
        #expect(environment.scheme == "https")
        #expect(environment.host == "qa.example.com")
        #expect(environment.port == 8443)
        #expect(environment.pathPrefix == "/api/v1")
        #expect(environment.query == [URLQueryItem(name: "lang", value: "en")])
    }

    @Test func environmentRejectsNonHTTPBaseURLs() {
        #expect(ServerEnvironment(baseURL: "ftp://example.com") == nil)
        #expect(ServerEnvironment(baseURL: "/relative") == nil)
        #expect(ServerEnvironment(baseURL: "http://example.com")?.pathPrefix == "")
    }

    @Test func pathJoining() throws {
        let environment = try #require(ServerEnvironment(baseURL: "http://h/api/"))
        #expect(environment.joinedPath("/users") == "/api/users")
        #expect(environment.joinedPath("users/1") == "/api/users/1")
        #expect(environment.joinedPath("") == "/api")
        let bare = try #require(ServerEnvironment(baseURL: "http://h"))
        #expect(bare.joinedPath("users") == "/users")
        #expect(bare.joinedPath("") == "/")
    }

    @Test func hostReadsAsFoundationDecodesIt() throws {
        let urls = [
            "http://127.0.0.1:8080/a", "http://Example.COM/", "http://a_b.example/", "http://[::1]:80/",
            "http://xn--bcher-kva.ch/", "http://www.XN--BCHER-KVA.ch/", "http://b%C3%BCcher.ch/", "http://bücher.ch/",
            "http://axn--b.example/", "http://[fe80::1%25eth0]/", "/relative", "http:///path",
        ]
        for url in urls {
            let request = try #require(HTTPRequest(url: url), "\(url)")
            #expect(request.host == request.components.host, "\(url)")
        }
        #expect(try #require(HTTPRequest(url: "http://xn--bcher-kva.ch/")).host == "bücher.ch")
        var set = HTTPRequest(components: URLComponents())
        set.host = "bücher.ch"
        #expect(set.host == "bücher.ch")
        #expect(set.components.encodedHost == "xn--bcher-kva.ch")
    }

    /// An international host, written as it reads or percent-encoded, is sent by its IDNA name; an ASCII host with an
    /// escape is left for the host check to refuse.
    @Test func aURLsInternationalHostIsSentByItsIDNAName() throws {
        let urls = ["http://bücher.example:8080/a?q=ü": "http://xn--bcher-kva.example:8080/a?q=%C3%BC",
                    "https://b%C3%BCcher.example/": "https://xn--bcher-kva.example/",
                    "http://EXAMPLE.Ü/": "http://example.xn--tda/",
                    "http://a%20b.example/": "http://a%20b.example/",
                    "http://xn--bcher-kva.example/": "http://xn--bcher-kva.example/"]
        for (written, sent) in urls {
            let components = try #require(PercentEncoding.components(ofURL: written), "\(written)")
            #expect(components.string == sent, "\(written)")
            #expect(HTTPRequest(components: components).hostAsSent == URLComponents(string: sent)?.encodedHost, "\(written)")
        }
    }

    /// A host no request can be sent to is named so: one IDNA cannot write, an escape that is no UTF-8 character, an
    /// `xn--` label that does not decode, an IPv6 zone, brackets around no address.
    @Test func aHostNoRequestCanBeSentToIsAProblem() throws {
        let idna = "its host is not a name a request can be sent to: "
        for (url, problem) in [("http://-bücher.example/", idna + "it is an international name IDNA cannot write"),
                               ("http://bücher-.example/", idna + "it is an international name IDNA cannot write"),
                               ("http://b%FCcher.example/", idna + "it holds a percent-escape that is no UTF-8 character"),
                               ("http://xn--zz.example/", idna + "it holds an xn-- label that does not decode"), ("http://[::1%25lo]:1/", "its IPv6 address has a zone"),
                               ("http://[zz]/", "its host is not an IPv6 address"), ("http://a b.example/", "its host is not a host name"),
                               ("http:/x", "it has no host"), ("http://a..b/", "its host has an empty label"),
                               ("http://.a/", "its host has an empty label"), ("http://1.2.3.256/", "its host ends in a number"),
                               ("http://a.1.2.3/", "its host ends in a number"), ("//localhost:1/zz", "it starts with '//'"),
                               ("http://ex%41mple.com/", idna + "it holds percent-escapes"),
                               ("http://127.0.0.1:/api", "nothing follows the ':' after its host"), ("http://u:p@[::1]:?q", "nothing follows the ':'"),
                               ("http://bücher..example/", "its host has an empty label"),
                               ("http://\(String(repeating: "a", count: 64)).example/", "its host has a label of 64 characters"),
                               ("http://\(Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: "."))/",
                                "its host is a name of 255 characters")] {
            let components = try #require(PercentEncoding.components(ofURL: url), "\(url)")
            #expect(components.requestURLProblem?.hasPrefix(problem) == true, "\(url): \(components.requestURLProblem ?? "none")")
        }
        for url in ["http://bücher.example/", "http://[::1]:8080/", "http://a_b.example/", "http://xn--bcher-kva.example/",
                    "http://[::1]:1/p?q=|x", "http://a.example./", "http://127.1:1/", "http://0x7f.1/", "http://1.2.3.4./",
                    "http://v1.example/", "http://u:p@h/a:b", "http://h/?a=b:", "http://\(String(repeating: "a", count: 63)).example/"] {
            #expect(PercentEncoding.components(ofURL: url)?.requestURLProblem == nil, "\(url)")
        }
        #expect(PercentEncoding.components(ofURL: "http://h:99999/")?.requestURLProblem(quoting: false) == "the port is not a number from 1 to 65535")
        // An IPv6 host keeps its brackets when the rest of the URL is encoded; brackets elsewhere are encoded.
        #expect(PercentEncoding.components(ofURL: "http://[::1]:1/p?q=|x&a=[b]")?.string == "http://[::1]:1/p?q=%7Cx&a=%5Bb%5D")
    }

    @Test func requestAccessors() throws {
        var request = try #require(HTTPRequest(method: .post, url: "http://example.com:8080/a?x=1"))
        #expect(request.scheme == "http")
        #expect(request.host == "example.com")
        #expect(request.port == 8080)
        #expect(request.path == "/a")
        #expect(request.isAbsolute)
        request.appendQueryItem(name: "q", value: "a+b c")
        #expect(request.url?.absoluteString == "http://example.com:8080/a?x=1&q=a%2Bb%20c")
        #expect(request.queryItems.last == URLQueryItem(name: "q", value: "a+b c"))
        #expect(request.hasQueryItem(named: "x"))
        // RFC 3986 unreserved characters stay as written; everything else is encoded.
        request.appendQueryItem(name: "sort_by-k.v~", value: "a-b.c_d~e/f?&#=é")
        #expect(request.url?.absoluteString.hasSuffix("&sort_by-k.v~=a-b.c_d~e%2Ff%3F%26%23%3D%C3%A9") == true)
        let relative = try #require(HTTPRequest(url: "/users"))
        #expect(!relative.isAbsolute)
    }

    @Test func retryDelays() {
        let constant = RetryStrategy(attempts: 3, delay: .milliseconds(100))
        #expect(constant.delay(afterAttempt: 2, jitter: 0.3) == .milliseconds(100))
        let exponential = RetryStrategy(attempts: 5, delay: .milliseconds(100), backoff: .exponential)
        #expect(exponential.delay(afterAttempt: 1, jitter: 1) == .milliseconds(100))
        #expect(exponential.delay(afterAttempt: 3, jitter: 1) == .milliseconds(400))
        #expect(exponential.delay(afterAttempt: 3, jitter: 0) == .milliseconds(200))
        #expect(constant.shouldRetry(status: .serviceUnavailable))
        #expect(!constant.shouldRetry(status: .notFound))
    }

    @Test func throttleInterval() {
        #expect(ThrottleRate(perSecond: 10).interval == .milliseconds(100))
        #expect(ThrottleRate(perSecond: 0).interval == nil)
    }
}
