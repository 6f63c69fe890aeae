import Foundation
import Testing

/// Secrets echoed back the way httpbin echoes them (test server route `/anything`): a URL as an IRI, with the runner's
/// percent-encoding of ASCII characters kept and non-ASCII ones decoded (`?s=pass%20wörd-99`), and header values read
/// as ISO-8859-1 (`Grüße` as `GrÃ¼Ã\u{9F}e`, with `--verbose` also JSON-escaped, `Gr\u00c3\u00bc…`), header values
/// trimmed; credentials written as `Authorization` values, a secret in a multipart name (its `"` as `%22`), and a secret's
/// misreading captured and sent on (percent-encoded), and echoes holding secrets among other text (a URL, every header,
/// a regex group of the escaped echo) captured and sent on; and a value of many copies of a secret, cut short where
/// each output cuts it.
@Suite struct SecretEchoScenarioTests {
    static let secrets = ["ECHOED_PASSWORD": "pass wörd-99", "ECHOED_UNICODE": "Grüße—秘密🔑x", "ECHOED_QUOTED": #"Super Secret"99"#,
                          "ECHOED_PADDED": " lead trail12 "]

    /// Pieces of every form in which the secrets may come back.
    static let fragments = ["wörd", "pass w", "w%C3%B6rd", "pass%20", "Grüße", "GrÃ¼", "Gr\\u00c3", "Ã\\u{9F}", "Ã\\u009f", "秘密", "ç§", "🔑",
                            "RawBearer", "cHJveHk6", "Super Secret", "lead trail12", "%C3%83%C2%BC", "%C3%83%C2%9F", "u00c3"]

    @Test(arguments: [false, true]) func secretsEchoedAsAnIRIOrReadAsLatin1AppearInNoOutput(verbose: Bool) async throws {
        let output = try await ScenarioRun.run(
            "secrets-echoed", ["run", "requests", "--env", "ci"] + (verbose ? ["--verbose"] : []), environment: Self.secrets)
        let result = output.result
        #expect(result.exitCode == 4, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\nFAIL ").count + (result.stdout.hasPrefix("FAIL ") ? 1 : 0) == 12,
                "each request failed, showing what the server echoed: \(result.stdout)")
        let outputs = ["stdout": result.stdout, "stderr": result.stderr, "junit": try #require(output.junit),
                       "json": try #require(output.json)]
        for (name, text) in outputs {
            for fragment in Self.fragments {
                #expect(!text.contains(fragment), "\(name) shows '\(fragment)':\n\(text)")
            }
        }
        let echoed = output.received.compactMap { $0.header("X-Uni") }
        #expect(echoed.count == 4 && echoed.allSatisfy { $0 == Self.secrets["ECHOED_UNICODE"] }, "the server got the secret: \(echoed)")
    }
}
