import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

@Suite struct AuthLoaderTests {
    let credentials = OAuth2ClientCredentials(tokenURL: URL(string: "http://auth.test/oauth/token")!,
                                              clientID: "id", clientSecret: "s3cret", scope: "read")

    func authorization(for auth: AuthMethod, headers: HTTPHeaders = [:]) async throws -> String? {
        let scripted = ScriptedLoader()
        _ = try await AuthLoader(next: scripted).load(request(headers: headers, options: HTTPRequestOptions(auth: auth)))
        return await scripted.received.first?.headers["Authorization"]
    }

    /// The message of the error a request ends in when its token request is answered with `reply`.
    func tokenError(_ reply: ScriptedLoader.Reply) async -> String? {
        await failure(of: AuthLoader(next: ScriptedLoader(routes: [.path("/oauth/token", reply)])),
                      request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))?.message
    }

    @Test func basicAndBearer() async throws {
        #expect(try await authorization(for: .basic(username: "Aladdin", password: "open sesame"))
            == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(try await authorization(for: .bearer(token: "abc")) == "Bearer abc")
        #expect(try await authorization(for: .none) == nil)
        #expect(try await authorization(for: .bearer(token: "abc"), headers: ["authorization": "Custom x"]) == "Custom x")
    }

    /// The client's ID and secret are each form-encoded before they become the token request's Basic credentials
    /// (RFC 6749 section 2.3.1): a `:` in the ID does not end it, and a server decoding them reads them as written
    /// (trial helper-157); letters, digits and `-._~` stay as they are.
    @Test func theClientsCredentialsAreFormEncodedInTheTokenRequest() async throws {
        let scripted = ScriptedLoader(routes: tokenRoutes(), fallback: .response(status: 200))
        let odd = OAuth2ClientCredentials(tokenURL: URL(string: "http://auth.test/oauth/token")!, clientID: "cli:2 ü-a.b_c~d",
                                          clientSecret: "s3cr+t%41:x&y=z", scope: nil)
        _ = try await AuthLoader(next: scripted).load(request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(odd))))
        let basic = try #require(await scripted.received.first?.headers["Authorization"])
        let decoded = String(decoding: try #require(Data(base64Encoded: String(basic.dropFirst("Basic ".count)))), as: UTF8.self)
        #expect(decoded == "cli%3A2%20%C3%BC-a.b_c~d:s3cr%2Bt%2541%3Ax%26y%3Dz")
    }

    func tokenRoutes(expiresIn: Int = 3600) -> [ScriptedLoader.Route] {
        [
            .path("/oauth/token", .delayed(.milliseconds(50), .json(#"{"access_token":"tok","token_type":"bearer","expires_in":\#(expiresIn)}"#))),
            .path("/unauthorized", .response(status: 401)),
        ]
    }

    @Test func oauthTokenIsFetchedOnceForParallelRequests() async throws {
        let scripted = ScriptedLoader(routes: tokenRoutes(), fallback: .response(status: 200))
        let loader = AuthLoader(next: scripted)
        let options = HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await loader.load(request(options: options)) } }
            try await group.waitForAll()
        }
        let sent = await scripted.received
        let tokenRequests = sent.filter { $0.path == "/oauth/token" }
        #expect(tokenRequests.count == 1)
        #expect(sent.filter { $0.path == "/items" }.allSatisfy { $0.headers["Authorization"] == "Bearer tok" })
        let tokenRequest = try #require(tokenRequests.first)
        #expect(tokenRequest.method == .post)
        #expect(tokenRequest.headers["Authorization"] == "Basic " + Data("id:s3cret".utf8).base64EncodedString())
        #expect(String(decoding: try tokenRequest.body.encode(), as: UTF8.self) == "grant_type=client_credentials&scope=read")
    }

    @Test func expiredTokensAreFetchedAgain() async throws {
        let scripted = ScriptedLoader(routes: tokenRoutes(expiresIn: 0), fallback: .response(status: 200))
        let loader = AuthLoader(next: scripted)
        let options = HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))
        _ = try await loader.load(request(options: options))
        _ = try await loader.load(request(options: options))
        #expect(await scripted.received.filter { $0.path == "/oauth/token" }.count == 2)
    }

    @Test func unauthorizedDropsTheCachedToken() async throws {
        let scripted = ScriptedLoader(routes: tokenRoutes(), fallback: .response(status: 200))
        let loader = AuthLoader(next: scripted)
        let options = HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))
        _ = try await loader.load(request("http://api.test/unauthorized", options: options))
        _ = try await loader.load(request(options: options))
        #expect(await scripted.received.filter { $0.path == "/oauth/token" }.count == 2)
    }

    /// A token response written as a form (`access_token=…`), as some servers answer whatever the `Accept`, is read as
    /// the JSON one is; a body that is neither says so.
    @Test func aFormEncodedTokenResponseIsRead() async throws {
        let form = ScriptedLoader.Reply.response(status: 200, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                 body: Data("access_token=t%2Bk%2F1&token_type=bearer&expires_in=3600".utf8))
        let scripted = ScriptedLoader(routes: [.path("/oauth/token", form)], fallback: .response(status: 200))
        _ = try await AuthLoader(next: scripted).load(request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))
        #expect(await scripted.received.filter { $0.path == "/items" }.map { $0.headers["Authorization"] } == ["Bearer t+k/1"])

        // Under another type (`text/plain`), or none, the same; a line break ends a field.
        let text = ScriptedLoader.Reply.response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("access_token=x2\r\ntoken_type=bearer\n".utf8))
        let plain = ScriptedLoader(routes: [.path("/oauth/token", text)], fallback: .response(status: 200))
        _ = try await AuthLoader(next: plain).load(request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))
        #expect(await plain.received.filter { $0.path == "/items" }.map { $0.headers["Authorization"] } == ["Bearer x2"])

        // A token holding white space is refused, not sent as `Bearer   t  `.
        let spaced = ScriptedLoader.Reply.json(#"{"access_token":"  SECRETWS17  ","token_type":"Bearer"}"#)
        let unsendable = await tokenError(spaced)
        #expect(unsendable?.hasSuffix("returned an access_token holding white space or a control character, which a Bearer token cannot hold") == true,
                "\(String(describing: unsendable))")
        let zeroWidth = ScriptedLoader.Reply.json(#"{"access_token":"ZWsp\u200bII3737","token_type":"Bearer"}"#)
        let nonASCII = await tokenError(zeroWidth)
        #expect(nonASCII?.hasSuffix("returned an access_token holding a character that is not ASCII, which a Bearer token cannot hold") == true,
                "\(String(describing: nonASCII))")
        // A token holding what ends a credential or a form field is refused, not sent as `Bearer T1;refresh_token=R1`
        // (trial helper-95); an `=` ends a token only.
        let refusal = { (character: String) in "returned an access_token holding '\(character)', which a Bearer token cannot hold" }
        for (body, message) in [("access_token=T1;refresh_token=R1&token_type=bearer",
                                 refusal(";") + " (form fields are separated by '&' or a line break)"),
                                (#"{"access_token":"a=b","token_type":"Bearer"}"#, refusal("=")),
                                (#"{"access_token":"ab\"c","token_type":"Bearer"}"#, refusal("\""))] {
            let reply = ScriptedLoader.Reply.response(status: 200, body: Data(body.utf8))
            let error = await tokenError(reply)
            #expect(error?.hasSuffix(message) == true, "\(String(describing: error))")
        }
        let padded = ScriptedLoader(routes: [.path("/oauth/token", .json(#"{"access_token":"dGs=="}"#))], fallback: .response(status: 200))
        _ = try await AuthLoader(next: padded).load(request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))
        #expect(await padded.received.filter { $0.path == "/items" }.map { $0.headers["Authorization"] } == ["Bearer dGs=="])
        // A response without token_type is taken as Bearer, as most OAuth2 clients take it.
        let untyped = ScriptedLoader(routes: [.path("/oauth/token", .json(#"{"access_token":"untyped1"}"#))], fallback: .response(status: 200))
        _ = try await AuthLoader(next: untyped).load(request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))
        #expect(await untyped.received.filter { $0.path == "/items" }.map { $0.headers["Authorization"] } == ["Bearer untyped1"])
        // A token of a type the runner does not send is refused, not sent as `mac …`.
        let mac = ScriptedLoader.Reply.json(#"{"access_token":"t","token_type":"mac"}"#)
        let refused = await tokenError(mac)
        #expect(refused?.hasSuffix("returned a token of type 'mac', which runner cannot send (it sends Bearer tokens)") == true,
                "\(String(describing: refused))")

        let other = ScriptedLoader.Reply.response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<p>token</p>".utf8))
        let error = await tokenError(other)
        #expect(error?.hasSuffix("returned no access_token (its body is neither a JSON object nor form fields holding one)") == true,
                "\(String(describing: error))")
        // Fields separated by `;`: said so (trial helper-96).
        let semicolons = ScriptedLoader.Reply.response(status: 200, body: Data("token_type=bearer;access_token=T1xTokAAA".utf8))
        let separated = await tokenError(semicolons)
        #expect(separated?.hasSuffix("its form fields are 'token_type', and none is 'access_token' with a value: the name is "
                                             + "read as RFC 6749 writes it, and fields are separated by '&' or a line break, not ';')") == true,
                "\(String(describing: separated))")
        // Form fields with other names: named (not their values), as the server wrote them (trial helper-94).
        let dashed = ScriptedLoader.Reply.response(status: 200, body: Data("Access-Token=tokVALUE1&Refresh-Token=r2&token_type=bearer".utf8))
        let named = await tokenError(dashed)
        #expect(named?.hasSuffix("returned no access_token (its form fields are 'Access-Token', 'Refresh-Token', 'token_type', "
                                         + "and none is 'access_token' with a value: the name is read as RFC 6749 writes it)") == true,
                "\(String(describing: named))")
    }

    /// The store keeps what every token fetched revealed (a refresh token a later response may echo), also once the
    /// token is dropped after a 401; a form response reveals its token fields as a JSON one does.
    @Test func theStoreKeepsWhatEveryTokenRevealed() async throws {
        let form = ScriptedLoader.Reply.response(status: 200, body: Data("access_token=a1&Refresh-Token=r%2B1&token_type=bearer".utf8))
        let tokens = OAuth2TokenStore()
        let options = HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))
        _ = try await AuthLoader(next: ScriptedLoader(routes: [.path("/oauth/token", form)], fallback: .response(status: 200)),
                                 tokens: tokens).load(request(options: options))
        await tokens.invalidate(credentials, ifValue: "a1")
        let second = try await tokens.token(for: credentials) { OAuth2AccessToken(value: "a2", revealed: ["a2", "r2"]) }
        #expect(second.value == "a2")
        #expect(await tokens.credentials(revealedFor: credentials).sorted() == ["a1", "a2", "r%2B1", "r+1", "r2"])
    }

    /// The token request goes through the request's proxy and trusts its certificate files, as `--proxy` and
    /// `--cacert` say of every request.
    @Test func theTokenRequestGoesThroughTheRequestsProxy() async throws {
        let scripted = ScriptedLoader(routes: tokenRoutes(), fallback: .response(status: 200))
        var options = HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials), trustedCertificateFiles: ["/ca.pem"])
        options.proxy = ProxySettings(proxy: HTTPProxy(host: "127.0.0.1", port: 3128))
        _ = try await AuthLoader(next: scripted).load(request(options: options))
        let tokenRequest = try #require(await scripted.received.first { $0.path == "/oauth/token" })
        #expect(tokenRequest.proxy == HTTPProxy(host: "127.0.0.1", port: 3128))
        #expect(tokenRequest.options.trustedCertificateFiles == ["/ca.pem"])
    }

    /// A refusal's RFC 6749 `error` code is named (trial helper-97); text that is no such code is not.
    @Test func aRefusedTokenRequestNamesItsErrorCode() async {
        let invalid = await tokenError(.response(status: 401, body: Data(#"{"error":"invalid_client","refresh_token":"rt-9"}"#.utf8)))
        #expect(invalid?.hasSuffix("was refused with status 401 (error 'invalid_client')") == true, "\(String(describing: invalid))")
        let odd = await tokenError(.response(status: 400, body: Data(#"{"error":"secret s3cr3t leaked"}"#.utf8)))
        #expect(odd?.hasSuffix("was refused with status 400") == true, "\(String(describing: odd))")
    }

    @Test func refusedTokenRequestIsAnError() async {
        let scripted = ScriptedLoader(routes: [.path("/oauth/token", .response(status: 400))])
        let error = await failure(of: AuthLoader(next: scripted),
                                  request(options: HTTPRequestOptions(auth: .oauth2ClientCredentials(credentials))))
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("400") == true)
    }
}
