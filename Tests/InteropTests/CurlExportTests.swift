import Foundation
import HTTPCore
import Interop
import Testing

/// `export curl`: multipart parts, whose names curl's `-F` and `--form-string` end at the first `=`.
@Suite struct CurlExportTests {
    /// The command `export curl` writes for a POST of `parts`.
    static func command(_ parts: [MultipartBody.Part],
                        placeholders: ValuePlaceholders = ValuePlaceholders(nonce: "abc")) throws -> (text: String, variables: [String]) {
        let components = try #require(URLComponents(string: "http://127.0.0.1:1/upload"))
        let request = HTTPRequest(method: .post, components: components, body: MultipartBody(parts: parts))
        return CurlExport(placeholders: placeholders).command(for: ExportedRequest(request: request))
    }

    static let file = MultipartBody.Part.file(name: "up=load", filename: "a.txt", contentType: "text/plain",
                                              content: .file(URL(fileURLWithPath: "/tmp/a.txt")))

    /// curl would send `a=b=v1` as the part `a` with the value `b=v1`: no command is written, a comment says why.
    @Test func aPartNameHoldingAnEqualsSignIsACommentNotACommand() throws {
        let literal = try Self.command([.field(name: "ok", value: "1"), .field(name: "a=b", value: "v1")])
        #expect(literal.text == "# not written: curl cannot send the multipart part named 'a=b', which holds '=': its -F and "
                + "--form-string end a part's name at its first '=' (runner run sends the name whole)")
        #expect(literal.variables.isEmpty)
        let file = try Self.command([Self.file])
        #expect(file.text.hasPrefix("# not written: curl cannot send the multipart part named 'up=load'") && !file.text.contains("\n"))
    }

    /// A NUL byte in a text body or a multipart field cannot be passed on a command line (a shell drops it): no command
    /// is written, a comment says why; in a JSON body it is an escape, written.
    @Test func aNULByteOnTheCommandLineIsACommentNotACommand() throws {
        let components = try #require(URLComponents(string: "http://127.0.0.1:1/upload"))
        for body: any HTTPBody in [DataBody(text: "a\u{0}b", contentType: "text/plain"), MultipartBody(parts: [.field(name: "f", value: "a\u{0}b")])] {
            let command = CurlExport(placeholders: ValuePlaceholders(nonce: "abc"))
                .command(for: ExportedRequest(request: HTTPRequest(method: .post, components: components, body: body)))
            #expect(command.text.hasPrefix("# not written: the body holds a NUL byte") && !command.text.contains("\n"), "\(command.text)")
        }
        let json = CurlExport(placeholders: ValuePlaceholders(nonce: "abc"))
            .command(for: ExportedRequest(request: HTTPRequest(method: .post, components: components, body: JSONBody(.string("a\u{0}b")))))
        #expect(json.text.contains(#"\u0000"#), "\(json.text)")
    }

    /// A name holding a secret (or a capture) is read when the command runs and may hold `=`: a comment names its
    /// reference, never the value.
    @Test func aPartNamedByASecretIsACommentNotACommand() throws {
        var placeholders = ValuePlaceholders(nonce: "abc")
        placeholders.hiddenValues = [("pa=ssword", "PW")]
        let reference = placeholders.placeholder(for: "PW")
        for name in [reference, "pa=ssword", "x-" + reference] {
            let command = try Self.command([.field(name: name, value: reference)], placeholders: placeholders)
            #expect(command.text.hasPrefix("# not written: curl cannot send the multipart part named '")
                    && command.text.contains("$PW', which is known only when the command runs, and may hold '='")
                    && !command.text.contains("pa=ssword") && !command.text.contains("\n"), "\(command.text)")
            #expect(command.variables == ["PW"])
        }
    }

    /// A request whose headers set `Authorization` is sent with that header alone, whatever its auth: the command too
    /// (trial helper-193 F14: curl sent both, the auth's credential to a server meant not to get it).
    @Test func anAuthorizationHeaderWrittenLeavesTheAuthOut() throws {
        let components = try #require(URLComponents(string: "http://127.0.0.1:1/headers"))
        for auth: AuthMethod in [.bearer(token: "other-token-999"), .basic(username: "u", password: "p")] {
            var request = HTTPRequest(method: .get, components: components, headers: ["Authorization": "Token abc123456"])
            request.options.auth = auth
            let command = CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: request))
            #expect(command.text.contains("-H 'Authorization: Token abc123456'"), "\(command.text)")
            #expect(!command.text.contains("other-token") && !command.text.contains("-u "), "\(command.text)")
        }
    }

    /// A proxy is written with `--proxytunnel` for an `http://` target: runner sends it through a `CONNECT` tunnel, which
    /// curl opens for such a target only so (for an `https://` one it always does).
    @Test func aProxyForAnHTTPTargetIsWrittenWithATunnel() throws {
        for (url, tunnel) in [("http://127.0.0.1:1/a", true), ("https://127.0.0.1:1/a", false)] {
            var request = HTTPRequest(method: .get, components: try #require(URLComponents(string: url)))
            request.options.proxy = ProxySettings(proxy: HTTPProxy(host: "127.0.0.1", port: 3128))
            let command = CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: request))
            #expect(command.text.contains("--proxy http://127.0.0.1:3128"), "\(command.text)")
            #expect(command.text.contains("--proxytunnel") == tunnel, "\(command.text)")
        }
    }

    /// A proxy's user and password are written percent-encoded, as a URL's user information must be: decoded, a password
    /// holding `@` and `/` sent curl to another host (trial helper-146); a secret's is read from its variable when the
    /// command runs, encoded so.
    @Test func aProxysCredentialsAreWrittenPercentEncoded() throws {
        var request = HTTPRequest(method: .get, components: try #require(URLComponents(string: "https://127.0.0.1:1/a")))
        request.options.proxy = ProxySettings(proxy: HTTPProxy(host: "::1", port: 3128, username: "u", password: "p@ss/w0rd:x"))
        let literal = CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: request))
        #expect(literal.text.contains("--proxy 'http://u:p%40ss%2Fw0rd%3Ax@[::1]:3128'")
                || literal.text.contains("--proxy http://u:p%40ss%2Fw0rd%3Ax@[::1]:3128"), "\(literal.text)")
        var placeholders = ValuePlaceholders(nonce: "abc")
        placeholders.hiddenValues = [("p@ss/w0rd:x", "PROXY_PASSWORD")]
        let hidden = CurlExport(placeholders: placeholders).command(for: ExportedRequest(request: request))
        #expect(!hidden.text.contains("w0rd") && hidden.text.contains("PROXY_PASSWORD"), "\(hidden.text)")
        // A control character in it: curl would skip the proxy without a word (trial helper-148).
        request.options.proxy = ProxySettings(proxy: HTTPProxy(host: "127.0.0.1", port: 3128, username: "u", password: "a\nb"))
        let control = CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: request))
        #expect(control.text.hasPrefix("# not written: the proxy's user or password holds a control character"), "\(control.text)")
    }

    /// curl sends every header but `Authorization` and `Cookie` to the origin a redirect leads to: a request with one
    /// runner drops there (`Proxy-Authorization`, written as it is; a header holding a secret) is written without `-L`.
    @Test func aHeaderRunnerDropsOnAHopCurlWouldSendLeavesOutFollowingRedirects() throws {
        let components = try #require(URLComponents(string: "http://127.0.0.1:1/a"))
        func command(_ headers: [(String, String)], secretHeaders: [String] = []) -> String {
            var request = HTTPRequest(method: .get, components: components)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.options.secretHeaders = secretHeaders
            return CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: request)).text
        }
        let proxy = command([("Proxy-Authorization", "Basic dXNlcjpwYXNz"), ("X-Key", "k")], secretHeaders: ["X-Key"])
        #expect(proxy.hasPrefix("# -L left out: curl would send Proxy-Authorization, X-Key to another origin") && !proxy.contains("-L \\")
                && !proxy.hasSuffix("-L"), "\(proxy)")
        for kept in [command([("Authorization", "Bearer t"), ("Cookie", "a=b")]), command([("X-Plain", "v")])] {
            #expect(kept.hasSuffix("-L") && !kept.contains("#"), "\(kept)")
        }
        // A body holding a secret, which curl sends again on a 307 or 308 (trial helper-160).
        var post = HTTPRequest(method: .post, components: components)
        post.body = DataBody(text: #"{"password":"pw-123456"}"#)
        post.options.bodyHoldsCredential = true
        let body = CurlExport(placeholders: ValuePlaceholders(nonce: "abc")).command(for: ExportedRequest(request: post)).text
        #expect(body.hasPrefix("# -L left out: curl would send the body, which holds a secret or a credential, to another origin a 307 or 308 redirect")
                && !body.hasSuffix("-L"), "\(body)")
    }

    /// A name without `=` is written as it is; a value may hold `=` (the name ends at the first one).
    @Test func aPartNameWithoutAnEqualsSignIsWritten() throws {
        let command = try Self.command([.field(name: "a b", value: "x=y")])
        #expect(command.text.contains("  --form-string 'a b=x=y'"), "\(command.text)")
    }
}
