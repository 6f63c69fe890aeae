import Expectations
import Foundation
import TestSupport
import Testing

/// `--report-html`: one self-contained page from a run with a pass, failures on hostile server text, an error, a skip
/// and a flaky request, over http and https; parsed as HTML, and opened in a real headless browser when one is here.
@Suite struct HTMLReportScenarioTests {
    typealias Folder = ProxyScenarioTests.Folder

    static let secret = "html-Secret-4242"

    /// The requests, and an environment `site` for a server of `scheme` with the secret `token`.
    static func files(_ scheme: TestServerScheme) -> [String: String] { [
        "environments/site.yaml": Folder.environment(scheme, secrets: [("token", "HTML_SECRET")]),
        "requests/01-passes.yaml": "name: passes\nrequest: { url: /status/200 }\n",
        "requests/02-hostile.yaml": "name: hostile text\nrequest: { url: \"/hostile?json=1\" }\nexpect:\n  body:\n    $.text: calm\n",
        "requests/03-markup.yaml": """
            name: markup and a secret echoed
            request:
              url: "/echo?x=<img src=x onerror=alert(2)>"
              headers: { X-Token: "{{ token }}" }
            expect: { status: 201 }

            """,
        "requests/04-errored.yaml": "name: times out\nrequest: { url: /stall }\noptions: { timeout: 300ms }\n",
        "requests/05-skipped.yaml": "name: not today\nskip: waiting for ticket 42\nrequest: { url: /status/200 }\n",
        "requests/06-flaky.yaml": """
            name: passes on the second try
            request: { url: /fail-then-succeed/html/1 }
            options:
              retry: { attempts: 3, delay: 10ms, on: [503] }

            """,
    ] }

    /// Runs the collection over `scheme` with `--report-html` and returns the page and the run's output.
    static func page(over scheme: TestServerScheme, in reports: ReportFolder) async throws -> (html: String, result: RunnerProcess.Result) {
        let path = reports.url.appendingPathComponent("report.html").path
        let (result, _, _) = try await Folder(scheme: scheme, files: files(scheme)).run(
            ["run", "requests", "--env", "site", "--report-html", path], scheme: scheme, environment: ["HTML_SECRET": secret])
        return (try String(contentsOfFile: path, encoding: .utf8), result)
    }

    @Test(arguments: TestServerScheme.allCases)
    func thePageShowsEveryRequestWithNothingFromTheServerAsMarkupAndNoSecret(scheme: TestServerScheme) async throws {
        let reports = try ReportFolder("html")
        defer { reports.remove() }
        let (html, result) = try await Self.page(over: scheme, in: reports)
        #expect(result.exitCode == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(!html.contains(Self.secret))
        #expect(!html.contains("<script") && !html.contains("<img"), "server markup must be escaped")
        let document = try MarkupDocument(parsing: Data(html.utf8), as: .html)
        func value(_ expression: String) throws -> String? {
            switch try XPath(expression).comparableValue(in: document) {
            case .string(let text)?: text
            case .int(let number)?: String(number)
            case .double(let number)?: String(Int(number))
            default: nil
            }
        }
        #expect(try value("count(//script)") == "0")
        #expect(try value("count(//*[@onerror] | //img | //link | //iframe | //*[@src] | //*[@href])") == "0", "nothing runs or is fetched")
        #expect(try value("count(//ol/li)") == "6")
        #expect(try value("count(//li[contains(@class, 'failed')]/details[@open])") == "2")
        #expect(try value("count(//li[contains(@class, 'errored')]/details[@open])") == "1")
        #expect(try value("count(//li[contains(@class, 'flaky')])") == "1")
        // On its line, without opening it (trial helper-171).
        #expect(try value("string(//li[contains(@class, 'skipped')]//summary/span[@class='facts'])") == "skipped: waiting for ticket 42")
        let hostile = try #require(try value("string(//li[2]//pre[2])"))
        #expect(hostile.contains("<script>alert(1)</script>"), "the server's text is shown as text: \(hostile)")
        let markup = try #require(try value("string(//li[3]//pre[2])"))
        #expect(markup.contains("X-Token: ***") && markup.contains("onerror=alert(2)"), "\(markup)")
        #expect(try value("string(//li[4]//pre[1])")?.contains("no complete response") == true)
    }

    @Test(.enabled(if: HeadlessBrowser.executable != nil, Comment(rawValue: HeadlessBrowser.unavailable)))
    func aHeadlessBrowserShowsTheFailuresAndLogsNoConsoleMessage() async throws {
        let reports = try ReportFolder("html-browser")
        defer { reports.remove() }
        _ = try await Self.page(over: .http, in: reports)
        let page = reports.url.appendingPathComponent("report.html")
        let screenshot = reports.url.appendingPathComponent("report.png")
        let shot = try HeadlessBrowser.run(["--screenshot=\(screenshot.path)", "--window-size=1200,900", page.absoluteString])
        #expect(!shot.consoleMessages.contains { $0.contains("CONSOLE") }, "\(shot.consoleMessages)")
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a real screenshot: \(png.count) bytes")
        // The DOM the browser built: the failures are there and open, nothing was blocked or fetched.
        let dom = try HeadlessBrowser.run(["--dump-dom", page.absoluteString]).output
        #expect(dom.contains("hostile text") && dom.contains("markup and a secret echoed") && dom.contains("times out"))
        #expect(dom.contains("<details open=\"\">"), "failures open: \(dom.prefix(500))")
        if let keep = ProcessInfo.processInfo.environment["RUNNER_HTML_SCREENSHOT"] {
            try png.write(to: URL(fileURLWithPath: keep))
        }
    }
}

/// Chromium from Debian's packages (`scripts/browser` installs it), run headless with its console on standard error.
enum HeadlessBrowser {
    /// The browser's path, when one is installed.
    static let executable: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let unavailable = "no headless browser (Debian's chromium; scripts/browser installs it): the browser test of the HTML report is skipped"

    /// What one run of the browser printed: its standard output, and its console lines from standard error.
    struct Output {
        var output: String
        var consoleMessages: [String]
    }

    /// Runs the browser headless (no sandbox: tests run as root in CI) with `arguments`, for at most a minute.
    static func run(_ arguments: [String]) throws -> Output {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("runner-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr", "--v=0",
                             "--user-data-dir=\(profile.path)"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let stdout = readAll(output.fileHandleForReading.fileDescriptor)
        let stderr = readAll(errors.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        watchdog.cancel()
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(String.init)
        return Output(output: String(decoding: stdout, as: UTF8.self), consoleMessages: lines.filter { $0.contains(":CONSOLE") })
    }
}
