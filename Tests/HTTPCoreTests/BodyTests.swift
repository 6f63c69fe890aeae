import Foundation
import Testing
import HTTPCore

@Suite struct BodyTests {
    @Test func formEncodesAllButAlphanumerics() throws {
        let body = FormBody([("name", "Arthur Dent"), ("q", "a+b&c=d/é"), ("tag", "x"), ("tag", "y")])
        #expect(body.encodedText == "name=Arthur%20Dent&q=a%2Bb%26c%3Dd%2F%C3%A9&tag=x&tag=y")
        #expect(try body.encode() == Data(body.encodedText.utf8))
        #expect(body.additionalHeaders["content-type"] == "application/x-www-form-urlencoded")
    }

    @Test func percentEncodingKeepsWhatItsCharacterSetNames() {
        #expect(PercentEncoding.encode("a-b.c_d~e f") == "a-b.c_d~e%20f")
        #expect(PercentEncoding.encode("a-b.c_d~e f", keeping: .alphanumerics) == "a%2Db%2Ec%5Fd%7Ee%20f")
    }

    @Test func jsonBodyIsCompactAndKeepsOrder() throws {
        let value: JSONValue = .object(JSONObject([
            ("z", .int(1)), ("a", .array([.bool(true), .null, .double(1.5), .double(2)])),
            ("s", .string("quote\" slash\\ nl\n ctl\u{01} é")),
        ]))
        let text = String(decoding: try JSONBody(value).encode(), as: UTF8.self)
        #expect(text == #"{"z":1,"a":[true,null,1.5,2.0],"s":"quote\" slash\\ nl\n ctl\u0001 é"}"#)
        #expect(JSONBody(.null).additionalHeaders["Content-Type"] == "application/json")
    }

    @Test func jsonBodyRejectsNaN() {
        #expect(throws: BodyEncodingError.self) { try JSONBody(.double(.nan)).encode() }
        #expect(throws: BodyEncodingError.self) { try JSONBody(.array([.int(1), .object(JSONObject([("x", .double(.infinity))]))])).encode() }
    }

    @Test func multipartLayout() throws {
        let body = MultipartBody(parts: [
            .field(name: "note", value: "hello"),
            .file(name: "avatar", filename: "a\"b.png", contentType: "image/png", content: .data(Data([0, 1, 2]))),
        ], boundary: "XYZ")
        let expected = "--XYZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
            + "--XYZ\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a%22b.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{0}\u{1}\u{2}\r\n--XYZ--\r\n"
        #expect(try body.encode() == Data(expected.utf8))
        #expect(body.additionalHeaders["Content-Type"] == "multipart/form-data; boundary=XYZ")
    }

    @Test func multipartReadsFilesAtEncodeTime() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("multipart-\(UUID()).txt")
        let body = MultipartBody(parts: [.file(name: "f", filename: "f.txt", contentType: "text/plain", content: .file(url))],
                                 boundary: "B")
        #expect(throws: BodyEncodingError.self) { try body.encode() }
        try Data("later".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(String(decoding: try body.encode(), as: UTF8.self).contains("\r\n\r\nlater\r\n--B--"))
    }

    /// C1 controls (U+0080–U+009F) are escaped like C0 ones, so JSON text (the JSON report) never carries them raw;
    /// the characters around them, U+00A0 and U+0100 included, stay as they are, and the text parses back the same.
    @Test func jsonTextEscapesC1ControlsAndParsesBack() throws {
        let text = "a\u{9B}2J\u{1B}[0m\u{85}\u{80}\u{9F}\u{A0}\u{100}Ã\u{9F}é🔑"
        let serialized = JSONValue.string(text).serialized()
        #expect(serialized == #""a\u009b2J\u001b[0m\u0085\u0080\u009f\#u{A0}\#u{100}Ã\u009fé🔑""#)
        #expect(!serialized.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(try JSONValue.parse(Array(serialized.utf8)) == .string(text))
    }

    @Test func dataAndEmptyBodies() throws {
        #expect(EmptyBody().isEmpty)
        #expect(DataBody(text: "hi").additionalHeaders["Content-Type"] == "text/plain; charset=utf-8")
        #expect(DataBody(Data()).isEmpty)
        #expect(DataBody(Data([1])).additionalHeaders.isEmpty)
    }
}

/// What outputs show of the body of a response cut short.
@Suite struct CutShortBodyTests {
    private func shown(_ bytes: [UInt8], cutShort: Bool = true) -> Data {
        var response = HTTPResponse(request: HTTPRequest(url: "http://127.0.0.1:1/")!, status: .ok, body: Data(bytes))
        response.isCutShort = cutShort
        return response.shownBody
    }

    /// Text ends in `…`, without a character the cut fell inside of; a whole body, an empty one and binary data are as
    /// they came.
    @Test func textCutShortEndsInAnEllipsis() {
        #expect(shown(Array("Bearer Zq7".utf8)) == Data("Bearer Zq7…".utf8))
        #expect(shown(Array("Grü".utf8).dropLast()) == Data("Gr…".utf8))
        #expect(shown(Array("a😀".utf8).dropLast(2)) == Data("a…".utf8))
        #expect(shown(Array("whole".utf8), cutShort: false) == Data("whole".utf8))
        #expect(shown([]) == Data())
        #expect(shown([0x89, 0x50, 0xFF, 0xFE]) == Data([0x89, 0x50, 0xFF, 0xFE]))
    }
}
