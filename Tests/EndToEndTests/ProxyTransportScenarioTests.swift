import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whether this machine can listen on the IPv6 loopback address `::1`, or why not.
enum IPv6Loopback {
    static let unavailable: String? = {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return "no IPv6 sockets on this machine: the IPv6 proxy test is skipped" }
        defer { close(socket) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        return bound == 0 ? nil : "no IPv6 loopback address (::1) on this machine: the IPv6 proxy test is skipped"
    }()
}

/// The proxy transport over `http://` and `https://`: a proxy on an IPv6 literal, and a tunnel refused with a status
/// other than 407.
@Suite struct ProxyTransportScenarioTests {
    typealias Folder = ProxyScenarioTests.Folder

    @Test(.enabled(if: IPv6Loopback.unavailable == nil, Comment(rawValue: IPv6Loopback.unavailable ?? "")),
          arguments: TestServerScheme.allCases, ["flag", "option"])
    func aProxyOnAnIPv6LiteralIsReached(scheme: TestServerScheme, way: String) async throws {
        let proxy = try await ForwardProxy.start(host: "::1")
        #expect(proxy.url.hasPrefix("http://[::1]:"))
        var files = ProxyScenarioTests.echo
        var arguments = ["run", "requests", "--env", "local"]
        if way == "flag" { arguments += ["--proxy", proxy.url] } else { files = ProxyProblemScenarioTests.files(proxy: proxy.url) }
        let (result, received, port) = try await Folder(scheme: scheme, files: files).run(arguments, scheme: scheme)
        try await proxy.stop()
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(received.map(\.uri) == ["/echo"])
        let expected = ProxyScenarioTests.expectedTarget(scheme, port: port)
        #expect(proxy.forwarded.map { "\($0.method) \($0.target)" } == ["\(expected.method) \(expected.target)"])
    }

    /// A proxy's 403 to the `CONNECT` of an `http://` or `https://` target fails the request, naming the status; `--verbose`
    /// shows the `CONNECT` and the proxy's answer, and the request has no status of its own.
    @Test(arguments: TestServerScheme.allCases, [false, true])
    func aTunnelRefusedWithAStatusOtherThan407NamesItAndVerboseShowsTheConnectAndItsAnswer(scheme: TestServerScheme, verbose: Bool) async throws {
        let proxy = try await ForwardProxy.start(username: "pu", password: "Tunnel-Pa55", refusingTunnels: "403 Forbidden")
        let url = proxy.url.replacingOccurrences(of: "http://", with: "http://pu:Tunnel-Pa55@")
        let arguments = ["run", "requests", "--env", "local", "--proxy", url] + (verbose ? ["--verbose"] : [])
        let (result, received, port) = try await Folder(scheme: scheme, files: ProxyScenarioTests.echo).run(arguments, scheme: scheme)
        try await proxy.stop()
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("the proxy 127.0.0.1:\(proxy.port) refused the tunnel to 127.0.0.1:\(port): 403 Forbidden; "
                                       + "check that the proxy allows CONNECT"), "\(result.stdout)")
        #expect(result.stdout.contains("X-Proxy-Policy: no-tunnels") == verbose, "\(result.stdout)")
        // What was written is the CONNECT, and the proxy's status is none of the request's.
        #expect(result.stdout.contains("> CONNECT 127.0.0.1:\(port)\n> Host: 127.0.0.1:\(port)\n> Proxy-Authorization: ***\n< 403")
                    == verbose, "\(result.stdout)")
        #expect(!result.stdout.contains("> GET"), "\(result.stdout)")
        // No status column of 403 (the port in the line's URL may hold those digits).
        #expect(result.stdout.split(separator: "\n").first { $0.hasPrefix("ERROR") }?.split(separator: " ").contains("403") == false,
                "\(result.stdout)")
        #expect(result.stdout.contains("tunnels are not allowed by the test proxy") == verbose, "\(result.stdout)")
        #expect(!result.stdout.contains("Tunnel-Pa55"))
        #expect(received.isEmpty)
        #expect(proxy.forwarded.allSatisfy { $0.method == "CONNECT" })
    }

    /// An international host goes to the proxy as its IDNA name, as curl sends it: the `CONNECT` the client writes, the
    /// one that learns the refusal, and what `--verbose` and the message show.
    @Test(arguments: TestServerScheme.allCases)
    func anInternationalHostIsTunnelledByItsIDNAName(scheme: TestServerScheme) async throws {
        let proxy = try await ForwardProxy.start(refusingTunnels: "403 Forbidden")
        let files = ["requests/idn.yaml": "request: { url: \"\(scheme.rawValue)://bücher.example:8443/echo\" }\n"]
        let (result, _, _) = try await Folder(scheme: scheme, files: files)
            .run(["run", "requests", "--env", "local", "--proxy", proxy.url, "--verbose"], scheme: scheme)
        try await proxy.stop()
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(!proxy.forwarded.isEmpty)
        #expect(proxy.forwarded.map { "\($0.method) \($0.target)" }.allSatisfy { $0 == "CONNECT xn--bcher-kva.example:8443" },
                "\(proxy.forwarded.map(\.target))")
        #expect(result.stdout.contains("> CONNECT xn--bcher-kva.example:8443\n> Host: xn--bcher-kva.example:8443\n"), "\(result.stdout)")
        #expect(result.stdout.contains("refused the tunnel to xn--bcher-kva.example:8443: 403 Forbidden"), "\(result.stdout)")
    }

    /// The hint under a refused tunnel follows the proxy's status: its credentials for a 401, the server behind it for a
    /// 5xx (the proxy allowed the tunnel but could not open it).
    @Test(arguments: [("401 Unauthorized", "check the user and password in the proxy URL"),
                      ("502 Bad Gateway", "the proxy could not reach 127.0.0.1:")])
    func aRefusedTunnelsHintFollowsTheProxysStatus(status: String, hint: String) async throws {
        let proxy = try await ForwardProxy.start(refusingTunnels: status)
        let (result, _, _) = try await Folder(scheme: .https, files: ProxyScenarioTests.echo)
            .run(["run", "requests", "--env", "local", "--proxy", proxy.url], scheme: .https)
        try await proxy.stop()
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("refused the tunnel to 127.0.0.1:") && result.stdout.contains(": \(status); \(hint)"),
                "\(result.stdout)")
    }
}
