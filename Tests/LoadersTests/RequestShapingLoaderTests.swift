import Foundation
import Testing
import HTTPCore
import Loaders
import TestSupport

@Suite struct ServerEnvironmentTests {
    let environment = ServerEnvironment(baseURL: "https://qa.example.com:8443/api",
                                        headers: ["User-Agent": "env-agent", "X-Env": "qa"],
                                        query: [URLQueryItem(name: "lang", value: "en")])!

    @Test func completesRelativeRequests() throws {
        let sent = environment.complete(request("/users?page=2", headers: ["user-agent": "mine"]))
        #expect(sent.url?.absoluteString == "https://qa.example.com:8443/api/users?page=2&lang=en")
        #expect(sent.headers["User-Agent"] == "mine")
        #expect(sent.headers["x-env"] == "qa")
    }

    @Test func keepsAbsoluteURLsAndQueryItemsTheRequestSets() throws {
        let applied = environment.complete(request("http://other.test:81/x?lang=de"))
        #expect(applied.url?.absoluteString == "http://other.test:81/x?lang=de")
        let relative = environment.complete(request("items"))
        #expect(relative.url?.absoluteString == "https://qa.example.com:8443/api/items?lang=en")
    }
}

@Suite struct ModifyRequestTests {
    @Test func userAgentAndRequestID() async throws {
        let scripted = ScriptedLoader()
        let loader = chain([.userAgent("runner/1"), .requestID()], ending: scripted)
        _ = try await loader.load(request())
        _ = try await loader.load(request(headers: ["User-Agent": "custom", "X-Request-ID": "fixed"]))
        let sent = await scripted.received
        #expect(sent[0].headers["user-agent"] == "runner/1")
        #expect(UUID(uuidString: sent[0].headers["X-Request-ID"] ?? "") != nil)
        #expect(sent[1].headers["User-Agent"] == "custom")
        #expect(sent[1].headers["X-Request-ID"] == "fixed")
    }

    @Test func closureSeesEveryRequest() async throws {
        let scripted = ScriptedLoader()
        let loader = chain([.modifyRequest { $0.method = .put }], ending: scripted)
        _ = try await loader.load(request())
        #expect(await scripted.received.first?.method == .put)
    }
}

@Suite struct DelayTests {
    @Test func waitsTheRequestedDelayOnce() async throws {
        let log = SleepLog()
        let scripted = ScriptedLoader()
        let loader = DelayLoader(next: scripted, sleeper: log.sleeper)
        _ = try await loader.load(request(options: HTTPRequestOptions(delay: .milliseconds(150))))
        _ = try await loader.load(request())
        #expect(await log.durations == [.milliseconds(150)])
        #expect(await scripted.count == 2)
    }
}
