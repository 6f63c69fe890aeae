// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "runner",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "runner", targets: ["RunnerCLI"]),
        .executable(name: "demo-api", targets: ["DemoAPI"]),
        .executable(name: "runner-bench", targets: ["Benchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // Without its default ExternalLoading trait, which runner does not use and which builds much slower.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
    ],
    targets: [
        // libyaml from the system (libyaml-dev), seen only by the YAML module.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // libxml2 from the system (libxml2-dev), seen only by the Expectations module: XML and HTML parsing, XPath 1.0.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // YAML text to a Node tree with 1-based marks; the only code that touches libyaml.
        .target(name: "YAML", dependencies: ["CYAML", "HTTPCore"]),
        // SIGINT and SIGTERM held (recorded) until `run` watches them, given back to other commands.
        .target(name: "CHeldSignals"),
        // Holds them from the moment the `runner` executable is loaded (a constructor); only the executable links it.
        .target(name: "CHoldSignalsAtLoad", dependencies: ["CHeldSignals"]),
        // The version from the VERSION file, written into Swift by the VersionFile plugin when building.
        .target(name: "RunnerVersion", plugins: ["VersionFile"]),
        .plugin(name: "VersionFile", capability: .buildTool()),
        // Value types of the "HTTP in Swift" design: requests, bodies, responses, errors, options.
        .target(name: "HTTPCore"),
        // The HTTPLoader chain and the AsyncHTTPClient transport.
        .target(name: "Loaders", dependencies: [
            "HTTPCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // JSONPath (RFC 9535), XPath 1.0, matchers, JSON Schema: judging a response.
        .target(name: "Expectations", dependencies: ["HTTPCore", "CLibXML2"]),
        // OpenAPI 3.0/3.1 documents read and checked through OpenAPIKit, and responses judged against their operations.
        .target(name: "OpenAPIContract", dependencies: [
            "YAML", "HTTPCore", "Expectations",
            .product(name: "OpenAPIKit", package: "OpenAPIKit"), .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
            .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
        ]),
        // The collection format: YAML nodes to located definitions, templates, environments, diagnostics.
        .target(name: "CollectionFormat", dependencies: ["YAML", "HTTPCore", "Expectations"]),
        // Reading and checking a collection from disk: discovery, environments, used files, data rows, validation.
        .target(name: "CollectionReading", dependencies: [
            "CollectionFormat", "YAML", "HTTPCore", "Expectations", "OpenAPIContract", .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // Schedules a run: order, flows, jobs, variable scope, outcomes as events.
        .target(name: "Running", dependencies: ["CollectionFormat", "Expectations", "Loaders", "HTTPCore", "YAML", "RunnerVersion", "OpenAPIContract"]),
        // Console, JUnit, JSON, HTML, markdown and TAP reports from one model; redaction lives here once.
        .target(name: "Reporting", dependencies: [
            "Running", "CollectionFormat", "HTTPCore", "YAML", .product(name: "Mustache", package: "swift-mustache"),
        ]),
        // Other tools' requests in and out: curl commands and OpenAPI documents read as request files, requests written as curl commands.
        .target(name: "Interop", dependencies: ["CollectionFormat", "HTTPCore", "YAML", "OpenAPIContract"]),
        // What each command does, from its options to an exit status: load and check, run, report.
        .target(name: "Commands", dependencies: ["CollectionFormat", "CollectionReading", "Running", "Reporting", "Loaders", "HTTPCore", "RunnerVersion", "Interop", "CHeldSignals", "YAML"]),
        // The `runner` command: argument parsing only; each subcommand calls its entry point in Commands.
        .executableTarget(name: "RunnerCLI", dependencies: [
            "Commands", "CollectionFormat", "Loaders", "RunnerVersion", "CHoldSignalsAtLoad",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // A small NIO HTTP/1.1 server on a loopback address that hands whole requests to a handler.
        .target(name: "LoopbackHTTP", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // A self-signed certificate and key generated at run time, for loopback HTTPS servers.
        .target(name: "SelfSignedCertificate", dependencies: [
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // Test support: a real HTTP server bound to 127.0.0.1 on port 0, and a scripted loader that answers without one.
        .target(name: "TestSupport", dependencies: [
            "LoopbackHTTP", "SelfSignedCertificate", "Loaders", "HTTPCore",
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
        ]),
        // The demo API the example collection runs against: routes and in-memory state.
        .target(name: "DemoAPICore", dependencies: [
            "LoopbackHTTP",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The `demo-api` command: serves DemoAPICore on 127.0.0.1 (HTTPS with --tls-cert/--tls-key) until SIGINT/SIGTERM.
        .executableTarget(name: "DemoAPI", dependencies: ["DemoAPICore"]),
        // `runner-bench`: the release runner beside a raw AsyncHTTPClient loop over http and https, as ratios (`make bench`).
        .executableTarget(name: "Benchmarks", dependencies: [
            "SelfSignedCertificate",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "YAMLTests", dependencies: ["YAML"], exclude: ["Regressions"]),
        .testTarget(name: "HTTPCoreTests", dependencies: ["HTTPCore"]),
        .testTarget(name: "InteropTests", dependencies: ["Interop", "HTTPCore", "YAML", "OpenAPIContract", "CollectionFormat", "CollectionReading"], exclude: ["Fixtures"]),
        .testTarget(name: "LoadersTests", dependencies: [
            "Loaders", "HTTPCore", "TestSupport", "SelfSignedCertificate",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .testTarget(name: "ExpectationsTests", dependencies: ["Expectations", "HTTPCore"]),
        .testTarget(name: "CollectionFormatTests", dependencies: ["CollectionFormat", "CollectionReading", "YAML", "HTTPCore", "Expectations"],
                    exclude: ["Regressions"]),
        .testTarget(name: "RunningTests", dependencies: ["Running", "Reporting", "CollectionFormat", "CollectionReading", "Loaders", "HTTPCore", "TestSupport", "YAML"]),
        .testTarget(name: "EndToEndTests", dependencies: [
            "TestSupport", "SelfSignedCertificate", "DemoAPICore", "YAML", "Expectations",
        ], exclude: ["Fixtures", "Scenarios"]),
        .testTarget(name: "TestSupportTests", dependencies: [
            "TestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .testTarget(name: "DemoAPITests", dependencies: [
            "DemoAPICore", "SelfSignedCertificate", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
