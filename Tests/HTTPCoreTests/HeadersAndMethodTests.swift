import Testing
import HTTPCore

@Suite struct HTTPHeadersTests {
    @Test func namesCompareCaseInsensitively() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.contains("CONTENT-TYPE"))
        headers["CONTENT-TYPE"] = "application/json"
        #expect(headers.count == 1)
        #expect(headers["Content-Type"] == "application/json")
    }

    @Test func keepsOrderAndRepeatedValues() {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "a")
        headers.add(name: "X-One", value: "1")
        headers.add(name: "accept", value: "b")
        #expect(headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(headers.fields.map(\.name) == ["Accept", "X-One", "accept"])
        headers.set(name: "Accept", value: "c")
        #expect(headers.fields.map(\.value) == ["c", "1"])
        headers["accept"] = nil
        #expect(headers.fields.map(\.name) == ["X-One"])
    }

    @Test func addMissingKeepsExistingValues() {
        var headers: HTTPHeaders = ["user-agent": "mine"]
        headers.addMissing(from: ["User-Agent": "default", "Accept": "*/*"])
        #expect(headers["User-Agent"] == "mine")
        #expect(headers["accept"] == "*/*")
    }

    @Test func namesFoldASCIILettersOnlyAndOtherNamesAsLowercasedText() {
        #expect(HTTPHeaders.sameName("X-Request-ID", "x-request-id"))
        #expect(HTTPHeaders.sameName("", ""))
        #expect(!HTTPHeaders.sameName("X-A", "X-B"))
        #expect(!HTTPHeaders.sameName("X-A", "X-AB"))
        // Pairs one bit apart (0x20) that are not letters stay different.
        #expect(!HTTPHeaders.sameName("X[", "X{"))
        #expect(!HTTPHeaders.sameName("@", "`"))
        #expect(!HTTPHeaders.sameName("X-1", "X-\u{11}"))
        // Non-ASCII names compare as `lowercased()` does, as before.
        #expect(HTTPHeaders.sameName("X-Ä", "x-ä"))
        #expect(!HTTPHeaders.sameName("X-Ä", "x-ö"))
        #expect(HTTPHeaders.sameName("Ab-É", "aB-é"))
    }

    @Test func equalityIgnoresNameCase() {
        #expect(HTTPHeaders([("A", "1")]) == HTTPHeaders([("a", "1")]))
        #expect(HTTPHeaders([("A", "1")]) != HTTPHeaders([("a", "2")]))
    }
}

@Suite struct HTTPMethodAndStatusTests {
    @Test func methodAcceptsTokensOnly() {
        #expect(HTTPMethod("PROPFIND")?.rawValue == "PROPFIND")
        #expect(HTTPMethod("GET") == .get)
        #expect(HTTPMethod("") == nil)
        #expect(HTTPMethod("GE T") == nil)
        #expect(HTTPMethod("GET(") == nil)
    }

    @Test func statusClasses() {
        #expect(HTTPStatus(204).class == .successful)
        #expect(HTTPStatus(302).class == .redirection)
        #expect(HTTPStatus(404).class == .clientError)
        #expect(HTTPStatus(503).class == .serverError)
        #expect(HTTPStatus(99).class == .unknown)
        #expect(HTTPStatus(307).isFollowableRedirect)
        #expect(!HTTPStatus(304).isFollowableRedirect)
    }
}
