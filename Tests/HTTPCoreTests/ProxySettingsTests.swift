import Foundation
import HTTPCore
import Testing

@Suite struct ProxySettingsTests {
    @Test func proxyURLsAreReadWithCredentialsAndCurlsDefaultPort() throws {
        let proxy = try #require(HTTPProxy(url: "http://user:p%40ss@proxy.internal:3128"))
        #expect(proxy.authority == "proxy.internal:3128")
        #expect(proxy.username == "user" && proxy.password == "p@ss")
        #expect(proxy.authorization == "Basic " + Data("user:p@ss".utf8).base64EncodedString())
        #expect(HTTPProxy(url: "proxy.internal")?.port == 1080)
        for bad in ["ftp://proxy:21", "http://", "http://proxy:3128/path", "http://proxy:port", ""] {
            #expect(HTTPProxy(url: bad) == nil, "\(bad)")
        }
    }

    @Test func theEnvironmentGivesAProxyPerSchemeLowerCaseWinning() {
        let settings = ProxySettings(environment: [
            "HTTP_PROXY": "http://upper:1", "http_proxy": "http://lower:2", "HTTPS_PROXY": "http://secure:3",
            "NO_PROXY": "internal.test, .corp.test:8443",
        ])
        #expect(settings.http?.authority == "lower:2")
        #expect(settings.https?.authority == "secure:3")
        #expect(settings.bypass == ["internal.test", ".corp.test:8443"])
    }

    @Test func noProxyMatchesHostSuffixesPortsAndEverything() {
        let proxy = HTTPProxy(host: "proxy", port: 3128)
        let settings = ProxySettings(proxy: proxy, bypass: ["internal.test", ".corp.test:8443", "[::1]"])
        #expect(settings.proxy(scheme: "http", host: "internal.test", port: 80) == nil)
        #expect(settings.proxy(scheme: "http", host: "api.internal.test", port: 80) == nil)
        #expect(settings.proxy(scheme: "http", host: "notinternal.test", port: 80) == proxy)
        #expect(settings.proxy(scheme: "https", host: "api.corp.test", port: 8443) == nil)
        #expect(settings.proxy(scheme: "https", host: "api.corp.test", port: 443) == proxy)
        #expect(settings.proxy(scheme: "http", host: "[::1]", port: 80) == nil)
        #expect(ProxySettings(proxy: proxy, bypass: ["*"]).proxy(scheme: "http", host: "anything", port: 80) == nil)
        #expect(ProxySettings.direct.proxy(scheme: "https", host: "example.test", port: 443) == nil)
    }
}
