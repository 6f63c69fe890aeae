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
        for bad in ["ftp://proxy:21", "http://", "http://proxy:3128/path", "http://proxy:port", "", "http://u:p@[zz]:1", "a..b:3128",
                    "http://1.2.3.256:1"] {
            #expect(HTTPProxy(url: bad) == nil, "\(bad)")
        }
        // A host no name can be is named so, before anything looks it up.
        #expect(HTTPProxy.parse("http://u:Secr3tPw@[zz]:1").failureDescription == "its host is not an IPv6 address, which is what brackets hold (such as [::1])")
        #expect(HTTPProxy(url: "http://[::1]:3128")?.authority == "[::1]:3128")
        // An international name is looked up as its IDNA name; request URLs and proxy URLs name a bad host alike.
        #expect(HTTPProxy(url: "http://bücher.example:3128")?.authority == "xn--bcher-kva.example:3128")
        #expect(HTTPProxy.parse("http://-bücher.example:3128").failureDescription?.contains("IDNA cannot write") == true)
        #expect(HTTPProxy.parse("http://xn--zz:3128").failureDescription?.contains("xn-- label that does not decode") == true)
    }

    @Test func credentialTextsHideTheUserNameWhenItIsTheOnlyCredential() throws {
        let withPassword = try #require(HTTPProxy(url: "http://ci:pr0xy-secret@proxy:3128"))
        #expect(Set(ProxySettings(proxy: withPassword).credentialTexts) == ["pr0xy-secret", Data("ci:pr0xy-secret".utf8).base64EncodedString()])
        // An API token given as the user name, with an empty password: the token and `token:` in base64 are hidden.
        let tokenOnly = try #require(HTTPProxy(url: "http://sk_live_abcdef123456:@proxy:3128"))
        #expect(Set(ProxySettings(proxy: tokenOnly).credentialTexts)
                    == ["sk_live_abcdef123456", Data("sk_live_abcdef123456:".utf8).base64EncodedString()])
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

@Suite struct ProxyURLAndBypassTests {
    @Test func aPortOutsideOneTo65535IsRefusedNotWrapped() {
        for bad in ["http://127.0.0.1:99999", "http://127.0.0.1:65536", "http://127.0.0.1:0", "http://pu:S3cret@127.0.0.1:abc"] {
            guard case .failure(let problem) = HTTPProxy.parse(bad) else {
                Issue.record("\(bad) was accepted as \(String(describing: HTTPProxy(url: bad)))")
                continue
            }
            #expect(problem.description.contains("from 1 to 65535"), "\(bad): \(problem)")
            #expect(!problem.description.contains("S3cret"))
        }
        #expect(HTTPProxy(url: "http://127.0.0.1:65535")?.port == 65535)
        #expect(HTTPProxy(url: "http://127.0.0.1:1")?.port == 1)
    }

