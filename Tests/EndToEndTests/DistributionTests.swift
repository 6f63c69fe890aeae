import DemoAPICore
import Foundation
import Testing
import SelfSignedCertificate
import TestSupport

/// The release tarball of `make dist` on a machine without Swift: a bare Debian root made by `scripts/debian-root`
/// (minbase and ca-certificates), entered with chroot, where the binary runs the example collection against the
/// demo API and trusts a server by the system's CA bundle. Skipped, with the reason, when the tarball or the root is
/// missing or the tests do not run as root (chroot and mounting /proc need it).
@Suite(.serialized, .enabled(if: Distribution.unavailable == nil, Comment(rawValue: Distribution.unavailable ?? "")))
struct DistributionTests {
    @Test func theTarballIsSmallAndItsBinaryNeedsOnlyTheCLibrary() async throws {
        let size = try FileManager.default.attributesOfItem(atPath: Distribution.tarball.path)[.size] as? Int ?? 0
        // 32.5 MB since OpenAPIKit (the OpenAPI 3.0 and 3.1 models of import openapi and expect.openapi) came in.
        #expect(size < 36_000_000, "the tarball has \(size) bytes")
        let checksum = try String(contentsOf: URL(fileURLWithPath: Distribution.tarball.path + ".sha256"), encoding: .utf8)
        let computed = try await RunnerProcess.tool("sha256sum", [Distribution.tarball.path])
        #expect(checksum.split(separator: " ").first == computed.stdout.split(separator: " ").first)

        try await Distribution.withRoot { root in
            let ldd = try await RunnerProcess.tool("ldd", [root.binary.path])
            let libraries = ldd.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(!libraries.isEmpty)
            let allowed = ["linux-vdso.so", "libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so", "/lib64/ld-linux"]
            for library in libraries {
                #expect(allowed.contains { library.hasPrefix($0) }, "the binary needs \(library)")
            }
            let version = try await root.runner(["--version"])
            #expect(version.stdout == Repository.version + "\n", "\(version.stderr)")
        }
    }

    @Test func theBinaryRunsTheExampleCollectionInABareDebianRoot() async throws {
        let api = try await DemoServer.start()
        try await Distribution.withRoot { root in
            try await RunnerProcess.tool("cp", ["-R", Repository.url("requests").path, Repository.url("environments").path, root.collection.path])
            // environments/base.yaml checks every response against the demo API's OpenAPI document.
            let docs = root.collection.appendingPathComponent("docs")
            try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
            try await RunnerProcess.tool("cp", [Repository.url("docs/demo-api.openapi.yaml").path, docs.path])
            let result = try await root.runner(["run", "requests/", "--env", "local", "--var", "port=\(api.port)"])
            #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("24 requests: 23 passed (1 flaky), 1 skipped"), "\(result.stdout)")
        }
        try await api.stop()
    }

    /// HTTPS is verified with the root's CA bundle, /etc/ssl/certs/ca-certificates.crt: a server whose certificate is
    /// not in it is not trusted, and trusted once it is added.
    @Test func certificatesAreVerifiedWithTheSystemBundle() async throws {
        let identity = try SelfSignedIdentity.generate()
        let server = try await TestServer.start(tls: .identity(identity))
        try await Distribution.withRoot { root in
            let requests = root.collection.appendingPathComponent("requests")
            try FileManager.default.createDirectory(at: requests, withIntermediateDirectories: true)
            try Data("request: { url: \"https://localhost:{{ port }}/echo\" }\nexpect: { status: 200 }\n".utf8)
                .write(to: requests.appendingPathComponent("tls.yaml"))
            let arguments = ["run", "requests/", "--var", "port=\(server.port)"]

            let untrusted = try await root.runner(arguments)
            #expect(untrusted.exitCode == 3, "\(untrusted.stdout)\n\(untrusted.stderr)")
            #expect(untrusted.stdout.contains("is not trusted"), "\(untrusted.stdout)")

            try root.trust(identity.certificatePEM)
            let trusted = try await root.runner(arguments)
            #expect(trusted.exitCode == 0, "\(trusted.stdout)\n\(trusted.stderr)")
            #expect(trusted.stdout.contains("1 request: 1 passed"), "\(trusted.stdout)")
        }
        try await server.stop()
    }
}

