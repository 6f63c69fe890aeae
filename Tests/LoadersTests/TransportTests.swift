import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

/// What users see of the transport, over http:// and https:// alike:
/// request framing, response shapes, deadlines, decompression up to the response limit, and when a keep-alive
/// connection is reused, retried or given up.
@Suite(.serialized) struct TransportTests {
    @Test(arguments: TestServerScheme.allCases)
    func requestsCarryHostAndFramingAsAsyncHTTPClientSendsThem(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            let get = try echoedHeaders(try await transport.load(request(server.url("/echo?a=b%20c"))))
            #expect(get["host"] == "127.0.0.1:\(server.port)")
            #expect(get["content-length"] == nil)
            #expect(get["accept-encoding"] == "gzip, deflate")
            let emptyPost = try echoedHeaders(try await transport.load(request(server.url("/echo"), method: .post)))
            #expect(emptyPost["content-length"] == "0")
            var post = request(server.url("/echo"), method: .post, headers: ["Content-Length": "999"])
            post.body = JSONBody(.object(JSONObject([("n", .int(1))])))
            let posted = try await transport.load(post)
            #expect(try echoedHeaders(posted)["content-length"] == "7")
            #expect(try echoedHeaders(posted)["content-type"] == "application/json")
            #expect(server.receivedRequests().first?.uri == "/echo?a=b%20c")
            #expect(server.connectionsAccepted == 1)
        }
    }

    /// A port out of range (which AsyncHTTPClient would trap on) is an invalid request, whatever built the URL (an OAuth2
    /// token URL from a variable): nothing is sent, the process goes on.
    @Test(arguments: TestServerScheme.allCases)
    func aPortOutOfRangeIsAnInvalidRequest(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for port in [0, 65536, 99999] {
                let url = "\(scheme.rawValue)://127.0.0.1:\(port)/post"
                do {
                    _ = try await transport.load(request(url))
                    Issue.record("port \(port) was sent")
                } catch let error as HTTPError {
                    #expect(error.code == .invalidRequest && error.message == "\(url): the port \(port) is not a number from 1 to 65535", "\(error)")
                }
            }
            #expect(try await transport.load(request(server.url("/status/204"))).status.code == 204)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func headChunked204AndRepeatedHeadersKeepTheConnection(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            let head = try await transport.load(request(server.url("/large/5000"), method: .head))
            #expect(head.status == .ok)
            #expect(head.headers["Content-Length"] == "5000")
            #expect(head.body.isEmpty)
            let chunked = try await transport.load(request(server.url("/chunked?chunks=3&size=4")))
            #expect(String(decoding: chunked.body, as: UTF8.self) == "aaaabbbbcccc")
            let noContent = try await transport.load(request(server.url("/status/204")))
            #expect(noContent.status.code == 204)
            #expect(noContent.body.isEmpty)
            let cookies = try await transport.load(request(server.url("/set-cookie?b=2&a=1")))
            #expect(cookies.headers.values(for: "Set-Cookie") == ["b=2; Path=/", "a=1; Path=/"])
            #expect(server.connectionsAccepted == 1)
            // A HEAD answer and a 304 have no body, whatever length they declare: the size limit does not apply.
            let large = try await transport.load(request(server.url("/large/20000000"), method: .head))
            #expect(large.status == .ok && large.headers["Content-Length"] == "20000000")
            let notModified = try await transport.load(request(server.url("/not-modified/20000000")))
            #expect(notModified.status.code == 304 && notModified.headers["Content-Length"] == "20000000" && notModified.body.isEmpty, "\(notModified.headers)")
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func connectionsThatEndAfterTheResponseAreNotReused(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            let closing = try await transport.load(request(server.url("/close-after")))
            #expect(String(decoding: closing.body, as: UTF8.self) == "closing")
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            #expect(server.connectionsAccepted == 2)
            // The HTTP/1.0 answer comes on the second connection, which is closed after it.
            let old = try await transport.load(request(server.url("/http10")))
            #expect(String(decoding: old.body, as: UTF8.self) == "old")
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            #expect(server.connectionsAccepted == 3)
            _ = try await transport.load(request(server.url("/echo"), headers: ["Connection": "close"]))
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            #expect(server.connectionsAccepted == 4)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aNoContentAnswerThatDeclaresABodyEndsItsConnection(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            // The server sends `{}` after the 204's head, once the next request could have gone on that connection:
            // read there, it would be taken for the start of the next response. Each 204 goes on the connection the
            // last POST kept, and each POST on a new one.
            for round in 1...3 {
                let noContent = try await transport.load(request(server.url("/no-content-with-body"), method: .delete))
                #expect(noContent.status.code == 204 && noContent.body.isEmpty)
                let next = try await transport.load(request(server.url("/echo"), method: .post))
                #expect(next.status == .ok)
                #expect(server.connectionsAccepted == round + 1)
            }
        }
    }

    /// A body sent to a `HEAD` a moment after its head stands where the answer to the next request, sent meanwhile on the
    /// connection, should start: an idempotent request goes again, on a new connection; a `POST` fails, never sent twice.
    @Test(arguments: TestServerScheme.allCases)
    func bytesAfterAHeadAnswerDoNotFailTheNextIdempotentRequest(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for round in 1...3 {
                let head = try await transport.load(request(server.url("/late-body"), method: .head))
                #expect(head.status == .ok && head.body.isEmpty && head.headers["Content-Length"] == "11")
                #expect(try await transport.load(request(server.url("/echo"), method: .put)).status == .ok)
                #expect(server.connectionsAccepted == round + 1)
            }
            _ = try await transport.load(request(server.url("/late-body"), method: .head))
            let posted = try #require(await failure(of: transport, request(server.url("/echo"), method: .post)))
            #expect(posted.code == .invalidResponse && posted.message.contains("a POST is not sent again by itself"), "\(posted)")
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func anIdempotentRequestWhoseConnectionClosedBeforeAnyAnswerIsSentOnceMore(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            let first = try await transport.load(request(server.url("/echo")))
            #expect(first.status == .ok && !first.resentAfterConnectionLoss)
            let retried = try await transport.load(request(server.url("/drop/once/1"), method: .put))
            #expect(retried.status == .ok)
            #expect(server.count(of: "/drop/once/1") == 2)
            #expect(server.connectionsAccepted == 2)
            // Sent twice, which the answer says (trial helper-161: a DELETE sent again showed as one).
            #expect(retried.resentAfterConnectionLoss)
            // Dropped again on the new connection: no third try.
            let error = try #require(await failure(of: transport, request(server.url("/drop/twice/2"))))
            #expect(error.code == .cannotConnect && error.resentAfterConnectionLoss)
            #expect(error.message == "the connection to 127.0.0.1:\(server.port) closed before the response from "
                + "\(server.url("/drop/twice/2")) was complete")
            #expect(server.count(of: "/drop/twice/2") == 2)
        }
    }

    /// A server that answers one request per connection without saying so, then closes it a moment later: requests
    /// given such kept connections, several at once, go again until they get a new one; none fails.
    @Test(arguments: TestServerScheme.allCases)
    func requestsAtOnceGivenKeptConnectionsAServerClosesGoAgain(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for _ in 0..<4 {
                let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                    for _ in 0..<4 { group.addTask { try await transport.load(request(server.url("/linger/100"))).status } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: .ok, count: 4))
                try await Task.sleep(for: .milliseconds(30))
            }
            // A POST whose connection closes before an answer fails, on a kept connection as on a new one: it is never
            // sent twice. (It may be given a connection still lingering from the rounds above, which never reads it.)
            _ = try await transport.load(request(server.url("/echo")))
            let posted = await failure(of: transport, request(server.url("/drop/post/1"), method: .post))
            #expect(posted?.code == .cannotConnect && server.count(of: "/drop/post/1") <= 1, "\(String(describing: posted))")
        }
    }

    /// When a server closed its kept connections, a request given one after another goes again each time, and at last
    /// on a new connection: three kept connections, the first two of them closed as they are reused.
    @Test(arguments: TestServerScheme.allCases)
    func aRequestGivenOneStaleKeptConnectionAfterAnotherGoesUntilANewOne(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<3 { group.addTask { try await transport.load(request(server.url("/wait/100"))).status } }
                for try await status in group { #expect(status == .ok) }
            }
            #expect(server.connectionsAccepted == 3)
            #expect(try await transport.load(request(server.url("/drop/stale/2"))).status == .ok)
            #expect(server.count(of: "/drop/stale/2") == 3)
        }
    }

    /// Only a kept connection, to a server that answered on it, can have gone stale: a request that cannot have been given
    /// one (the server never answered, or closed every connection it answered on) is sent once.
    @Test(arguments: TestServerScheme.allCases)
    func aRequestToAServerThatHasNeverAnsweredIsNotSentAgain(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for method in [HTTPMethod.get, .put, .delete] {
                let path = "/drop/never-\(method.rawValue)/5"
                let error = try #require(await failure(of: transport, request(server.url(path), method: method)))
                #expect(error.code == .cannotConnect)
                #expect(error.message.contains("closed before the response"))
                #expect(server.count(of: path) == 1, "\(method)")
            }
            // An answer on a connection that then closes leaves nothing to reuse.
            _ = try await transport.load(request(server.url("/echo"), headers: ["Connection": "close"]))
            _ = await failure(of: transport, request(server.url("/drop/after-close/5")))
            #expect(server.count(of: "/drop/after-close/5") == 1)
            // An answer on a kept connection: a request given it may find it closed, and goes once more, on a new
            // connection; that one closed too, the next request finds no kept connection and goes once.
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            _ = await failure(of: transport, request(server.url("/drop/after-answer/5")))
            #expect(server.count(of: "/drop/after-answer/5") == 2)
            _ = await failure(of: transport, request(server.url("/drop/after-answer/5")))
            #expect(server.count(of: "/drop/after-answer/5") == 3)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aPostOrPatchWhoseConnectionClosedBeforeAnyAnswerIsNotSentAgain(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            // A server that drops its socket ends a TLS connection without close_notify: the same connection failure.
            for (key, method) in [("post", HTTPMethod.post), ("patch", .patch), ("post-unclean", .post)] {
                let query = key.hasSuffix("unclean") ? "?unclean=1" : ""
                let error = try #require(await failure(of: transport, request(server.url("/drop/\(key)/5\(query)"), method: method)))
                #expect(error.code == .cannotConnect, "\(error.message)")
                #expect(error.message.hasPrefix("the connection to 127.0.0.1:\(server.port) closed before the response"), "\(error.message)")
                #expect(error.message.contains("kept-alive connection the server had closed"), "\(error.message)")
                #expect(server.count(of: "/drop/\(key)/5") == 1)
                #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            }
            #expect(try await transport.load(request(server.url("/drop/put-unclean/1?unclean=1"), method: .put)).status == .ok)
            #expect(server.count(of: "/drop/put-unclean/1") == 2)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func parallelRequestsOpenNoMoreConnectionsThanRequestsInFlight(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for _ in 0..<3 {
                try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                    for _ in 0..<8 { group.addTask { try await transport.load(request(server.url("/wait/30"))).status } }
                    for try await status in group { #expect(status == .ok) }
                }
            }
            #expect(server.connectionsAccepted <= 8)
            #expect(server.count(of: "/wait/30") == 24)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func connectionRefusedNamesTheAddress(_ scheme: TestServerScheme) async throws {
        let server = try await TestServer.start(scheme)
        let port = server.port
        try await server.stop()
        try await HTTPClientTransport.withTransport { transport in
            let error = try #require(await failure(of: transport, request("\(scheme)://127.0.0.1:\(port)/echo")))
            #expect(error.code == .cannotConnect)
            #expect(error.message == "could not connect to 127.0.0.1:\(port): connection refused")
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func aDeadlineEndsTheRequestAndClosesItsConnection(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            var stalled = request(server.url("/stall"))
            stalled.deadline = .now + .milliseconds(300)
            stalled.options.timeout = .milliseconds(300)
            let start = ContinuousClock.now
            let error = try #require(await failure(of: transport, stalled))
            #expect(error.code == .timedOut)
            // Said as the timeout loader says it (what `--verbose` shows of the hop; trial helper-192 F3).
            #expect(error.message == "no complete response from \(server.url("/stall")) within 300ms: the request was sent, no complete "
                + "response head came", "\(error.message)")
            #expect(start.duration(to: .now) < .seconds(1))
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            #expect(server.connectionsAccepted == 2)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func encodedResponsesAreDecodedUpToTheResponseLimitWhereverTheyComeOnAConnection(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            func gzipped(_ response: HTTPResponse) throws -> Bool {
                let document = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                return try #require(document)["gzipped"] as? Bool == true
            }
            #expect(try echoedHeaders(try await transport.load(request(server.url("/echo"))))["accept-encoding"] == "gzip, deflate")
            #expect(try gzipped(try await transport.load(request(server.url("/gzip")))))
            #expect(try await transport.load(request(server.url("/echo"))).status == .ok)
            let other = try await transport.load(request(server.url("/headers?Content-Encoding=br")))
            #expect(other.headers["Content-Encoding"] == "br")
            // Whitespace around a value is not part of it (RFC 9110): ` 10 ` is `10`.
            #expect(try await transport.load(request(server.url("/headers?X-Spaced=%2010%20%09"))).headers["X-Spaced"] == "10")
            #expect(try JSONSerialization.jsonObject(with: other.body) as? [String: String] == ["Content-Encoding": "br"])
            #expect(try gzipped(try await transport.load(request(server.url("/gzip")))))
            #expect(server.connectionsAccepted == 1)
            // A healthy body of repeated bytes inflates about a thousand times its size: it is read whole.
            let repetitive = try await transport.load(request(server.url("/gzip-bomb?bytes=2000000")))
            #expect(repetitive.status == .ok && repetitive.body.count == 2_000_000 && repetitive.body.allSatisfy { $0 == 0 })
            // A bomb stops at the response limit, counted in decoded bytes.
            let bomb = try #require(await failure(of: transport, request(server.url("/gzip-bomb?bytes=20000000"))))
            #expect(bomb.code == .responseTooLarge)
            #expect(bomb.message.contains("is larger than maxResponseBytes, 10 MiB (10485760 bytes), once decoded (Content-Encoding: gzip)"), "\(bomb.message)")
            // The connection stays usable when the bomb came whole (its framing is complete), else a new one opens.
            #expect(try gzipped(try await transport.load(request(server.url("/gzip")))))
            // The first response of a new connection is decoded too.
            #expect(try await transport.load(request(server.url("/close-after"))).status == .ok)
            let accepted = server.connectionsAccepted
            #expect(try gzipped(try await transport.load(request(server.url("/gzip")))))
            #expect(server.connectionsAccepted == accepted + 1)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func anEncodedAnswerWithoutBodyBytesIsAnEmptyBody(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            // A HEAD answer (servers with compression on say how the body would be encoded) and a 200 of no bytes.
            let head = try await transport.load(request(server.url("/gzip"), method: .head))
            #expect(head.status == .ok && head.headers["Content-Encoding"] == "gzip" && head.body.isEmpty)
            let empty = try await transport.load(request(server.url("/gzip?cut=0")))
            #expect(empty.status == .ok && empty.headers["Content-Encoding"] == "gzip" && empty.headers["Content-Length"] == "0" && empty.body.isEmpty)
            #expect(!(try await transport.load(request(server.url("/gzip")))).body.isEmpty)
            #expect(server.connectionsAccepted == 1)
            // Some compressed bytes, but not all of them, are still a truncated body.
            for cut in [1, 12] {
                let truncated = try #require(await failure(of: transport, request(server.url("/gzip?cut=\(cut)"))))
                #expect(truncated.code == .invalidResponse && truncated.message.contains("ends before its compressed data does"), "\(truncated.message)")
            }
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func eachRequestOnAReusedConnectionEndsAtItsOwnDeadline(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            // A later deadline than the connection's timer: the timer fires first and waits on for this one.
            var quick = request(server.url("/echo"))
            quick.deadline = .now + .milliseconds(200)
            #expect(try await transport.load(quick).status == .ok)
            var stalled = request(server.url("/stall"))
            stalled.deadline = .now + .milliseconds(700)
            var start = ContinuousClock.now
            let late = try #require(await failure(of: transport, stalled))
            #expect(late.code == .timedOut)
            #expect(start.duration(to: .now) >= .milliseconds(650), "not ended at the earlier request's deadline")
            #expect(start.duration(to: .now) < .seconds(2))
            #expect(server.connectionsAccepted == 1)

            // An earlier deadline than the connection's timer: the timer is brought forward.
            var slow = request(server.url("/echo"))
            slow.deadline = .now + .seconds(60)
            #expect(try await transport.load(slow).status == .ok)
            stalled.deadline = .now + .milliseconds(300)
            start = .now
            let early = try #require(await failure(of: transport, stalled))
            #expect(early.code == .timedOut)
            #expect(start.duration(to: .now) < .seconds(1))
            #expect(server.connectionsAccepted == 2)
        }
    }

    @Test(arguments: TestServerScheme.allCases)
    func headsWithBytesHTTPForbidsAreRefusedBeforeAnythingIsSent(_ scheme: TestServerScheme) async throws {
        try await withTransport(over: scheme) { server, transport in
            for (name, value) in [("X-Note", "a\r\nX-Injected: 1"), ("X-Note", "a\nb"), ("X-Note", "a\u{0}"), ("X-Note", "a\u{7F}"),
                                  ("Bad Name", "a"), ("X-Na:me", "a"), ("X(1)", "a")] {
                let error = try #require(await failure(of: transport, request(server.url("/echo"), headers: [name: value])))
                #expect(error.code == .invalidRequest, "\(name): \(value)")
                #expect(error.message.hasSuffix("is invalid: a header name or value holds a character HTTP does not allow"), "\(error.message)")
            }
            #expect(server.connectionsAccepted == 0, "nothing was sent")
            let allowed = try echoedHeaders(try await transport.load(request(server.url("/echo"), headers: ["X-Note": "tab\there é"])))
            #expect(allowed["x-note"] == "tab\there é")
        }
    }
}
