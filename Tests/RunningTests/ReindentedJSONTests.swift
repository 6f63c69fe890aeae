import Foundation
import HTTPCore
@testable import Running
import Testing

/// JSON bodies are shown indented with every token as the server wrote it.
@Suite struct ReindentedJSONTests {
    /// Text whose tokens the JSON writer writes as they are comes out as `serialized(pretty: true)` writes it.
    @Test(arguments: [#"{"a":1,"b":[true,null,{"c":"x"}],"d":{},"e":[]}"#, "[]", "{}", #"[[{"a":[]}],"s p a c e"]"#,
                      " {\n\t\"k\" :  [ 1 , 2 ]\r\n} "])
    func plainTextIsLaidOutAsTheWriterLaysItOut(text: String) throws {
        #expect(Exchange.reindented(text) == (try JSONValue.parse(text)).serialized(pretty: true))
    }

    /// Strings (with escaped quotes, brackets, colons and commas inside), numbers and repeated keys stay as written.
    @Test func tokensStayAsWritten() {
        let text = #"{"a":1,"a":2,"n":[-0,1e2,1.00000000000000001,12345678901234567890],"s":"q\"{[,:]}\\","u":"\u00e9\ud83d"}"#
        #expect(Exchange.reindented(text) == """
            {
              "a": 1,
              "a": 2,
              "n": [
                -0,
                1e2,
                1.00000000000000001,
                12345678901234567890
              ],
              "s": "q\\"{[,:]}\\\\",
              "u": "\\u00e9\\ud83d"
            }
            """)
    }

    /// An OAuth2 token response written as a form, as some servers write it, is kept with its tokens masked, whatever its
    /// type says (the auth reads such a response under any type).
    @Test func aFormEncodedTokenResponseIsKeptWithItsTokensMasked() throws {
        let form = Exchange.kept(Data("access_token=formtokAAAA1111&token_type=bearer&refresh_token=formrefBBBB2222".utf8),
                                 type: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(form?.text == "access_token=***&token_type=bearer&refresh_token=***" && form?.isJSON == false)
        #expect(Exchange.kept(Data("access_token=PlainTok3nSecret&token_type=bearer".utf8), type: "text/plain")?.text
                == "access_token=***&token_type=bearer")
        #expect(Exchange.kept(Data("access_token=t".utf8), type: nil)?.text == "access_token=***")
        #expect(Exchange.kept(Data("no tokens=here&a=b".utf8), type: "text/plain")?.text == "no tokens=here&a=b")
        // Fields ended by line breaks as well as `&`, and a token named again in another field or member.
        #expect(Exchange.kept(Data("access_token=Sekr3tAT3&\r\ntoken_type=Bearer&\r\nid_token=Sekr3tID3\r\n".utf8), type: nil)?.text
                == "access_token=***&\r\ntoken_type=Bearer&\r\nid_token=***\r\n")
        let refused = #"{"error":"invalid_grant","error_description":"token Sekr3tAT12 revoked","access_token":"Sekr3tAT12"}"#
        let kept = try #require(Exchange.kept(Data(refused.utf8), type: "application/json"))
        #expect(!kept.text.contains("Sekr3tAT12") && kept.text.contains(#""error_description": "token *** revoked""#), "\(kept.text)")
        // Names in another case or with spaces, and members deeper in: shown when the auth refuses the response.
        #expect(Exchange.kept(Data("access_token = SPnnnn1111zz & token_type = bearer".utf8), type: nil)?.text == "access_token =***& token_type = bearer")
        #expect(Exchange.kept(Data("Access_Token=CASEpppp4444zz&token_type=bearer".utf8), type: nil)?.text == "Access_Token=***&token_type=bearer")
        // A name written with escapes or in another form, and a long body that names no token (read in one pass).
        #expect(Exchange.kept(Data("mac%5Fkey=MACpppp5555zz&a=b".utf8), type: nil)?.text == "mac%5Fkey=***&a=b")
        #expect(Exchange.kept(Data("MAC-KEY=MACpppp6666zz".utf8), type: nil)?.text == "MAC-KEY=***")
        // Fields separated by `;`, which the auth refuses (trial helper-96).
        #expect(Exchange.kept(Data("token_type=bearer;access_token=T1xTokAAA".utf8), type: nil)?.text == "token_type=bearer;access_token=***")
        let long = String(repeating: "QUJD+/=", count: 30_000)
        #expect(Exchange.kept(Data(long.utf8), type: nil)?.text.hasPrefix("QUJD+/=QUJD") == true)
        let nested = try #require(Exchange.kept(Data(#"{"data":{"access_token":"NESTpppp3333zz","n":[{"ID_TOKEN":"x"}]}}"#.utf8), type: nil))
        #expect(!nested.text.contains("NESTpppp3333zz") && nested.text.contains(#""ID_TOKEN": "***""#), "\(nested.text)")
        let camel = try #require(Exchange.kept(Data(#"{"error":"bad","accessToken":"SECRETCAMELR02","refresh-token":"SECRETR2"}"#.utf8), type: nil))
        #expect(!camel.text.contains("SECRETCAMELR02") && !camel.text.contains("SECRETR2"), "\(camel.text)")
    }

    /// A JSON body is cut before a string the 64 KiB limit falls in, so a secret escaped in it is not cut in two.
    @Test func aJSONBodyIsCutBeforeTheStringTheLimitFallsIn() throws {
        let padding = String(repeating: "q", count: Exchange.bodyLimit - 20)
        let text = #"{"a":""# + padding + #"","s":"pass\/w\u00fcrd-A123456","z":1}"#
        let kept = try #require(Exchange.kept(Data(text.utf8), type: "application/json"))
        #expect(kept.isJSON && kept.text.hasPrefix(#"{"a":""# + padding + #"","s":…"#), "\(kept.text.suffix(80))")
        #expect(kept.text.hasSuffix("(cut at 64 KiB of \(text.utf8.count) bytes)"))
    }
}