    /// `http//host`, a colon short, is named as such (it read as a host `http` with a path); other texts without
    /// `://` that are not `host:port` say that the scheme is missing.
    @Test func aSchemeWithoutItsColonOrAURLWithoutASchemeSuggestsHTTP() {
        for (bad, expected) in [
            ("http//user:S3cret-ProxyPw@127.0.0.1:8889", "'http//' lacks the colon of 'http://'; a proxy URL starts with http://"),
            ("HTTPS//proxy:3128", "'HTTPS//' lacks the colon of 'HTTPS://'; a proxy URL starts with http://"),
            ("proxy.internal:3128/path", "it has a path, query or fragment, read as host:port as it does not start with http://; "
                + "a proxy URL is http://host:port"),
            (#"http:\pp:S3cret@127.0.0.1:19602"#, "'http:' is not followed by '//'; a proxy URL starts with http://"),
            ("HTTP:pp:S3cret@127.0.0.1:19602", "'HTTP:' is not followed by '//'; a proxy URL starts with http://"),
        ] {
            guard case .failure(let problem) = HTTPProxy.parse(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(problem.description == expected, "\(bad)")
            #expect(!problem.description.contains("S3cret"))
        }
        #expect(HTTPProxy(url: "user:pw@proxy.internal:3128") == HTTPProxy(host: "proxy.internal", port: 3128, username: "user", password: "pw"))
    }

    /// The password of user information after any `//` (a scheme a colon short too), and of a proxy value without a
    /// scheme at the start of the text or after a proxy key, reads `***`; other `a:b@c` text stays.
    @Test func passwordsAreHiddenAfterEverySlashPairAndInProxyValuesWithoutAScheme() {
        for (text, expected) in [
            ("http//user:S3cret@127.0.0.1:8889", "http//user:***@127.0.0.1:8889"),
            ("see //user:S3cret@host/a", "see //user:***@host/a"),
            ("http:/user:S3cret@127.0.0.1:8889", "http:/user:***@127.0.0.1:8889"),
            ("https:///user:S3cret@127.0.0.1/x", "https:///user:***@127.0.0.1/x"),
            ("C:/Users/a:b@c", "C:/Users/a:b@c"),
            ("user:S3cret@127.0.0.1:99999", "user:***@127.0.0.1:99999"),
            (#" 3 | options: { proxy: "user:S3cret@127.0.0.1:99999" }"#, #" 3 | options: { proxy: "user:***@127.0.0.1:99999" }"#),
            ("options:\n  proxy: user:S3cret@h:1\n", "options:\n  proxy: user:***@h:1\n"),
            (#"{"proxy": 'user:S3cret@h:1'}"#, #"{"proxy": 'user:***@h:1'}"#),
            ("HTTPS_PROXY=user:S3cret@h:1 HTTP_PROXY=http://u:S3cret@h", "HTTPS_PROXY=user:***@h:1 HTTP_PROXY=http://u:***@h"),
            ("proxy: http//u:S3cret@h and proxyPort: a:b@c", "proxy: http//u:***@h and proxyPort: a:b@c"),
            ("mail me@example.test at 10:30, ratio a:b@c", "mail me@example.test at 10:30, ratio a:b@c"),
            ("'options.proxy' is not a proxy URL: x:y@z", "'options.proxy' is not a proxy URL: x:y@z"),
            // Inside quotes a URL ends at its closing quote: a password holding spaces is hidden whole.
            (#"  url: "http://bob:my pass word@h:9/x" # a b:c@d"#, #"  url: "http://bob:***@h:9/x" # a b:c@d"#),
            ("  url: 'https://bob:a b@h/x'", "  url: 'https://bob:***@h/x'"),
            (#"{ proxy: "u:p w@h:1" }"#, #"{ proxy: "u:***@h:1" }"#),
            (#"say "see http://h:80 then" mail me@x"#, #"say "see http://h:80 then" mail me@x"#),
            // Escaped quotes inside quotes, and YAML plain values, which run to the end of the line or a ` #`.
            (#"  url: "http://bob:say \"hi\" pw@h/x""#, #"  url: "http://bob:***@h/x""#),
            ("  url: 'http://bob:it''s a pw@h/x'", "  url: 'http://bob:***@h/x'"),
            ("  url: http://bob:my pass@h/{{ nope }}", "  url: http://bob:***@h/{{ nope }}"),
            (" 1 | baseURL: http://bob:my pass@h:1 # note a:b@c", " 1 | baseURL: http://bob:***@h:1 # note a:b@c"),
            ("request: { url: http://bob:p w@h/x, method: GET }", "request: { url: http://bob:***@h/x, method: GET }"),
            ("error: cannot reach http://h:80 now, mail me@x", "error: cannot reach http://h:80 now, mail me@x"),
        ] {
            #expect(URLCredentials.hidingPasswords(in: text) == expected, "\(text)")
        }
        // A whole text read as one URL (as `list` shows a request's): a password holding spaces, or a template.
        #expect(URLCredentials.hidingPasswords(in: "http://bob:my pass@h/x y", asOneURL: true) == "http://bob:***@h/x y")
        #expect(URLCredentials.hidingPasswords(in: "http://h/a b@c", asOneURL: true) == "http://h/a b@c")
    }

    /// A password holding `#`, `?` or `/` as it is ends the host part where it stands: the password would be read as the
    /// host and port (`u:Tr0ub#3@h`: host `u`, port `Tr0ub`). It is hidden to its `@` and such a URL is refused, naming
    /// the character, not the password; a valid URL with an `@` in its path, query or fragment is left alone.
    @Test func aPasswordHoldingAHashQuestionMarkOrSlashIsHiddenWholeAndRefused() {
        for (text, expected) in [
            ("--proxy http://deploy:Tr0ub4dor#3@127.0.0.1:19130", "--proxy http://deploy:***@127.0.0.1:19130"),
            ("http://u:Leak?Pw4321@h:1/x", "http://u:***@h:1/x"),
            ("http://u:pa/ss@h:1/x", "http://u:***@h:1/x"),
            ("http://u:12345#abc@127.0.0.1/x", "http://u:***@127.0.0.1/x"),
            ("http://127.0.0.1:19203?ss@127.0.0.1:19201/anything", "http://127.0.0.1:***@127.0.0.1:19201/anything"),
            // A user name holding `#`, `?` or `/`, and a password holding `@`.
            (#"options: { proxy: "http://CORP/jdoe:Hunter2SECRET@127.0.0.1:19302" }"#, #"options: { proxy: "http://CORP/jdoe:***@127.0.0.1:19302" }"#),
            ("http://127.0.0.1#SECRETuser:pw@127.0.0.1:19302/x", "http://127.0.0.1#SECRETuser:***@127.0.0.1:19302/x"),
            ("http://us?er:X1@127.0.0.1/", "http://us?er:***@127.0.0.1/"),
            ("http://usr:p@127.0.0.1:19302#SECRET@127.0.0.1:19302/x", "http://usr:***@127.0.0.1:19302/x"),
            // A password holding `@`, then `:`, then `/` (trial helper-139: the rest of it read as a port and shown).
            ("  proxy: http://ci:p@ss:Secr3tW0rd/x@127.0.0.1:57510", "  proxy: http://ci:***@127.0.0.1:57510"),
            // A proxy URL has no path: after a proxy key its user information runs to the last `@` (helper-142).
            (#"  proxy: "http://u:p@ss/w0rd:x@127.0.0.1:59144""#, #"  proxy: "http://u:***@127.0.0.1:59144""#),
            ("  proxy: http://u:p:ss@w0rd/x@h:1 # a:b@c", "  proxy: http://u:***@h:1 # a:b@c"),
            ("HTTPS_PROXY=u:p@ss/w0rd:x@h:1 url=http://u:p@h/x@y", "HTTPS_PROXY=u:***@h:1 url=http://u:***@h/x@y"),
            ("--proxy http://u:p@ss?w#x@h:1", "--proxy http://u:***@h:1"),
            // Free text after a proxy key is no proxy URL; a plain value with a space in its password is read as before.
            ("--proxy: not a proxy URL: the port '9' is bad; write http://host:port, with user:password@ before the host",
             "--proxy: not a proxy URL: the port '9' is bad; write http://host:port, with user:password@ before the host"),
            ("  proxy: http://u:p w@h:1", "  proxy: http://u:***@h:1"),
            ("http://u:p@host:8080/x@y", "http://u:***@host:8080/x@y"),
            ("http://u:p@host/x@y", "http://u:***@host/x@y"),
            ("http://example.com/?q=a:b@c", "http://example.com/?q=a:b@c"),
            // The slashes left out.
            ("  url: 'http:jdoe:Sekr3tNS@127.0.0.1:19401/x'", "  url: 'http:jdoe:***@127.0.0.1:19401/x'"),
            ("see HTTPS:jdoe:Sekr3tNS@h", "see HTTPS:jdoe:***@h"),
            (#"  url: 'http:\\jdoe:pwBACKSLe5@127.0.0.1:19502/x'"#, #"  url: 'http:\\jdoe:***@127.0.0.1:19502/x'"#),
            (#"  url: 'http:\/jdoe:pwBACKSLe5@127.0.0.1:19502/x'"#, #"  url: 'http:\/jdoe:***@127.0.0.1:19502/x'"#),
            ("the http: header a:b@c", "the http: header a:b@c"),
            ("http://example.com/users/a:b/c@d", "http://example.com/users/a:b/c@d"),
            ("see http://example.com/x and mail a:b@c", "see http://example.com/x and mail a:b@c"),
            (#" 2 | options: { proxy: "http://u:FilePw#4321@127.0.0.1:21" }"#, #" 2 | options: { proxy: "http://u:***@127.0.0.1:21" }"#),
            ("  url: http://deploy:Tr0ub#3@127.0.0.1:1/echo # note", "  url: http://deploy:***@127.0.0.1:1/echo # note"),
            ("http://host:8080/users/alice@example.com", "http://host:8080/users/alice@example.com"),
            ("http://host:8080?mail=a@b", "http://host:8080?mail=a@b"),
            ("http://host:8080/#/user/a@b", "http://host:8080/#/user/a@b"),
            ("http://host/#a@b", "http://host/#a@b"),
            ("http://[::1]:8080/a@b", "http://[::1]:8080/a@b"),
        ] {
            #expect(URLCredentials.hidingPasswords(in: text) == expected, "\(text)")
        }
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:Tr0ub4dor#3@127.0.0.1:1")
                == "its user information holds a '#', which ends a URL's host part: write it as %23")
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:pa/ss@h/")?.hasSuffix("write it as %2F") == true)
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:12345#abc@h/")?.hasSuffix("write it as %23") == true)
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://127.0.0.1:19203?ss@127.0.0.1:19201/anything")?
                    .hasSuffix("write it as %3F (or, for a query, its '@' as %40)") == true)
        for valid in ["http://host:8080/users/alice@example.com", "http://h:1?mail=a@b", "http://u:p%23w@h/", "http://h/#/a@b",
                      "http://h:1/a@b.com", "http://h/?a@b", "http://example.com/?q=a:b@c", "http://u:p@h/#/a@b", "http://u:p@h?x=1@2"] {
            #expect(URLCredentials.misplacedDelimiterProblem(inURL: valid) == nil, "\(valid)")
        }
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://ci:Pa@ssw0rdSecret@127.0.0.1:57510")
                == "its user information holds an '@', which ends it: write it as %40")
        // Brackets, which hold an IPv6 host (trial helper-152).
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:p[as]sw0rd@127.0.0.1:1/x")
                == "its user information holds a '[', which only an IPv6 host is written in: write it as %5B")
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:pas]@h/")?.hasSuffix("write it as %5D") == true)
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://u:p@[::1]:1/x") == nil)
        #expect(URLCredentials.misplacedDelimiterProblem(inProxyURL: "http://u:p[x@127.0.0.1:3128")?.hasSuffix("write it as %5B") == true)
        #expect(URLCredentials.misplacedDelimiterProblem(inProxyURL: "http://u:p@[::1]:3128") == nil)
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://ci:p@ss:Secr3tW0rd/x@127.0.0.1:57510")
                == "its user information holds a '/', which ends a URL's host part: write it as %2F (and an '@' in it as %40)")
        for misplaced in ["http://CORP/jdoe:pw@127.0.0.1:1", "http://127.0.0.1#SECRETuser:pw@127.0.0.1:19302/x", "http://usr:p@127.0.0.1:1#S@127.0.0.1:1/x"] {
            #expect(URLCredentials.misplacedDelimiterProblem(inURL: misplaced) != nil, "\(misplaced)")
        }
        #expect(URLCredentials.misplacedDelimiterProblem(inURL: "http://usr:p@127.0.0.1:1#S@127.0.0.1:1/x")?.hasSuffix("(and an '@' in it as %40)") == true)
        #expect(URLCredentials.hidingPasswords(in: "http://u:p@ss/w0rd:x@h:1", asProxyURL: true) == "http://u:***@h:1")
        #expect(URLCredentials.hidingPasswords(in: "u:p@ss/w0rd:x@h:1", asProxyURL: true) == "u:***@h:1")
        #expect(URLCredentials.misplacedDelimiterProblem(inProxyURL: "http://u:p:ss@w0rd/x@h:1")
                == "its user information holds a '/', which ends a URL's host part: write it as %2F (and an '@' in it as %40)")
        #expect(URLCredentials.misplacedDelimiterProblem(inProxyURL: "http://u:p@ss@h:1") == "its user information holds an '@', which ends it: write it as %40")
        for valid in ["http://u:p@h:1", "http://h:1/", "http://u:p%2F%40x@h:1"] {
            #expect(URLCredentials.misplacedDelimiterProblem(inProxyURL: valid) == nil, "\(valid)")
        }
        for written in ["http://u:p@ss/w0rd:x@127.0.0.1:59144", "u:p@ss/w0rd:x@127.0.0.1:59144", "http://u:p:ss@w0rd/x@127.0.0.1:1"] {
            guard case .failure(let problem) = HTTPProxy.parse(written) else {
                Issue.record("\(written) was read as a proxy URL")
                continue
            }
            #expect(!problem.description.contains("w0rd") && problem.description.contains("write it as %2F"), "\(problem)")
        }
        guard case .failure(let problem) = HTTPProxy.parse("http://deploy:Tr0ub4dor#3@127.0.0.1:19130") else {
            Issue.record("a proxy URL whose password holds '#' was read")
            return
        }
        #expect(!problem.description.contains("Tr0ub4dor") && problem.description.contains("write it as %23"), "\(problem)")
    }

    @Test func anIPv6LiteralProxyHasItsAddressWithoutBrackets() throws {
        let proxy = try #require(HTTPProxy(url: "http://[::1]:8080"))
        #expect(proxy.host == "::1" && proxy.port == 8080)
        #expect(proxy.authority == "[::1]:8080")
        #expect(HTTPProxy(url: "http://u:p@[fd00::2]")?.host == "fd00::2")
    }

    @Test func malformedEnvironmentVariablesAreNamedAsSpelt() {
        let environment = ["https_proxy": "http://proxy:99999", "HTTP_PROXY": "http://fine:3128"]
        let malformed = ProxySettings.malformedVariables(in: environment)
        #expect(malformed.map(\.name) == ["https_proxy"])
        #expect(ProxySettings(environment: environment).https == nil)
        #expect(ProxySettings.malformedVariables(in: ["HTTPS_PROXY": "ftp://proxy:21"]).first?.problem.description.contains("http://") == true)
    }

    @Test func noProxyMatchesCIDRRangesAndIPAddressesOnlyWhole() {
        let proxy = HTTPProxy(host: "proxy", port: 3128)
        let settings = ProxySettings(proxy: proxy, bypass: ["10.0.0.0/8", "fd00::/8", "192.168.1.7:8080", "0.0.1", "::1", "[fe80::1]:443"])
        #expect(settings.proxy(scheme: "http", host: "10.200.3.4", port: 80) == nil)
        #expect(settings.proxy(scheme: "http", host: "11.0.0.1", port: 80) == proxy)
        #expect(settings.proxy(scheme: "http", host: "[fd12::5]", port: 80) == nil)
        #expect(settings.proxy(scheme: "http", host: "fe12::5", port: 80) == proxy)
        #expect(settings.proxy(scheme: "http", host: "192.168.1.7", port: 8080) == nil)
        #expect(settings.proxy(scheme: "http", host: "192.168.1.7", port: 80) == proxy)
        #expect(settings.proxy(scheme: "http", host: "::1", port: 80) == nil)
        #expect(settings.proxy(scheme: "https", host: "[fe80::1]", port: 443) == nil)
        // "0.0.1" is no suffix of an address: 10.0.0.1 goes through the proxy.
        let suffix = ProxySettings(proxy: proxy, bypass: ["0.0.1"])
        #expect(suffix.proxy(scheme: "http", host: "10.0.0.1", port: 80) == proxy)
        #expect(ProxySettings(proxy: proxy, bypass: ["0.0.0.0/0"]).proxy(scheme: "http", host: "8.8.8.8", port: 80) == nil)
        #expect(ProxySettings(proxy: proxy, bypass: ["10.0.0.0/33"]).proxy(scheme: "http", host: "10.0.0.1", port: 80) == proxy)
    }
}

extension Result where Failure == HTTPProxy.URLProblem {
    /// The problem's description, nil for a success.
    var failureDescription: String? {
        if case .failure(let problem) = self { problem.description } else { nil }
    }
}
