import HTTPCore
import Testing
@testable import Running

/// Which captured texts are derived from a secret, and so hidden like it from then on.
@Suite struct SensitiveTextTests {
    @Test func aCaptureHoldingASecretOrAPieceOfOneIsDerivedFromIt() {
        let secrets = ["abcdefgh-topsecret", "Grüße-geheim", "p@ss word-77"]
        for derived in ["abcdefgh-topsecret", "Bearer abcdefgh-topsecret!", "topsec", #"{"X-Secret": "abcdefgh"}"#,
                        "GrÃ¼ÃŸe-geheim", #"Gr\u00c3\u00bc\u00c3\u009fe"#, "x-geheim-y",
                        // Across two copies side by side (`…secret` + `abcd…`), and a piece as sent in a URL.
                        "secretabcd", "Gr%C3%BC%C3%9Fe-g", "%C3%9Fe-geh", "%40ss+word"] {
            #expect(SensitiveText.derives(derived, from: secrets), "\(derived)")
        }
        for unrelated in ["", "abcde", "topse", #"{"X-Other": "value"}"#, "Grü", "unrelated text of any length", "cret%20abcd",
                          "Gr%C3%BC"] {
            #expect(!SensitiveText.derives(unrelated, from: secrets), "\(unrelated)")
        }
        #expect(!SensitiveText.derives("abcdefgh", from: []))
    }

    /// A short bearer token, sent by `auth:` or written in an Authorization header, is among the values hidden where they
    /// stand whole, as a server echoes it (trial helper-191: `"token": "abc12"` showed when a variable gave it).
    @Test func aShortBearerTokenIsHiddenWhereItStandsWhole() {
        #expect(AuthMethod.bearer(token: "abc12").shortCredentials == ["abc12"])
        #expect(AuthMethod.bearer(token: "abcdef12").shortCredentials.isEmpty)
        #expect(HTTPHeaders([("Authorization", "Bearer abc12"), ("Proxy-Authorization", "Basic dTo3")]).shortTokens == ["abc12"])
    }

    /// A sent credential too short to hide on its own (`u:7` is `dTo3` in base64) is hidden with its scheme, as a server
    /// echoes the header; a long one alone.
    @Test func aShortCredentialIsHiddenWithItsScheme() {
        #expect(HTTPHeaders([("Authorization", "Basic dTo3")]).credentialValues == ["Basic dTo3"])
        #expect(HTTPHeaders([("Authorization", "Bearer abc")]).credentialValues == ["Bearer abc"])
        #expect(HTTPHeaders([("Authorization", "Bearer abcdef123")]).credentialValues == ["abcdef123"])
        #expect(AuthMethod.basic(username: "u", password: "7").credentialTexts == ["Basic dTo3"])
        // Decoded as a server echoes it, when long enough to hide alone (a short password with its user name).
        #expect(AuthMethod.basic(username: "user", password: "ok").credentialTexts == ["dXNlcjpvaw==", "user:ok"])
    }

    /// A captured mapping or list gives the texts that derive from a secret, not all of its own: the host and user agent
    /// beside a cookie in captured request headers stay shown.
    @Test func aCapturedObjectGivesOnlyItsDerivedTexts() {
        let headers = JSONValue.object(JSONObject([("Host", .string("127.0.0.1:19301")), ("User-Agent", .string("runner/0.1.0")),
                                                   ("Cookie", .string("session=abcdef123")),
                                                   ("Tokens", .array([.string("x-abcdef123-y"), .int(7)])),
                                                   ("abcdef123", .bool(true))]))
        #expect(SensitiveText.derivedTexts(in: headers, from: ["abcdef123"]) == ["session=abcdef123", "x-abcdef123-y", "abcdef123"])
        #expect(SensitiveText.derivedTexts(in: .string("Bearer abcdef123"), from: ["abcdef123"]) == ["Bearer abcdef123"])
        #expect(SensitiveText.derivedTexts(in: .int(5), from: ["abcdef123"]).isEmpty)
    }
}
