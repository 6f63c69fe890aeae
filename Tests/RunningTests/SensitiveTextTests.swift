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
}