/// What the distribution tests need: the tarball, the Debian root, and a throwaway copy of the root to run in.
enum Distribution {
    /// The tarball `make dist` makes for this machine.
    static let tarball = Repository.url("dist/\(Repository.releaseName).tar.gz")

    /// The Debian root `scripts/debian-root` makes (`RUNNER_DEBIAN_ROOT`, or its default).
    static let debianRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["RUNNER_DEBIAN_ROOT"]
        ?? "/var/cache/runner-test-debian-root")

    /// Why the tests cannot run here, or nil when they can.
    static let unavailable: String? = {
        if !FileManager.default.fileExists(atPath: tarball.path) {
            return "\(tarball.path) is missing: run `make dist` first"
        }
        if getuid() != 0 { return "chroot needs root privileges" }
        if !FileManager.default.fileExists(atPath: debianRoot.appendingPathComponent("etc/ssl/certs/ca-certificates.crt").path) {
            return "no Debian root at \(debianRoot.path): run scripts/debian-root (root privileges and a Debian mirror)"
        }
        return nil
    }()

    /// A throwaway copy of the Debian root, made of hard links to the cached one (nothing in the cache is written:
    /// files are only added, and a file that changes is replaced), with the tarball unpacked in /opt and an empty
    /// /collection to run in.
    struct Root {
        let directory: URL
        /// The unpacked binary, seen from outside the root.
        let binary: URL

        var collection: URL { directory.appendingPathComponent("collection") }

        /// Runs the binary inside the root, in /collection, with a bare environment and /proc mounted as a container
        /// runtime mounts it (Swift reads a program's arguments from /proc/self/cmdline), in a mount namespace of its
        /// own that ends with it.
        func runner(_ arguments: [String]) async throws -> RunnerProcess.Result {
            let inside = "/" + binary.path.dropFirst(directory.path.count + 1)
            let isolation = ["--mount", "--pid", "--fork", "--mount-proc=\(directory.path)/proc", "/usr/sbin/chroot", directory.path]
            let command = ["/usr/bin/env", "-i", "--chdir=/collection", "PATH=/usr/bin:/bin", "NO_COLOR=1", inside]
            return try await RunnerProcess.run(program: URL(fileURLWithPath: "/usr/bin/unshare"), isolation + command + arguments,
                                               in: Repository.root, environment: [:])
        }

        /// Adds a certificate to the root's CA bundle (a new file in place of the cached one's link).
        func trust(_ certificatePEM: String) throws {
            let bundle = directory.appendingPathComponent("etc/ssl/certs/ca-certificates.crt")
            let original = try Data(contentsOf: bundle)
            try FileManager.default.removeItem(at: bundle)
            try (original + Data(certificatePEM.utf8)).write(to: bundle)
        }
    }

    /// Makes a root, runs `body` with it and removes it.
    static func withRoot(_ body: (Root) async throws -> Void) async throws {
        let directory = debianRoot.deletingLastPathComponent()
            .appendingPathComponent("\(debianRoot.lastPathComponent).test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await RunnerProcess.tool("cp", ["-al", debianRoot.path, directory.path])
        // What a container runtime provides: a name for the loopback address.
        let hosts = directory.appendingPathComponent("etc/hosts")
        try? FileManager.default.removeItem(at: hosts)
        try Data("127.0.0.1 localhost\n".utf8).write(to: hosts)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("collection"), withIntermediateDirectories: true)
        try await RunnerProcess.tool("tar", ["-xzf", tarball.path, "-C", directory.appendingPathComponent("opt").path])
        try await body(Root(directory: directory, binary: directory.appendingPathComponent("opt/\(Repository.releaseName)/runner")))
    }
}
