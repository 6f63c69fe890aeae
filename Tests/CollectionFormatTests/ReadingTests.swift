import Foundation
import HTTPCore
import Testing
import YAML
@testable import CollectionFormat
@testable import CollectionReading

@Suite struct DiscoveryTests {
    @Test func collectsYAMLFilesInLexicalPathOrderSkippingEnvironments() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for path in ["requests/users/02-fetch.yaml", "requests/users/01-create.yml", "requests/auth/login.yaml",
                     "requests/a-z.yaml", "requests/notes.txt", "requests/.hidden/x.yaml", "environments/qa.yaml"] {
            scratch.write(path, "request: { url: /x }\n")
        }
        let (files, problems) = discover(["requests/", "."], currentDirectory: scratch.root,
                                                       skipping: scratch.root + "/environments")
        #expect(problems.isEmpty)
        #expect(files.map(\.path) == ["requests/a-z.yaml", "requests/auth/login.yaml", "requests/users/01-create.yml",
                                      "requests/users/02-fetch.yaml"])
        #expect(files.map(\.defaultName) == ["a-z", "auth/login", "users/01-create", "users/02-fetch"])
    }

    @Test func aFileReachedTwiceCountsOnceAndLinkedDirectoriesDoNotLoop() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        scratch.write("requests/sub/b.yaml", "request: { url: /b }\n")
        scratch.write("other/c.yaml", "request: { url: /c }\n")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: scratch.root + "/requests/sub/a-again.yaml", withDestinationPath: "../a.yaml")
        try manager.createSymbolicLink(atPath: scratch.root + "/requests/sub/loop", withDestinationPath: "..")
        try manager.linkItem(atPath: scratch.root + "/other/c.yaml", toPath: scratch.root + "/other/c-hard.yaml")
        let paths = ["requests", "requests/sub/b.yaml", "other/../other"]
        // Discovery lists a directory once (the link back to its parent does not loop) and hands on every path to a file;
        // loading reads each file once, under the path it was first found at.
        let (found, problems) = discover(paths, currentDirectory: scratch.root, skipping: nil)
        #expect(problems.isEmpty)
        #expect(found.map(\.path) == ["requests/a.yaml", "requests/sub/a-again.yaml", "requests/sub/b.yaml",
                                       "requests/sub/b.yaml", "other/../other/c-hard.yaml", "other/../other/c.yaml"])
        let collection = await scratch.readCollection(paths)
        #expect(collection.diagnostics.isEmpty)
        let files = collection.files
        #expect(files.map(\.path) == ["requests/a.yaml", "requests/sub/b.yaml", "other/../other/c-hard.yaml"])
        #expect(files.map(\.absolutePath) == [scratch.root + "/requests/a.yaml", scratch.root + "/requests/sub/b.yaml",
                                               scratch.root + "/other/c-hard.yaml"])
        #expect(files.map(\.name) == ["a", "sub/b", "c-hard"])
    }

    @Test func aBrokenLinkToARequestFileIsReportedNotSkipped() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/requests/gone.yaml", withDestinationPath: "nowhere.yaml")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/requests/loop.yaml", withDestinationPath: "loop2.yaml")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/requests/loop2.yaml", withDestinationPath: "loop.yaml")
        let collection = await scratch.readCollection(["requests"])
        #expect(problems(of: collection) == [
            "requests/gone.yaml: error: cannot read the file: it is a symbolic link to 'nowhere.yaml', which does not exist",
            "requests/loop.yaml: error: cannot read the file: it is a symbolic link in a loop of links (one leads back to another)",
            "requests/loop2.yaml: error: cannot read the file: it is a symbolic link in a loop of links (one leads back to another)",
        ])
        // Named as an argument, the same reason.
        #expect(problems(of: await scratch.readCollection(["requests/loop.yaml"])) == [
            "requests/loop.yaml: error: it is a symbolic link in a loop of links (one leads back to another)",
        ])
    }

    /// A data file, a used file, a body file and a `caCert` behind a link that leads nowhere say so, as a request file
    /// does; an environment that is a directory says it is one.
    @Test func aBrokenLinkToAReferencedFileIsNamedSo() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "each: rows.csv\nrequest: { url: /a }\n")
        scratch.write("requests/b.yaml", "steps:\n  - use: _steps.yaml\n")
        scratch.write("requests/c.yaml", "request: { url: /c, method: POST, file: body.json }\noptions: { caCert: ca.pem }\n")
        for name in ["rows.csv", "_steps.yaml", "body.json", "ca.pem"] {
            try FileManager.default.createSymbolicLink(atPath: scratch.root + "/requests/" + name, withDestinationPath: "gone-" + name)
        }
        // A link to a link that leads nowhere names the end of the chain.
        scratch.write("requests/e.yaml", "each: chain.csv\nrequest: { url: /e }\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/requests/chain.csv", withDestinationPath: "rows.csv")
        try FileManager.default.createDirectory(atPath: scratch.root + "/environments/qa.yaml", withIntermediateDirectories: true)
        let found = problems(of: await scratch.readCollection(["requests"]))
        for name in ["rows.csv", "_steps.yaml", "body.json", "ca.pem"] {
            #expect(found.contains { $0.contains("'\(name)' is a symbolic link to 'gone-\(name)', which does not exist") }, "\(name): \(found)")
        }
        #expect(found.contains { $0.contains("'chain.csv' is a symbolic link to 'rows.csv', a link whose chain ends at 'gone-rows.csv', which does not exist") },
                "\(found)")
        #expect(problems(of: await scratch.readCollection(["requests/a.yaml"], env: "qa"))
                    .contains("environments/qa.yaml: error: cannot read the file: it is a directory"))
    }

    /// A request file whose name is not UTF-8 (a Latin-1 byte) cannot be named again by a path: it is an error saying so,
    /// not "no such file".
    @Test func aFileNameThatIsNotUTF8IsNamedSo() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        let name = Array((scratch.root + "/requests/l").utf8) + [0x85] + Array("m.yaml".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer { creat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o644) }
        try #require(descriptor >= 0)
        close(descriptor)
        // A directory of such a name: its files would silently not run.
        let directory = Array((scratch.root + "/requests/d").utf8) + [0xFF, 0]
        try #require(directory.withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
        #expect(problems(of: await scratch.readCollection(["requests"])) == [
            "requests/d\u{FFFD}: error: the directory's name is not UTF-8 (shown with U+FFFD where its bytes are not), so its files cannot be read "
                + "[help: rename it with a UTF-8 name]",
            "requests/l\u{FFFD}m.yaml: error: the file's name is not UTF-8 (shown with U+FFFD where its bytes are not), so it cannot be read "
                + "[help: rename it with a UTF-8 name]",
        ])
    }

    /// Root reads any directory, so this runs only as another user.
    @Test(.enabled(if: getuid() != 0, "running as root, which can read a directory without permissions"))
    func aDirectoryThatCannotBeReadIsAnErrorNotSkipped() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        scratch.write("requests/locked/b.yaml", "request: { url: /b }\n")
        let locked = scratch.root + "/requests/locked"
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked) }
        let (files, problems) = discover(["requests"], currentDirectory: scratch.root, skipping: nil)
        #expect(files.map(\.path) == ["requests/a.yaml"])
        #expect(problems.map(\.description) == ["requests/locked: error: cannot read the directory: permission denied"])
    }

    /// Reading a FIFO waits for a writer that may never come: in a directory it is an error, not a request file.
    @Test func aFIFONamedLikeARequestFileInADirectoryIsAnErrorNotRead() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        try #require(mkfifo(scratch.root + "/requests/p.yaml", 0o600) == 0, "mkfifo: errno \(errno)")
        try #require(mkfifo(scratch.root + "/requests/notes", 0o600) == 0, "mkfifo: errno \(errno)")
        let (files, problems) = discover(["requests"], currentDirectory: scratch.root, skipping: nil)
        #expect(files.map(\.path) == ["requests/a.yaml"])
        #expect(problems.map(\.description) == [
            "requests/p.yaml: error: not a regular file (a FIFO, socket or device): request files found in a directory must be regular files",
        ])
    }

    /// A pipe named as an argument is read whatever its name (`runner run <(generate)` names `/dev/fd/63`); a regular
    /// file without `.yaml` is still not a request file.
    @Test func aPipeNamedAsAnArgumentIsARequestFileWhateverItsName() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("notes.txt", "not a request\n")
        try #require(mkfifo(scratch.root + "/generated", 0o600) == 0, "mkfifo: errno \(errno)")
        let (files, problems) = discover(["generated", "notes.txt"], currentDirectory: scratch.root, skipping: nil)
        #expect(files.map(\.path) == ["generated"])
        // `/dev/stdin` redirected from a file is a regular file: named so, it is read too.
        #expect(discover(["/dev/stdin"], currentDirectory: scratch.root, skipping: nil).0.map(\.path) == ["/dev/stdin"])
        #expect(problems.map(\.description) == ["notes.txt: error: not a request file: expected a .yaml or .yml file"])
    }

    @Test func aDirectoryWithoutRequestFilesIsAWarningUnlessItsFilesCameEarlier() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/sub/b.yaml", "request: { url: /b }\n")
        scratch.write("empty/notes.txt", "not a request\n")
        let (files, problems) = discover(["requests", "requests/sub", "empty", "empty"],
                                                       currentDirectory: scratch.root, skipping: nil)
        // `requests/sub` was listed within `requests`: not again, and no warning; an empty directory warns once.
        #expect(files.map(\.path) == ["requests/sub/b.yaml"])
        #expect(problems.map(\.description) == ["empty: warning: no .yaml or .yml files found in this directory"])
    }

    /// A file whose extension is `.YAML` or `.Yml` in a directory is not read, with a warning saying how to name it
    /// (trial helper-193 F12: skipped silently).
    @Test func aFileWithAnUpperCaseExtensionIsNamedNotSkippedSilently() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(["requests/a.yaml": "request: { url: /a }\n", "requests/UP.YAML": "request: { url: /b }\n",
                       "requests/x.Yml": "request: { url: /c }\n"])
        let (files, problems) = discover(["requests"], currentDirectory: scratch.root, skipping: nil)
        #expect(files.map(\.path) == ["requests/a.yaml"])
        #expect(problems.map(\.description).sorted() == [
            "requests/UP.YAML: warning: not read: request files end in .yaml or .yml, in lower case",
            "requests/x.Yml: warning: not read: request files end in .yaml or .yml, in lower case",
        ], "\(problems.map(\.description))")
        #expect(problems.compactMap(\.suggestion).sorted() == ["rename it to 'UP.yaml' to run it", "rename it to 'x.yml' to run it"])
    }

    /// A directory of used files only (`_` names, `_` folders) is not "without .yaml files": the warning says they are
    /// used files, and the loaded collection knows, so that "nothing to run" can say so too.
    @Test func aDirectoryOfUsedFilesOnlySaysTheyAreUsedFiles() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(["fragments/_login.yaml": "request: { url: /a }\n", "fragments/_steps/users.yaml": "request: { url: /b }\n",
                       "mixed/_login.yaml": "request: { url: /a }\n", "mixed/run.yaml": "steps:\n  - use: _login.yaml\n"])
        let onlyUsed = await scratch.readCollection(["fragments"])
        #expect(problems(of: onlyUsed) == [
            "fragments: warning: its .yaml and .yml files are all used files (named with a leading '_', or in a '_' folder), which "
                + "run only where a flow uses them [help: give the path of a flow that uses them, or take the '_' off a file that runs on its own]",
        ])
        #expect(onlyUsed.foundOnlyUsedFiles)
        #expect(await scratch.readCollection(["fragments/_login.yaml"]).foundOnlyUsedFiles)
        let mixed = await scratch.readCollection(["mixed"])
        #expect(problems(of: mixed).isEmpty && !mixed.foundOnlyUsedFiles && mixed.requestCount() == 1)
    }

    /// A path argument that is not there is an error without a mark.
    @Test func missingPathIsADiagnosticWithoutMark() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["nope", "also/missing.yaml"])
        #expect(problems(of: collection) == ["also/missing.yaml: error: no such file or directory",
                                             "nope: error: no such file or directory"])
        // One a typo or a letter's case away from a directory or file beside it is told its name.
        scratch.write("requests/01-basic.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["requests/01-basic.yaml/"])) == [
            "requests/01-basic.yaml: error: not a directory: 'requests/01-basic.yaml/' ends with '/', but names a file [help: write 'requests/01-basic.yaml']",
        ])
        #expect(problems(of: await scratch.readCollection(["requsts", "requests/01-Basic.yaml", "requests/01-basc.yaml"])) == [
            "requests/01-Basic.yaml: error: no such file or directory [help: did you mean 'requests/01-basic.yaml'?]",
            "requests/01-basc.yaml: error: no such file or directory [help: did you mean 'requests/01-basic.yaml'?]",
            "requsts: error: no such file or directory [help: did you mean 'requests'?]",
        ])
        // A first path that is not there finds no environments above it (they may be another collection's).
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:1\n")
        #expect(problems(of: await scratch.readCollection(["requsts/users"], env: "hb")) == [
            "requsts/users: error: no such file or directory",
        ])
        // Every missing part of the way, the directories as the file.
        scratch.write("requests/users/list.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["requsts/./users/lst.yaml", "./requests/Users", "requsts/nope/list.yaml"])) == [
            "requests/Users: error: no such file or directory [help: did you mean 'requests/users'?]",
            "requsts/./users/lst.yaml: error: no such file or directory [help: did you mean 'requests/users/list.yaml'?]",
            "requsts/nope/list.yaml: error: no such file or directory",
        ])
    }

    /// A `--var` no template reads and that names nothing of the environment gives nothing its value: a warning, with
    /// the name likely meant. One read by the environment's baseURL, a condition, a `with:` or a row, or that replaces
    /// an environment's variable or secret, is read.
    @Test func aVarNothingReadsIsAWarning() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: \"http://127.0.0.1:{{ port }}\"\nvariables: { region: eu }\nsecrets: { token: { env: T, default: abcd } }\n")
        scratch.write("requests/a.yaml", "when: { \"{{ flag }}\": { exists: true } }\nrequest: { url: \"/a/{{ user }}\" }\n")
        scratch.write("requests/b.yaml", "steps:\n  - use: _c.yaml\n    with: { id: \"{{ given }}\" }\n")
        scratch.write("requests/_c.yaml", "request: { url: \"/c/{{ id }}\" }\n")
        let read = ["port", "flag", "user", "given", "region", "token"].map { (name: $0, value: "1") }
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa", vars: read)).isEmpty)
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa", vars: read + [("regoin", "x"), ("usr", "x"), ("zzz", "x")])) == [
            "warning: --var 'regoin' is read by no request and no environment variable: it gives nothing its value [help: did you mean 'region'?]",
            "warning: --var 'usr' is read by no request and no environment variable: it gives nothing its value [help: the files read 'user': is one of the two names mistyped?]",
            "warning: --var 'zzz' is read by no request and no environment variable: it gives nothing its value [help: a --var gives its value to the templates that read it ({{ zzz }})]",
        ])
        // A file that cannot be decoded (a YAML error), or a used one, may read it: no warning beside its error (helper-174).
        for (path, text) in [("requests/d.yaml", "request: { url: \"/d/{{ zzz }}\" }\ncapture: { ids: $.x[*] }\n"),
                             ("requests/_c.yaml", "request: { url: \"/c/{{ zzz }}\" \n")] {
            scratch.write(path, text)
            let found = problems(of: await scratch.readCollection(["requests"], env: "qa", vars: read + [("zzz", "x")]))
            #expect(found.count == 1 && found[0].contains("error:"), "\(found)")
            if path == "requests/d.yaml" { try? FileManager.default.removeItem(atPath: scratch.root + "/" + path) }
        }
    }

    @Test func findsEnvironmentsByWalkingUp() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: https://qa.example.com\n")
        scratch.write("requests/users/a.yaml", "request: { url: /a }\n")
        let found = Discovery.environmentsDirectory(near: "requests/users/a.yaml", currentDirectory: scratch.root)
        #expect(found?.path == "environments")
        let fromInside = Discovery.environmentsDirectory(near: ".", currentDirectory: scratch.root + "/requests/users")
        #expect(fromInside?.path == "../../environments")
    }

    /// Every spelling of a path through a link finds the same `environments`, as the system reads the path (the link's
    /// target's parents), and a spelling the system finds nothing at is missing (trial helper-143).
    @Test func everySpellingOfALinkedPathFindsTheSameEnvironments() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/t.yaml", "baseURL: http://127.0.0.1:1\n")
        scratch.write("c/environments/t.yaml", "baseURL: http://127.0.0.1:2\n")
        scratch.write("c/requests/a.yaml", "request: { url: /a }\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/clink", withDestinationPath: "c/requests")
        for spelling in ["clink", "./clink/", "c/../clink", "clink/a.yaml"] {
            let found = Discovery.environmentsDirectory(near: spelling, currentDirectory: scratch.root)
            #expect(found?.path == "c/environments", "\(spelling)")
        }
        #expect(Discovery.environmentsDirectory(near: "../clink", currentDirectory: scratch.root + "/c")?.path == "environments")
        #expect(FileSystem.status(of: FileSystem.absolute("clink/../clink", from: scratch.root)) == nil)
        #expect(FileSystem.status(of: FileSystem.absolute("c/../clink", from: scratch.root))?.isDirectory == true)
    }
}

@Suite struct EnvironmentTests {
    @Test func decodesEveryEnvironmentKey() async {
        let (environment, diagnostics) = decodeEnvironment("""
            extends: base
            baseURL: https://qa-1.example.com/api
            headers: { User-Agent: "my-api-tests" }
            query: { lang: en }
            variables:
              userName: qa-bot
              limits: { max: 10 }
            secrets:
              password: { env: QA_PASSWORD }
              token: { env: QA_TOKEN, default: "" }
            auth: { bearer: "{{ token }}" }
            options:
              timeout: 10s
              throttle: { perSecond: 20 }
            """)
        #expect(diagnostics.isEmpty)
        #expect(environment.extends == Located("base", at: Mark(line: 1, column: 10)))
        #expect(environment.baseURL?.source == "https://qa-1.example.com/api")
        #expect(environment.headers.map(\.name) == ["User-Agent"])
        #expect(environment.query.map(\.name) == ["lang"])
        #expect(environment.variables.map(\.name) == ["userName", "limits"])
        #expect(environment.secrets.map(\.env.value) == ["QA_PASSWORD", "QA_TOKEN"])
        #expect(environment.secrets[1].defaultValue?.value == "")
        #expect(environment.options.timeout?.value == .seconds(10))
        #expect(environment.options.throttle?.perSecond == 20)
    }

    @Test func unknownEnvironmentKeysAndSecretShapes() async {
        let (_, diagnostics) = decodeEnvironment("baseUrl: x\nsecrets: { a: { evn: A }, b: B }\n")
        #expect(diagnostics.map(\.description) == [
            "environments/qa.yaml:1:1: error: unknown key 'baseUrl'",
            "environments/qa.yaml:2:17: error: unknown key 'evn' in 'secrets.a'",
            "environments/qa.yaml:2:30: error: expected a mapping for 'secrets.b', found a value, not shown (it may be the secret)",
        ].sorted { ($0.split(separator: ":")[1], $0) < ($1.split(separator: ":")[1], $1) })
        #expect(diagnostics.first?.suggestion == "did you mean 'baseURL'?")
        // A problem in a secret's definition quotes its line with the values hidden (trial helper-96): a mistyped key
        // may hold the secret.
        #expect(diagnostics.map(\.quotesSecret) == [false, true, true])
        #expect(DiagnosticRenderer.hidingValues(in: #"  pw: { env: X_PW, defualt: "ab,cd", other: 'x' }  # note"#)
                == #"  pw: { env: X_PW, ***: ***, ***: *** }  # ***"#)
        #expect(DiagnosticRenderer.hidingValues(in: "    defualt: hunter2 # typo") == "    defualt: *** # ***")
        // The keys of `auth:` show where they are keys, never as values; a password pasted as a key stays hidden.
        #expect(DiagnosticRenderer.hidingValues(in: "auth: { basic: { hunter2: x, username: password } }", hidingFirstKey: true)
                == "auth: { basic: { ***: ***, username: *** } }")
        #expect(DiagnosticRenderer.hidingValues(in: "  basci: { bearer:x }", hidingFirstKey: true) == "  ***: { ***:*** }")
        // Values written in other shapes by mistake (trial helper-97).
        for (line, shown) in [("  pw: [s3cretvalue, other]", "  pw: [***, ***]"), ("  pw: {env: X, default:s3cretvalue}", "  pw: {env: X, default:***}"),
                              ("  pw: { s3cretvalue }", "  pw: { *** }"), ("secrets: s3cretvalue", "secrets: ***"),
                              ("  - pw: s3cretvalue", "  - pw: ***"), ("  pw: { env: X, default: [s3cret] }", "  pw: { env: X, default: [***] }")] {
            #expect(DiagnosticRenderer.hidingValues(in: line) == shown)
        }
        let (_, shapes) = decodeEnvironment("secrets:\n  a: [s3cretvalue]\n  b: { env: B, default:s3cretvalue }\n  c: { s3cretvalue }\n")
        #expect(shapes.allSatisfy { $0.quotesSecret && !$0.description.contains("s3cret") }, "\(shapes.map(\.description))")
        #expect(shapes.contains { $0.suggestion == "write a space after the ':' of 'default:'" })
        // An unknown key inside a mapping on the secret's line is hidden where it stands; the secret's name, which the
        // message names, shows (trial helper-181: the name was hidden, the key too).
        let oneLine = "secrets:\n  pw: { env: PW_UNSET, default: MyDefaultPassw0rd, extra: oops }\n"
        let (_, inner) = decodeEnvironment(oneLine)
        let sources = SourceCache()
        sources.store(oneLine, for: "environments/qa.yaml")
        let rendered = DiagnosticRenderer.render(inner, sources: sources, color: false)
        #expect(rendered.contains(" 2 |   pw: { env: PW_UNSET, default: ***, ***: *** }\n"), "\(rendered)")
        let (_, whole) = decodeEnvironment("secrets: s3cretvalue\n")
        #expect(whole.map(\.description) == ["environments/qa.yaml:1:10: error: expected a mapping for 'secrets', found a value, not shown (it may be the secret)"])
    }

    func project() -> ScratchDirectory {
        let scratch = ScratchDirectory()
        scratch.write("environments/base.yaml", """
            baseURL: https://base.example.com
            headers: { User-Agent: base, X-Base: "1" }
            query: { lang: en }
            variables: { userName: base-bot, limits: { max: 5 }, greeting: "hi {{ userName }}" }
            secrets: { token: { env: TOKEN, default: dflt } }
            options: { timeout: 10s, retry: { attempts: 2, delay: 1s } }
            """)
        scratch.write("environments/qa.yaml", """
            extends: base
            baseURL: "https://{{ host }}/api"
            headers: { user-agent: qa }
            variables: { host: qa.example.com, limits: { max: 10 } }
            secrets: { password: { env: QA_PASSWORD } }
            auth: { bearer: "{{ token }}" }
            options: { retry: { attempts: 5 } }
            """)
        scratch.write("environments/loop-a.yaml", "extends: loop-b\n")
        scratch.write("environments/loop-b.yaml", "extends: loop-a\n")
        scratch.write("environments/broken.yaml", "extends: bse\n")
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        return scratch
    }

    @Test func extendsMergesKeyByKey() async throws {
        let scratch = project()
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"], env: "qa", processEnvironment: ["QA_PASSWORD": "pw-1"])
        #expect(problems(of: collection).isEmpty)
        let environment = try #require(collection.environment)
        #expect(environment.chain == ["qa", "base"])
        #expect(environment.baseURL == "https://qa.example.com/api")
        #expect(environment.headers.map { "\($0.value.name)=\($0.value.value.source)@\($0.path)" }
                == ["user-agent=qa@environments/qa.yaml", "X-Base=1@environments/base.yaml"])
        #expect(environment.query.map(\.value.name) == ["lang"])
        #expect(environment.variables["userName"] == .string("base-bot"))
        #expect(environment.variables["greeting"] == .string("hi base-bot"))
        #expect(environment.variables["limits"] == .object(JSONObject([("max", .int(10))])))
        #expect(environment.secrets == [ResolvedSecret(name: "token", value: "dflt"), ResolvedSecret(name: "password", value: "pw-1")])
        #expect(environment.options.timeout?.value == .seconds(10))
        #expect(environment.options.retry?.attempts?.value == 5)
        #expect(environment.options.retry?.delay?.value == .seconds(1))
        guard case .bearer? = environment.auth?.value.value else { Issue.record("auth"); return }
        #expect(collection.scope.secretValues == ["pw-1", "dflt"])
        #expect(collection.sources.paths == ["environments/base.yaml", "environments/qa.yaml", "requests/a.yaml"])
    }

    /// A name is a variable or a secret: both in one file is an error, and so is a variable of a later file of the chain
    /// that a secret of a base would keep its value against; a secret that redefines a base's variable takes its place.
    @Test func aNameIsAVariableOrASecret() async throws {
        let (_, both) = decodeEnvironment("variables: { s: plain }\nsecrets: { s: { env: S } }\n")
        #expect(both.map(\.description) == ["environments/qa.yaml:2:12: error: 's' is both a variable and a secret of this environment"])
        #expect(both.first?.suggestion == "a name has one value: keep it under 'secrets' to hide it, or rename one of them")
        let scratch = project()
        defer { scratch.remove() }
        scratch.write("environments/over.yaml", "extends: base\nvariables: { token: plain }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "over")) == [
            "environments/over.yaml:2:14: error: variable 'token' would not replace the secret of that name in environments/base.yaml "
                + "[help: redefine it under 'secrets' (its 'default' gives the value), or rename the variable]",
        ])
        scratch.write("environments/hidden.yaml", "extends: base\nsecrets: { userName: { env: USER_NAME, default: bot-2 } }\n")
        let hidden = await scratch.readCollection(["requests"], env: "hidden")
        #expect(problems(of: hidden).isEmpty)
        #expect(hidden.scope.secretValues.contains("bot-2"))
    }

    @Test func cycleIsReportedAtTheClosingExtends() async {
        let scratch = project()
        defer { scratch.remove() }
        #expect(problems(of: await scratch.readCollection(["requests"], env: "loop-a")) == [
            "environments/loop-b.yaml:1:10: error: 'extends: loop-a' closes a cycle: loop-a -> loop-b -> loop-a [help: remove 'extends' from one environment of the cycle]",
        ])
    }

    /// A base that does not exist is reported with the file's other errors, not only once they are fixed.
    @Test func aMissingBaseIsReportedBesideTheFilesOtherErrors() async {
        let scratch = project()
        defer { scratch.remove() }
        scratch.write("environments/odd.yaml", "extends: bse\nbogus: 1\n")
        let found = problems(of: await scratch.readCollection(["requests"], env: "odd"))
        #expect(found.count == 2 && found.first == "environments/odd.yaml:1:10: error: environment 'bse' does not exist [help: did you mean 'base'?]"
                && found.last?.hasPrefix("environments/odd.yaml:2:1: error: unknown key 'bogus'") == true, "\(found)")
    }

    /// A cycle through a file with other errors is reported with them, and so is a missing base further down the chain.
    @Test func aCycleOrMissingBaseBehindABrokenFileIsReportedWithItsErrors() async {
        let scratch = project()
        defer { scratch.remove() }
        scratch.write("environments/one.yaml", "extends: two\nbogus: 1\n")
        scratch.write("environments/two.yaml", "extends: one\n")
        let cycle = problems(of: await scratch.readCollection(["requests"], env: "one"))
        #expect(cycle.count == 2 && cycle.contains { $0.hasPrefix("environments/one.yaml:2:1: error: unknown key 'bogus'") }
                && cycle.contains("environments/two.yaml:1:10: error: 'extends: one' closes a cycle: one -> two -> one [help: remove 'extends' from one environment of the cycle]"),
                "\(cycle)")
        scratch.write("environments/two.yaml", "extends: bse\n")
        let missing = problems(of: await scratch.readCollection(["requests"], env: "one"))
        #expect(missing.count == 2 && missing.contains("environments/two.yaml:1:10: error: environment 'bse' does not exist [help: did you mean 'base'?]"),
                "\(missing)")
    }

    /// Errors in an environment's `options` do not hide the problems of what it resolves (a baseURL, a port from a
    /// variable), of its `caCert`, or of the requests checked with it: every problem at once.
    @Test func optionsErrorsAreReportedWithTheEnvironmentsOtherProblems() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", """
            baseURL: "http://127.0.0.1:{{ port }}/api"
            variables: { port: 99999 }
            options: { throttle: { perSecond: -1 }, caCert: ../requests/a.yaml }
            """)
        scratch.write("environments/f.yaml", "baseURL: ftp://x\noptions: { timeout: fast }\n")
        scratch.write("requests/a.yaml", "request: { url: \"/a/{{ nope }}\" }\n")
        let found = problems(of: await scratch.readCollection(["requests"], env: "e"))
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.hasPrefix("environments/e.yaml:1:10: error: baseURL 'http://127.0.0.1:99999/api': the port 99999") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("environments/e.yaml:3:35: error: expected a finite number greater than 0 for 'options.throttle.perSecond'") })
        #expect(found.contains { $0.hasPrefix("environments/e.yaml:3:49: error: 'options.caCert': the file '../requests/a.yaml' holds no PEM certificate") })
        #expect(found.contains { $0.hasPrefix("requests/a.yaml:1:21: error: undefined variable 'nope'") }, "\(found)")
        let other = problems(of: await scratch.readCollection(["requests"], env: "f"))
        #expect(other.contains { $0.hasPrefix("environments/f.yaml:1:10: error: baseURL 'ftp://x' is not an absolute http or https URL") }
                && other.contains { $0.hasPrefix("environments/f.yaml:2:21: error: expected a duration") }, "\(other)")
        // An error outside options (a broken variable) still stops the environment there: nothing resolved, no guesses.
        scratch.write("environments/g.yaml", "baseURL: ftp://x\nvariables: { a: \"{{ \" }\n")
        let broken = problems(of: await scratch.readCollection(["requests"], env: "g"))
        #expect(broken.count == 1 && broken[0].contains("unterminated"), "\(broken)")
    }

    /// `qa.yaml` beside `qa.yml` is not one environment silently winning over the other.
    @Test func twoFilesOfOneEnvironmentAreAnError() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://qa.test\n")
        scratch.write("environments/qa.yml", "baseURL: http://other.test\n")
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "error: two files define the environment 'qa': environments/qa.yaml and environments/qa.yml [help: remove or rename one of them]",
        ])
    }

    @Test func hiddenEnvironmentFilesAreNotEnvironments() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://qa.test\n")
        scratch.write("environments/.old.yaml", "baseURL: http://old.test\n")
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: ".old")) == [
            "error: unknown environment '.old' [help: available environments: qa]",
        ])
    }

    @Test func unknownEnvironmentAndBaseSuggestNames() async {
        let scratch = project()
        defer { scratch.remove() }
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qaa")) == [
            "error: unknown environment 'qaa' [help: did you mean 'qa'? (available environments: base, broken, loop-a, loop-b, qa)]",
        ])
        // A file's path is told its name; a name that differs only in digits is another system, not a typo.
        #expect(problems(of: await scratch.readCollection(["requests"], env: "environments/qa.yaml")) == [
            "error: unknown environment 'environments/qa.yaml' [help: did you mean 'qa'? (available environments: base, broken, loop-a, loop-b, qa)]",
        ])
        // Without its extension too (trial helper-181).
        #expect(problems(of: await scratch.readCollection(["requests"], env: "environments/qa")) == [
            "error: unknown environment 'environments/qa' [help: did you mean 'qa'? (available environments: base, broken, loop-a, loop-b, qa)]",
        ])
        #expect(problems(of: await scratch.readCollection(["requests"], env: "loop-c")) == [
            "error: unknown environment 'loop-c' [help: did you mean 'loop-a'? (available environments: base, broken, loop-a, loop-b, qa)]",
        ])
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa2")) == [
            "error: unknown environment 'qa2' [help: available environments: base, broken, loop-a, loop-b, qa]",
        ])
        #expect(problems(of: await scratch.readCollection(["requests"], env: "broken")) == [
            "environments/broken.yaml:1:10: error: environment 'bse' does not exist [help: did you mean 'base'?]",
        ])
    }

    @Test func missingSecretIsLocatedAndDefaultsApply() async {
        let scratch = project()
        defer { scratch.remove() }
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "environments/qa.yaml:5:29: error: secret 'password': environment variable QA_PASSWORD is not set [help: set QA_PASSWORD in the environment, give the secret a 'default', or pass --var password=VALUE]",
        ])
        let withToken = await scratch.readCollection(["requests"], env: "base", processEnvironment: ["TOKEN": "real"])
        #expect(withToken.environment?.secrets == [ResolvedSecret(name: "token", value: "real")])
    }

    /// A polled request takes its `attempts` from the environment when it writes none (retry merges field by field);
    /// without either, it needs one.
    @Test func pollingTakesTheEnvironmentsAttempts() async {
        let scratch = project()
        defer { scratch.remove() }
        scratch.write("requests/a.yaml", "request: { url: /a }\noptions: { retry: { on: [expectations] } }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "base")).isEmpty)
        scratch.write("environments/plain.yaml", "baseURL: https://plain.example.com\n")
        let plain = problems(of: await scratch.readCollection(["requests"], env: "plain"))
        #expect(plain == [
            "requests/a.yaml:2:25: error: polling ('expectations' in 'options.retry.on') needs 'attempts' [help: say how many tries at most, such as attempts: 20, here or in the environment's options.retry]",
        ], "\(plain)")
        // Polling the environment asks for is reported there, once for all its requests.
        scratch.write("environments/polls.yaml", "baseURL: https://plain.example.com\noptions: { retry: { on: [expectations] } }\n")
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        scratch.write("requests/b.yaml", "request: { url: /b }\noptions: { retry: { delay: 10ms } }\n")
        let polls = problems(of: await scratch.readCollection(["requests"], env: "polls"))
        #expect(polls == [
            "environments/polls.yaml:2:25: error: polling ('expectations' in 'options.retry.on') needs 'attempts' [help: say how many tries at most, such as attempts: 20, here or in each polling request's options.retry]",
        ], "\(polls)")
        // In the file that asks for it, also when an environment extending it writes other retry fields.
        scratch.write("environments/child.yaml", "extends: polls\noptions:\n  retry: { delay: 50ms }\n")
        let child = problems(of: await scratch.readCollection(["requests"], env: "child"))
        #expect(child == [
            "environments/polls.yaml:2:25: error: polling ('expectations' in 'options.retry.on') needs 'attempts' [help: say how many tries at most, such as attempts: 20, here or in each polling request's options.retry]",
        ], "\(child)")
    }

    /// A variable still holding the value `runner import` writes for the user to replace is a warning, unless a `--var`
    /// sets it (the value the request would send is the placeholder).
    @Test func aVariableLeftAsTheImportPlaceholderIsAWarningUnlessAVarSetsIt() async {
        let scratch = project()
        defer { scratch.remove() }
        scratch.write("environments/imported.yaml", "extends: base\nvariables:\n  petId: FILL-ME\n  name: \"FILL-ME too\"\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "imported")) == [
            "environments/imported.yaml:3:10: warning: variable 'petId' is FILL-ME, the value runner import writes where the document gives no example: requests send it as written [help: set it here, or with --var petId=VALUE]",
        ])
        #expect(problems(of: await scratch.readCollection(["requests"], env: "imported", vars: [("petId", "7")])).isEmpty)
    }

    /// A secret too short to hide in text is a warning, unless a `--var` of its name replaces it.
    @Test func aShortSecretIsAWarningUnlessAVarReplacesIt() async {
        let scratch = project()
        defer { scratch.remove() }
        let short = await scratch.readCollection(["requests"], env: "base", processEnvironment: ["TOKEN": "ab"])
        #expect(short.diagnostics.contains { $0.message.hasPrefix("secret 'token' has fewer than") && !$0.message.contains("punctuation") })
        let quote = await scratch.readCollection(["requests"], env: "base", processEnvironment: ["TOKEN": "\""])
        #expect(quote.diagnostics.contains { $0.message.hasSuffix("with no letter or digit, it hides that punctuation nearly everywhere it stands") })
        let blank = await scratch.readCollection(["requests"], env: "base", processEnvironment: ["TOKEN": "  \n "])
        #expect(blank.diagnostics.contains { $0.message == "secret 'token' is only white space: it is not hidden" }, "\(blank.diagnostics)")
        let replaced = await scratch.readCollection(["requests"], env: "base", vars: [("token", "a-long-token-value")],
                                                    processEnvironment: ["TOKEN": "ab"])
        #expect(!replaced.diagnostics.contains { $0.message.hasPrefix("secret 'token' has fewer than") }, "\(replaced.diagnostics)")
        // The value sent where the secret would be is hidden like it.
        #expect(replaced.scope.secretValues.contains("a-long-token-value"))
    }

    /// A `--var` of a secret's name stands in for the secret when its environment variable is unset (the `--var`
    /// would replace its value anyway), and is hidden as the secret is.
    @Test func aVarStandsInForASecretWhoseVariableIsUnset() async {
        let scratch = project()
        defer { scratch.remove() }
        let unset = await scratch.readCollection(["requests"], env: "qa", processEnvironment: [:])
        #expect(unset.diagnostics.contains { $0.message == "secret 'password': environment variable QA_PASSWORD is not set" },
                "\(unset.diagnostics)")
        // One typo from a variable that is set: that one is named (trial helper-135).
        let typo = await scratch.readCollection(["requests"], env: "qa", processEnvironment: ["QA_PASWORD": "x-long-value"])
        #expect(typo.diagnostics.contains { $0.suggestion == "did you mean 'QA_PASWORD', which is set?" }, "\(typo.diagnostics)")
        // Not one that is set but empty, which counts as unset (trial helper-140).
        let emptyTypo = await scratch.readCollection(["requests"], env: "qa", processEnvironment: ["QA_PASWORD": ""])
        #expect(!emptyTypo.diagnostics.contains { $0.suggestion?.hasPrefix("did you mean") == true }, "\(emptyTypo.diagnostics)")
        let given = await scratch.readCollection(["requests"], env: "qa", vars: [("password", "a-long-password")], processEnvironment: [:])
        #expect(!given.diagnostics.contains { $0.severity == .error }, "\(given.diagnostics)")
        #expect(given.scope.secretValues.contains("a-long-password"))
        // An empty one is no value, as an empty environment variable is none.
        let empty = await scratch.readCollection(["requests"], env: "qa", vars: [("password", "")], processEnvironment: [:])
        #expect(empty.diagnostics.contains { $0.message == "secret 'password': environment variable QA_PASSWORD is not set"
                    && $0.suggestion == "the --var password given is empty: give its value, or set QA_PASSWORD in the environment" })
    }

    /// An empty or white-space `--var` of a secret's name (a shell variable left unset: `--var password=$PW`) is a
    /// warning at the secret: it replaces the value the environment gives, or stands in as text that is not hidden.
    @Test func aBlankVarOfASecretsNameIsAWarning() async {
        let scratch = project()
        defer { scratch.remove() }
        for blank in ["", "  "] {
            let replacing = await scratch.readCollection(["requests"], env: "qa", vars: [("password", blank)],
                                                         processEnvironment: ["QA_PASSWORD": "a-long-password"])
            let what = blank.isEmpty ? "is empty" : "is only white space"
            #expect(problems(of: replacing) == [
                "environments/qa.yaml:5:29: warning: --var password \(what): it replaces the secret's value where it is used (a request that needs a value there is refused) [help: leave out --var password to send the secret's value, or give the value]",
            ], "\(replacing.diagnostics)")
        }
        let standing = await scratch.readCollection(["requests"], env: "qa", vars: [("password", " ")], processEnvironment: [:])
        #expect(problems(of: standing) == [
            "environments/qa.yaml:5:29: warning: --var password is only white space: it is sent as written, and not hidden [help: give the value, or set QA_PASSWORD in the environment]",
        ], "\(standing.diagnostics)")
        // A value that is not blank says nothing, however short (it replaces the secret).
        let short = await scratch.readCollection(["requests"], env: "qa", vars: [("password", "ab")],
                                                 processEnvironment: ["QA_PASSWORD": "a-long-password"])
        #expect(short.diagnostics.isEmpty, "\(short.diagnostics)")
    }

    @Test func noEnvironmentWithoutEnvAndExplicitDirectory() async {
        let scratch = project()
        defer { scratch.remove() }
        let collection = await scratch.readCollection(["requests"])
        #expect(collection.environment == nil && collection.diagnostics.isEmpty)
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa", environments: "nowhere")) == [
            "error: environments directory 'nowhere' does not exist",
        ])
        scratch.write("other/envs/x.yaml", "baseURL: http://localhost:8080\n")
        #expect(await scratch.readCollection(["requests"], env: "x", environments: "other/envs").environment?.baseURL == "http://localhost:8080")
    }

    @Test func badBaseURLIsLocated() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: qa.example.com\n")
        scratch.write("r.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"], env: "e")) == [
            "environments/e.yaml:1:10: error: baseURL 'qa.example.com' is not an absolute http or https URL [help: write it like https://api.example.com/v1]",
        ])
        // One whose host is no host name.
        scratch.write("environments/h.yaml", "baseURL: \"http://bad host/base\"\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"], env: "h")) == [
            "environments/h.yaml:1:10: error: baseURL 'http://bad host/base': its host is not a host name: it holds a space, a control or punctuation a name cannot (letters, digits, '-', '_' and '.')",
        ])
        // One made of a secret is shown as written, not with the secret's value.
        scratch.write("environments/s.yaml", "baseURL: \"http://{{ pw }}:99999/x\"\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: notaurl-zQ9mk8 } }\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"], env: "s")) == [
            "environments/s.yaml:1:10: error: baseURL 'http://{{ pw }}:99999/x': the port is not a number from 1 to 65535 [help: write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)]",
        ])
        // Also when the URL holds the secret encoded (`@` as `%40`), and a bracketed host that is no IPv6 address.
        for (name, url) in [("at", "http://127.0.0.1:{{ pw }}/x"), ("bracket", "http://[{{ pw }}]/")] {
            scratch.write("environments/\(name).yaml", "baseURL: \"\(url)\"\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: S3cretP@ss-zQ9 } }\n")
            let shown = problems(of: await scratch.readCollection(["r.yaml"], env: name))
            #expect(shown.count == 1 && shown.allSatisfy { $0.contains("baseURL '\(url)'") && !$0.contains("S3cret") }, "\(shown)")
        }
        // A port a secret gives is not quoted, however short the secret.
        for value in ["99999", "0"] {
            scratch.write("environments/port.yaml", "baseURL: \"http://127.0.0.1:{{ s }}/api\"\nsecrets: { s: { env: RUNNER_TEST_UNSET_PW, default: '\(value)' } }\n")
            let shown = problems(of: await scratch.readCollection(["r.yaml"], env: "port"))
            #expect(shown.first?.hasPrefix("environments/port.yaml:1:10: error: baseURL 'http://127.0.0.1:{{ s }}/api': the port is not a number from 1 to 65535") == true,
                    "\(shown)")
        }
        scratch.write("environments/zz.yaml", "baseURL: \"http://[zz]/x\"\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"], env: "zz")) == [
            "environments/zz.yaml:1:10: error: baseURL 'http://[zz]/x': its host is not an IPv6 address, which is what brackets hold (such as [::1])",
        ])
    }
}

@Suite struct MergedRetryTests {
    /// A request's retry merged over its environment's, as it is sent, whose waits add up to more than an hour is a
    /// warning at the request's retry naming the environment's part; neither alone is (trial helper-179).
    @Test func aRetryMergedOverTheEnvironmentsThatWaitsOverAnHourIsAWarning() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/w.yaml", "baseURL: http://127.0.0.1:1\noptions:\n  retry: { attempts: 100 }\n")
        scratch.write("a.yaml", "request: { url: /a }\noptions:\n  retry: { delay: 1m }\n")
        scratch.write("b.yaml", "request: { url: /b }\noptions:\n  retry: { delay: 1s }\n")
        #expect(problems(of: await scratch.readCollection(["a.yaml", "b.yaml"], env: "w")) == [
            "a.yaml:3:10: warning: this retry, with the environment's attempts (environments/w.yaml), waits more than an hour in all between "
                + "its tries: a request whose answer never comes right holds the run that long [help: give fewer attempts or a shorter delay here, "
                + "or in the environment]",
        ])
        // Merged across `extends`: the base's attempts, the extending file's delay (trial helper-183).
        scratch.write("environments/w6.yaml", "extends: w\noptions:\n  retry: { delay: 1m }\n")
        #expect(problems(of: await scratch.readCollection(["b.yaml"], env: "w6")) == [
            "environments/w6.yaml:3:10: warning: this retry, merged with the one of the environment it extends, waits more than an hour in "
                + "all between its tries: a request whose answer never comes right holds the run that long [help: give fewer attempts or a "
                + "shorter delay]",
        ])
    }
}

@Suite struct ByteOrderMarkTests {
    /// A file that starts with a UTF-8 byte order mark is read, its first line's columns counted from after the mark (as
    /// editors count them), its quoted lines without it (trial helper-181: one column off, the caret too).
    @Test func columnsOfTheFirstLineCountFromAfterTheMark() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\n")
        scratch.write("r.yaml", "\u{FEFF}request: { url: \"/v/{{ nobom }}\", heders: {} }\n")
        let read = await scratch.readCollection(["r.yaml"], env: "e")
        #expect(problems(of: read).count == 2, "\(problems(of: read))")
        #expect(problems(of: read).contains { $0.hasPrefix("r.yaml:1:21: error: undefined variable 'nobom'") }, "\(problems(of: read))")
        #expect(problems(of: read).contains { $0.hasPrefix("r.yaml:1:35: error: unknown key 'heders'") }, "\(problems(of: read))")
    }

    /// A credential a file writes is hidden in every output, but not a short number, boolean or method, which would hide
    /// every status, count or method shown (trial helper-190: `password: 200` hid every status 200).
    @Test func aWrittenCredentialThatIsACommonWordIsNotHidden() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("r.yaml", "request: { url: 'http://127.0.0.1:1/a', json: { password: 200, token: POST, secret: xq7, pin: 123456 } }\n"
                      + "auth: { basic: { username: u, password: 404 } }\n")
        let hidden = await scratch.readCollection(["r.yaml"]).scope.hiddenValues
        #expect(!hidden.contains("200") && !hidden.contains("POST") && !hidden.contains("404"), "\(hidden)")
    }

    /// The fields a request sends as credentials through a path (`{{ item.key }}`, `{{ first.key }}`) are named among the
    /// credential variables, so that of a captured mapping only those fields are hidden (trial helper-190: every field).
    @Test func theFieldsOfAPathSentAsACredentialAreNamed() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("r.yaml", "each: \"{{ users }}\"\nrequest: { url: 'http://127.0.0.1:1/{{ item.name }}', headers: { X-Api-Key: \"{{ item.key }}\" } }\n")
        let names = await scratch.readCollection(["r.yaml"], vars: [("users", "[]")]).credentialVariables
        #expect(names.isSuperset(of: ["users", "item", "key"]) && !names.contains("name"), "\(names)")
        // A URL's user name and password are the Basic credential sent (trial helper-191: the user name was not).
        scratch.write("u.yaml", "request: { url: 'http://{{ who }}:{{ pw }}@127.0.0.1:1/a?page={{ n }}' }\n")
        let url = await scratch.readCollection(["u.yaml"], vars: [("who", "u"), ("pw", "p"), ("n", "1")]).credentialVariables
        #expect(url.isSuperset(of: ["who", "pw"]) && !url.contains("n"), "\(url)")
    }

    /// A dotenv file, a data-rows file and a schema file that start with the mark: read, their first line's columns
    /// counted from after it, their quoted lines without it (trial helper-184).
    @Test func dotenvRowsAndSchemaFilesAreReadWithoutTheMark() async throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let mark = "\u{FEFF}"
        scratch.write(".env", mark + "MY TOK=abc\n")
        let sources = SourceCache()
        let read = DotEnvFiles.environment([:], adding: [".env"], currentDirectory: scratch.root, sources: sources)
        #expect(read.diagnostics.map { $0.description }.first?.hasPrefix(".env:1:4: error: expected '='") == true, "\(read.diagnostics)")
        #expect(sources.text(for: ".env")?.hasPrefix("MY") == true)
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\n")
        scratch.write("rows.csv", mark + "id,id\n1,a\n")
        scratch.write("s.json", mark + #"{"type":"object"}"#)
        scratch.write("r.yaml", "each: rows.csv\nrequest: { url: \"/v/{{ id }}\" }\n")
        scratch.write("q.yaml", "request: { url: /q }\nexpect: { schema: s.json }\n")
        let collection = await scratch.readCollection(["r.yaml", "q.yaml"], env: "e")
        #expect(problems(of: collection).map { $0.prefix(20) } == ["rows.csv:1:4: error:"], "\(problems(of: collection))")
        #expect(collection.sources.text(for: "rows.csv")?.hasPrefix("id,id") == true)
    }
}

@Suite struct ValidationTests {
    /// Values known before sending (the environment's variables, `--var`s) that make a request fail at run are errors at
    /// validate: an OAuth2 token URL's port (the request's auth, or the environment's), a query or form value that is null
    /// (the request's, or the environment's query unless the request sets the parameter).
    @Test func valuesKnownBeforeSendingAreCheckedWhereTheyAreUsed() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let oauth = "{ oauth2: { tokenURL: \"http://127.0.0.1:{{ port }}/token\", clientID: c, clientSecret: s } }"
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\nvariables: { nothing: null }\nauth: \(oauth)\nquery: { q: \"{{ nothing }}\" }\n")
        scratch.write("r1.yaml", "request: { url: /a }\nauth: \(oauth)\n")
        scratch.write("r2.yaml", "request: { url: /b, query: { a: \"{{ nothing }}\", b: \"x{{ nothing }}\" }, form: { f: \"{{ nothing }}\" } }\n")
        #expect(problems(of: await scratch.readCollection(["r1.yaml", "r2.yaml"], env: "e", vars: [("port", "99999")])) == [
            "environments/e.yaml:3:29: error: the URL 'http://127.0.0.1:99999/token': the port 99999 is not a number from 1 to 65535 [help: write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)]",
            "environments/e.yaml:4:13: error: '{{ nothing }}' gives null, which a query or form value cannot be: it would be sent as the word null [help: give what it reads a value, or write \"\" to send it empty]",
            "r1.yaml:2:29: error: the URL 'http://127.0.0.1:99999/token': the port 99999 is not a number from 1 to 65535 [help: write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)]",
            "r2.yaml:1:33: error: '{{ nothing }}' gives null, which a query or form value cannot be: it would be sent as the word null [help: give what it reads a value, or write \"\" to send it empty]",
            "r2.yaml:1:84: error: '{{ nothing }}' gives null, which a query or form value cannot be: it would be sent as the word null [help: give what it reads a value, or write \"\" to send it empty]",
        ])
        // A header (the environment's too), a credential or a multipart value holding a known null (trial helper-181).
        scratch.write("environments/n.yaml", "baseURL: http://127.0.0.1:1\nvariables: { nothing: null }\nheaders: { X-N: \"{{ nothing }}\" }\n")
        scratch.write("r3.yaml", "request: { url: /b, multipart: [ { name: a, value: \"{{ nothing }}\" } ] }\nauth: { bearer: \"x{{ nothing }}\" }\n")
        let null = "gives null, which %@ cannot hold: it would be sent as the word null [help: give what it reads a value (a capture of a JSON null gives null)]"
        #expect(problems(of: await scratch.readCollection(["r3.yaml"], env: "n")) == [
            "environments/n.yaml:3:18: error: '{{ nothing }}' " + null.replacingOccurrences(of: "%@", with: "a header value"),
            "r3.yaml:1:53: error: '{{ nothing }}' " + null.replacingOccurrences(of: "%@", with: "a multipart value"),
            "r3.yaml:2:19: error: '{{ nothing }}' " + null.replacingOccurrences(of: "%@", with: "a bearer token"),
        ])
        // A bearer token known before sending that the run refuses: a warning, each request sent with it an ERROR (trial
        // helper-189: a secret's `default: ""`, as the docs' own example had it).
        scratch.write("environments/t.yaml", "baseURL: http://127.0.0.1:1\nsecrets: { token: { env: RUNNER_TEST_UNSET_TOKEN, default: \"\" } }\n"
                      + "auth: { bearer: \"{{ token }}\" }\n")
        scratch.write("r5.yaml", "request: { url: /t }\n")
        #expect(problems(of: await scratch.readCollection(["r5.yaml"], env: "t")) == [
            "environments/t.yaml:3:17: warning: the bearer token is empty: each request sent with it is an ERROR [help: give the "
                + "variable a value: an empty token would be sent as 'Bearer ' alone]",
        ])
        // And an Authorization header whose variables give nothing (trial helper-190).
        scratch.write("environments/t2.yaml", "baseURL: http://127.0.0.1:1\nsecrets: { token: { env: RUNNER_TEST_UNSET_TOKEN, default: \"\" } }\n"
                      + "headers: { Authorization: \"Bearer {{ token }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["r5.yaml"], env: "t2")) == [
            "environments/t2.yaml:3:27: warning: the value of header 'Authorization' holds no credentials: only 'Bearer' once its "
                + "variables are resolved: each request sent with it is an ERROR [help: give the variables it reads a value]",
        ])
        // In a request's URL, or the environment's baseURL, whose null was sent as the word (trial helper-184).
        scratch.write("environments/b.yaml", "baseURL: \"http://127.0.0.1:1/{{ nothing }}\"\nvariables: { nothing: null }\n")
        scratch.write("r4.yaml", "request: { url: \"/echo/{{ nothing }}?x=1\" }\n")
        let inBaseURL = problems(of: await scratch.readCollection(["r4.yaml"], env: "b"))
        #expect(inBaseURL == ["environments/b.yaml:1:30", "r4.yaml:1:24"].map { "\($0): error: '{{ nothing }}' " + null.replacingOccurrences(of: "%@", with: "a URL") },
                "\(inBaseURL)")
        scratch.write("environments/u.yaml", "baseURL: http://127.0.0.1:1\nvariables: { nothing: null }\n")
        #expect(problems(of: await scratch.readCollection(["r4.yaml"], env: "u")) == [
            "r4.yaml:1:24: error: '{{ nothing }}' " + null.replacingOccurrences(of: "%@", with: "a URL"),
        ])
        // A port a capture gives is known only at run, over the environment's; a `--var` wins over the capture.
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\nvariables: { port: 99999 }\nauth: none\n")
        scratch.write("r0.yaml", "request: { url: /c, query: { q: x } }\nauth: none\ncapture: { port: $.p }\n")
        scratch.write("r1.yaml", "request: { url: /a, query: { q: x } }\nauth: \(oauth)\n")
        #expect(problems(of: await scratch.readCollection(["r0.yaml", "r1.yaml"], env: "e")).isEmpty)
        let overridden = problems(of: await scratch.readCollection(["r0.yaml", "r1.yaml"], env: "e", vars: [("port", "99999")]))
        #expect(overridden.count == 1 && overridden[0].hasPrefix("r1.yaml:2:29: error: the URL 'http://127.0.0.1:99999/token': the port"),
                "\(overridden)")
    }

    /// An environment that cannot be read (an error in its structure) holds back none of the requests' problems: what it
    /// defines is unknown, so no variable is said to be undefined and no `baseURL` missing (trial helper-135).
    @Test func aBrokenEnvironmentHoldsBackNoOtherProblem() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "variables: [1, 2]\n")
        scratch.write("r.yaml", "when: { \"{{ flag }}\": { equals: 1 } }\nrequest: { url: \"/x/{{ id }}/{{ limits.max }}\" }\n"
                      + "expect: { schema: missing.json }\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"], env: "e", vars: [("unread", "1")])) == [
            "environments/e.yaml:1:12: error: expected a mapping for 'variables', found a list",
            "r.yaml:3:19: error: file 'missing.json' does not exist [help: paths are relative to the request file]",
        ])
    }

    /// An `in:` list known before sending must be a list with values, as the run requires: a `--var` is text, an
    /// environment's list may be empty; in expectations, `stopWhen` and `when:` (a flow's too), under `not` and `each`. A
    /// list a capture gives (unless a `--var` wins over it), or a good one, is not checked.
    @Test func anInListKnownBeforeSendingIsCheckedAtValidate() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\nvariables: { none: [], good: [1, 2], nothing: null }\n")
        scratch.write("r.yaml", """
            when: { "{{ v }}": { in: "{{ v }}" } }
            request: { url: /a }
            capture: { got: $.ids }
            options: { retry: { attempts: 2, on: [expectations], stopWhen: { status: { in: "{{ none }}" } } } }
            expect:
              body:
                $.a: { not: { in: "{{ none }}" } }
                $.b: { each: { in: "{{ v }}" } }
                $.c: { in: "{{ good }}" }
                $.d: { in: "{{ nothing }}" }

            """)
        scratch.write("s.yaml", "name: f\nwhen: { \"{{ v }}\": { in: \"{{ v }}\" } }\nsteps:\n"
                      + "  - { name: one, request: { url: /b }, expect: { body: { $.a: { in: \"{{ got }}\" } } } }\n")
        let shown = problems(of: await scratch.readCollection(["r.yaml", "s.yaml"], env: "e", vars: [("v", "a")]))
        let empty = "gives an empty list: no value is one of none (and under 'not', every value passes) [help: check that the list is empty with isEmpty: true, or give it values]"
        let text = "gives a string \"a\", not the list 'in' reads [help: give it a list, such as a capture of $.ids[*]]"
        #expect(shown == [
            "r.yaml:1:26: error: '{{ v }}' \(text)",
            "r.yaml:4:80: error: '{{ none }}' \(empty)",
            "r.yaml:7:23: error: '{{ none }}' \(empty)",
            "r.yaml:8:24: error: '{{ v }}' \(text)",
            "r.yaml:10:16: error: '{{ nothing }}' gives null, not the list 'in' reads [help: give it a list, such as a capture of $.ids[*]]",
            "s.yaml:2:26: error: '{{ v }}' \(text)",
        ], "\(shown)")
        // A `--var` wins over a capture: its value is known (trial helper-152).
        let overridden = problems(of: await scratch.readCollection(["r.yaml", "s.yaml"], env: "e", vars: [("v", "a"), ("got", "x")]))
        #expect(overridden.contains { $0.hasPrefix("s.yaml:4:") && $0.contains("error: '{{ got }}' gives a string \"x\"") }, "\(overridden)")
    }

    /// The diagnostics of a collection quote a line one of them hides hidden each (a report renders them one by one).
    @Test func diagnosticsOnALineOneHidesHideItEach() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\nsecrets:\n  tok:\n    Hunter2Secret9: 1\n")
        scratch.write("r.yaml", "request: { url: /a }\n")
        let loaded = await scratch.readCollection(["r.yaml"], env: "e")
        let onLine = loaded.diagnostics.filter { $0.mark?.line == 4 }
        #expect(onLine.count == 2 && onLine.allSatisfy { $0.quotesSecret && $0.hidesKey }, "\(onLine)")
        for diagnostic in onLine {
            #expect(!DiagnosticRenderer.render(diagnostic, sources: loaded.sources, color: false).contains("Hunter2Secret"))
        }
    }

    /// A credential written as it is joins the values every output hides: a YAML alias may show it where no key's rule
    /// does (`status: *k`). A template, a JSONPath, a matcher, a secret's `env`, a capture's `default` and a cookie's name
    /// are none.
    @Test func credentialsWrittenAsTheyAreAreHiddenAsSecrets() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: http://127.0.0.1:1\nsecrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: Env-Default-9 } }\n")
        scratch.write("r.yaml", """
            auth: { bearer: &k Hunter2Secret-A }
            request: { url: /a, headers: { X-Api-Key: Key-Hunter2, Authorization-Note: x, X-Token: "{{ t }}", X-Auth: "Bearer {{ t }}", X-Access-Token: "Lit-Hunter2{{ t }}", Cookie: "sid={{ t }}; pref=Cookie-Lit-7", X-Api-Token: "{{ t }}-prod" } }
            expect: { status: *k, headers: { X-Auth-Token: { exists: true } } }
            capture: { t: { header: X-Token, default: fallback-value }, token: $.access_token }

            """)
        let loaded = await scratch.readCollection(["r.yaml"], env: "e")
        // A cookie's name is none (`sid=` was hidden before its value: `******`, trial helper-127), nor a short text beside a
        // template (`-prod` hid every `login-prod`, trial helper-136).
        #expect(loaded.scope.writtenCredentials == ["Hunter2Secret-A", "Key-Hunter2", "Lit-Hunter2", "Cookie-Lit-7", "Env-Default-9"],
                "\(loaded.scope.writtenCredentials)")
        #expect(loaded.scope.hiddenValues.isSuperset(of: loaded.scope.writtenCredentials) && loaded.scope.secretValues == ["Env-Default-9"])
    }

    @Test func undefinedVariableIsLocatedWithASuggestion() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/local.yaml", "baseURL: http://localhost\nvariables: { userName: bot, limits: { max: 3 } }\n")
        scratch.write("requests/a.yaml", "request:\n  url: /users/{{ usrName }}?max={{ limits.max }}&c={{ cli }}\n")
        let collection = await scratch.readCollection(["requests"], env: "local", vars: [("cli", "1")])
        #expect(problems(of: collection) == [
            "requests/a.yaml:2:15: error: undefined variable 'usrName' [help: did you mean 'userName'?]",
        ])
        #expect(collection.hasErrors)
    }

    /// The environment's auth and `Authorization` header are not used by a request with its own auth or `Authorization`
    /// header, so their variables need not be defined for it.
    @Test func theEnvironmentsAuthIsNotCheckedForARequestWithItsOwn() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\nauth: { bearer: \"{{ tok }}\" }\nheaders: { Authorization: \"Basic {{ b }}\" }\n")
        scratch.write("requests/a.yaml", "request: { url: /a, headers: { authorization: Bearer own } }\n")
        scratch.write("requests/b.yaml", "request: { url: /b }\nauth: none\n")
        scratch.write("requests/c.yaml", "request: { url: \"http://u:p@localhost/c\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")).isEmpty)
    }

    /// A header value written with a line break or a NUL (no template) is an error where it is written, as it would be
    /// when sent; one a variable gives is the run's to refuse.
    @Test func aHeaderValueWrittenWithALineBreakIsAnErrorBeforeSending() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\nheaders: { X-E: \"a\\u0000\" }\n")
        scratch.write("requests/a.yaml", "request:\n  url: /a\n  headers: { X-Ok: \"a\\r\\nX-Injected: 1\", X-V: \"{{ v }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa", vars: [("v", "a\r\nb")])) == [
            "environments/qa.yaml:2:17: error: the value of header 'X-E' contains a NUL character; header values cannot contain control characters other than a tab (CR, LF and NUL included) [help: remove the NUL character from the header value]",
            "requests/a.yaml:3:20: error: the value of header 'X-Ok' contains a carriage return (CR); header values cannot contain control characters other than a tab (CR, LF and NUL included) [help: remove the line break from the header value]",
        ])
        // A bearer token is sent in a header too; a C1 control is a control character.
        scratch.write("requests/a.yaml", "request:\n  url: /a\n  headers: { X-C1: \"a\\u0085b\" }\nauth: { bearer: \"t\\x7Fk\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"])).map { $0.prefix(60) } == [
            "requests/a.yaml:3:20: error: the value of header 'X-C1' cont", "requests/a.yaml:4:17: error: the value of header 'Authorizat",
        ])
        // A bearer token is one word: one holding a space or a tab (the scheme written twice) is an error.
        scratch.write("requests/a.yaml", "request: { url: /a }\nauth: { bearer: \"Bearer abc123\" }\n")
        scratch.write("requests/b.yaml", "request: { url: /b }\nauth: { bearer: \"ab\\tc\" }\n")
        // Written around a template, too.
        scratch.write("requests/c.yaml", "request: { url: /c }\nauth: { bearer: \"Bearer {{ tok }}\" }\n")
        scratch.write("requests/d.yaml", "request: { url: /d }\nauth: { bearer: \"{{ a }} {{ b }}\" }\n")
        scratch.write("requests/e.yaml", "request: { url: /e }\nauth: { bearer: \"\" }\n")
        scratch.write("requests/f.yaml", "request: { url: /f }\nauth: { bearer: \"{{ tok }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], vars: [("tok", "t"), ("a", "x"), ("b", "y")])) == [
            "requests/a.yaml:2:17: error: the bearer token holds a space, and a bearer token is one word (RFC 6750) [help: write the token alone: 'Bearer ' is put before it]",
            "requests/b.yaml:2:17: error: the bearer token holds a tab, and a bearer token is one word (RFC 6750) [help: remove the tab from the token]",
            "requests/c.yaml:2:17: error: the bearer token holds a space, and a bearer token is one word (RFC 6750) [help: write the token alone: 'Bearer ' is put before it]",
            "requests/d.yaml:2:17: error: the bearer token holds a space, and a bearer token is one word (RFC 6750) [help: remove the space from the token]",
            "requests/e.yaml:2:17: error: the bearer token is empty [help: write the token, or a variable or secret that gives it]",
        ])
    }

    /// An environment header or query parameter a request replaces with its own (a header of the same name in any case,
    /// a parameter of its `query:` or written URL) is not used by it, so its variables need not be defined there.
    @Test func anEnvironmentHeaderARequestReplacesIsNotCheckedForIt() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\nheaders: { X-Sess: \"{{ sess }}\" }\nquery: { t: \"{{ tok }}\" }\n")
        scratch.write("requests/0-login.yaml", """
            request: { url: "/login?t=1", headers: { x-sess: init } }
            capture: { sess: $.s, tok: $.t }

            """)
        scratch.write("requests/1-next.yaml", "request: { url: /next }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")).isEmpty)
        // A request that does not replace them uses them, before they are captured.
        scratch.write("requests/0-login.yaml", "request: { url: /login }\ncapture: { sess: $.s, tok: $.t }\n")
        let shown = problems(of: await scratch.readCollection(["requests"], env: "qa"))
        #expect(shown.count == 2 && shown.allSatisfy { $0.hasPrefix("environments/qa.yaml:") && $0.contains("undefined variable") }, "\(shown)")
    }

    /// A baseURL whose port keeps it from parsing (`-1`, a word) names the port, as a request URL does.
    @Test(arguments: ["-1", "+80"])
    func aBaseURLWithAPortThatIsNoNumberNamesThePort(port: String) async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://127.0.0.1:\(port)/api\n")
        scratch.write("requests/a.yaml", "request: { url: /a }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "environments/qa.yaml:1:10: error: baseURL 'http://127.0.0.1:\(port)/api': the port '\(port)' is not a number from 1 to 65535 "
                + "[help: write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)]",
        ])
    }

    /// A baseURL, and a request URL a known variable completes, whose user information holds a `#` as it is are errors
    /// naming the character, the password hidden (the URL would go to the host its user names).
    @Test func aBaseURLOrURLTemplateWithAHashInItsPasswordIsRefusedAndHidden() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://u:Bas3#pw@127.0.0.1:1\n")
        scratch.write("environments/ok.yaml", "baseURL: http://127.0.0.1:1\n")
        scratch.write("requests/a.yaml", "request: { url: \"http://u:{{ pw }}@127.0.0.1:1/a\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa", vars: [("pw", "x")])) == [
            "environments/qa.yaml:1:10: error: baseURL 'http://u:***@127.0.0.1:1': its user information holds a '#', which ends a URL's host part: write it as %23",
        ])
        #expect(problems(of: await scratch.readCollection(["requests"], env: "ok", vars: [("pw", "Tr0ub#3")])) == [
            "requests/a.yaml:1:17: error: the URL 'http://u:***@127.0.0.1:1/a': its user information holds a '#', which ends a URL's host part: write it as %23",
        ])
    }

    /// A URL template whose values are known before sending (environment variables, secrets, `--var`s) is checked as a
    /// URL written out is; one a capture, `with:`, an `each:` element or a random value may change is left to the run.
    @Test func aURLTemplateOfKnownValuesIsCheckedBeforeSending() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/local.yaml", """
            baseURL: http://localhost
            variables: { hv: zz, host: a..b, ip: 1.2.3.256, good: 127.1, list: [x] }
            secrets: { pw: { env: RUNNER_TEST_UNSET_PW, default: S3cret..Host-zQ9 } }

            """)
        // A `with:` or a data row of an earlier file changes its variable for that file only.
        scratch.write("requests/0-use.yaml", "each: [{ ip: 127.0.0.1 }]\nsteps:\n  - use: _f.yaml\n    with: { host: ok.example }\n")
        scratch.write("requests/_f.yaml", "request: { url: \"http://{{ host }}/{{ ip }}\" }\n")
        scratch.write("requests/a.yaml", "request: { url: \"http://[{{ hv }}]/\" }\n")
        scratch.write("requests/b.yaml", "request: { url: \"http://{{ host }}:{{ cli }}/x\" }\n")
        scratch.write("requests/c.yaml", "request: { url: \"http://{{ ip }}/x\" }\n")
        scratch.write("requests/d.yaml", "request: { url: \"http://{{ pw }}/x\" }\n")
        scratch.write("requests/e.yaml", "request: { url: \"http://{{ good }}:1/x\" }\n")
        scratch.write("requests/g.yaml", "request: { url: \"http://{{ ip }}/{{ $uuid }}\" }\n")
        scratch.write("requests/f.yaml", """
            steps:
              - name: one
                request: { url: "http://127.0.0.1:1/" }
                capture: { hv: { header: X-Host } }
              - name: two
                request: { url: "http://[{{ hv }}]/" }
              - name: three
                each: "{{ list }}"
                request: { url: "http://{{ item }}{{ ip }}/" }

            """)
        let collection = await scratch.readCollection(["requests"], env: "local", vars: [("cli", "8080")])
        #expect(problems(of: collection) == [
            "requests/a.yaml:1:17: error: the URL 'http://[zz]/': its host is not an IPv6 address, which is what brackets hold (such as [::1])",
            "requests/b.yaml:1:17: error: the URL 'http://a..b:8080/x': its host has an empty label (two dots in a row, or a dot first): write a name such as api.example.com",
            "requests/c.yaml:1:17: error: the URL 'http://1.2.3.256/x': its host ends in a number, so it is an IPv4 address, and '1.2.3.256' is none: write four numbers from 0 to 255 (such as 127.0.0.1)",
            "requests/d.yaml:1:17: error: the URL 'http://{{ pw }}/x': its host has an empty label (two dots in a row, or a dot first): write a name such as api.example.com",
        ])
    }

    /// An environment variable using one defined below it says so, where it is (in a base of `extends` too).
    @Test func anEnvironmentVariableUsingOneBelowItSaysWhereThatOneIs() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/base.yaml", "variables:\n  early: \"{{ late }}\"\n")
        scratch.write("environments/local.yaml", "extends: base\nbaseURL: http://localhost\nvariables:\n  x: \"{{ y }}\"\n  y: 1\n  late: 2\n")
        scratch.write("requests/a.yaml", "request:\n  url: /users\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "local")) == [
            "environments/base.yaml:2:11: error: undefined variable 'late' [help: 'late' is defined in environments/local.yaml:6, which extends this file: a base's variables come before the extending file's; give 'late' a value here, above it, which environments/local.yaml then replaces]",
            "environments/local.yaml:4:7: error: undefined variable 'y' [help: 'y' is defined below it (line 5): a variable may use only the variables above it; move 'y' up]",
        ])
    }

    /// Two environment variables that use each other are told so: moving the lower one up would not help.
    @Test func environmentVariablesUsingEachOtherAreToldSo() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/local.yaml", "baseURL: http://localhost\nvariables:\n  a: \"x{{ b }}\"\n  b: \"{{ a }}y\"\n")
        scratch.write("requests/a.yaml", "request:\n  url: /users\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "local")) == [
            "environments/local.yaml:3:8: error: undefined variable 'b' [help: 'b' is defined below it (line 4): a variable may use only the "
                + "variables above it; 'b' uses 'a' too (a cycle): write one of them without the other]",
        ])
        // Through a third, and a variable using itself.
        scratch.write("environments/three.yaml", "baseURL: http://localhost\nvariables:\n  a: \"x{{ b }}\"\n  b: \"{{ c }}\"\n  c: \"{{ a }}y\"\n  d: \"{{ d }}\"\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "three")) == [
            "environments/three.yaml:3:8: error: undefined variable 'b' [help: 'b' is defined below it (line 4): a variable may use only the "
                + "variables above it; 'b' uses 'a' through 'c' (a cycle: a → b → c → a): write one of them without the others]",
            "environments/three.yaml:4:7: error: undefined variable 'c' [help: 'c' is defined below it (line 5): a variable may use only the "
                + "variables above it; 'c' uses 'b' through 'a' (a cycle: b → c → a → b): write one of them without the others]",
            "environments/three.yaml:6:7: error: undefined variable 'd' [help: a variable cannot use itself: write its value, or use variables defined above it]",
        ])
    }

    @Test func capturesOfEarlierRequestsCountLaterOnesDoNot() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/01-login.yaml", """
            request: { method: POST, url: /login }
            capture: { token: $.token }
            """)
        scratch.write("requests/02-flow.yaml", """
            steps:
              - request: { url: "/me?t={{ token }}&u={{ userId }}" }
                capture: { userId: $.id }
              - request: { url: "/users/{{ userId }}/{{ later }}" }
            """)
        scratch.write("requests/03-later.yaml", "request: { url: /x }\ncapture: { later: { header: X } }\n")
        #expect(problems(of: await scratch.readCollection(["requests"])) == [
            // Undefined where used; the help says which request captures it, too late.
            "requests/02-flow.yaml:2:42: error: undefined variable 'userId' [help: this request captures it from its own response, after it is sent: capture it earlier, or define it in the environment or with --var userId=VALUE]",
            "requests/02-flow.yaml:4:42: error: undefined variable 'later' [help: requests/03-later.yaml captures it, but runs after this request: capture it earlier, or define it in the environment or with --var later=VALUE]",
        ])
    }

    /// A `with:` value reading what the steps of its own use capture: the help says those steps run after it is resolved
    /// (trial helper-200 F5: it spoke of a request capturing from its own response).
    @Test func aWithValueReadingItsUsedStepsCaptureSaysTheyRunAfterIt() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/_f/_two.yaml", """
            steps:
              - request: { url: /a }
                capture: { got: $.c }
              - request: { url: "/b?x={{ x }}" }
            """)
        scratch.write("requests/flow.yaml", "steps:\n  - use: _f/_two.yaml\n    with: { x: \"{{ got }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"])) == [
            "requests/flow.yaml:3:17: error: undefined variable 'got' [help: a step this use brings in captures it, after the with: values are resolved for the first one: capture it earlier, or define it in the environment or with --var got=VALUE]",
        ])
    }

    /// Files are decoded a batch at a time on every core, and checked in run order as batches complete: across
    /// many batches, each file sees exactly the captures of the files before it.
    @Test func capturesAreCheckedInRunOrderAcrossDecodingBatches() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let count = 300
        // Spread over directories and arguments, so that batches are decoded while later files are still found.
        let path = { (index: Int) in String(format: "requests/%d/%03d.yaml", index / 70, index) }
        for index in 0..<count {
            let uses = index == 0 ? "/first" : "/next/{{ value\(index - 1) }}"
            // File 200 also uses what file 201 alone captures: too late, so it is undefined there.
            let late = index == 200 ? "?t={{ token }}" : ""
            let token = index == 201 ? ", token: $.t" : ""
            scratch.write(path(index), "request: { url: \"\(uses)\(late)\" }\ncapture: { value\(index): $.v\(token) }\n")
        }
        let loaded = await scratch.readCollection(["requests/0", "requests/1", "requests/2", "requests/3", "requests/4"])
        #expect(loaded.files.map(\.path) == (0..<count).map(path))
        #expect(problems(of: loaded) == [
            "requests/2/200.yaml:1:41: error: undefined variable 'token' [help: requests/2/201.yaml captures it, but runs after this request: capture it earlier, or define it in the environment or with --var token=VALUE]",
        ])
    }

    @Test func environmentTemplatesAreCheckedWhereUsed() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\nauth: { bearer: \"{{ token }}\" }\n")
        scratch.write("requests/01-login.yaml", "request: { url: /login }\nauth: none\ncapture: { token: $.token }\n")
        scratch.write("requests/02-me.yaml", "request: { url: /me }\n")
        #expect(await scratch.readCollection(["requests"], env: "qa").diagnostics.isEmpty)
        scratch.write("requests/00-first.yaml", "request: { url: /first }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "environments/qa.yaml:2:18: error: undefined variable 'token' [help: requests/01-login.yaml captures it, but runs after requests/00-first.yaml: capture it earlier, or define it in the environment or with --var token=VALUE]",
        ])
        // The first request using it captures it: named too, as the place shown is the environment's.
        try? FileManager.default.removeItem(atPath: scratch.root + "/requests/00-first.yaml")
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\nheaders: { X-Token: \"{{ token }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "environments/qa.yaml:2:22: error: undefined variable 'token' [help: the first request using it, requests/01-login.yaml, captures it from its own response, after it is sent: capture it earlier, or define it in the environment or with --var token=VALUE]",
        ])
    }

    @Test func clientCertificatePasswordsAreCheckedLikeOtherTemplates() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/qa.yaml", "baseURL: http://localhost\noptions:\n  clientCert: { cert: c.pem, key: k.pem, password: \"{{ envPw }}\" }\n")
        scratch.write("requests/01-own.yaml", "request: { url: /a }\ncapture: { envPw: $.p }\noptions:\n  clientCert: { cert: c.pem, key: k.pem, password: \"{{ pw }}\" }\n")
        scratch.write("requests/02-environment.yaml", "request: { url: /b }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")) == [
            "requests/01-own.yaml:4:53: error: undefined variable 'pw' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var pw=VALUE]",
        ])
        scratch.write("requests/00-first.yaml", "request: { url: /first }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "qa")).first
            == "environments/qa.yaml:3:53: error: undefined variable 'envPw' [help: requests/01-own.yaml captures it, but runs after requests/00-first.yaml: capture it earlier, or define it in the environment or with --var envPw=VALUE]")
    }

    /// A missing file whose name differs by a single typo or in case from a file beside it is told that file's name
    /// (as it would be written); the path looked for is said only when it is not the one written.
    @Test func aMissingFileNamesTheFileBesideItThatIsATypoAway() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("_login.yaml", "request: { url: /login }\n")
        scratch.write("rows.csv", "id\n1\n")
        scratch.write("fixtures/Photo.png", "png")
        scratch.write("a.yaml", "steps:\n  - use: _login.yml\n")
        scratch.write("b.yaml", "request: { url: /b }\neach: rows.cvs\n")
        scratch.write("c.yaml", "request: { url: /c, file: fixture/photo.png }\n")
        scratch.write("d.yaml", "request: { url: /d, file: fixtures/other.png }\n")
        #expect(problems(of: await scratch.readCollection(["a.yaml", "b.yaml", "c.yaml", "d.yaml"])) == [
            "a.yaml:2:10: error: used file '_login.yml' does not exist [help: did you mean '_login.yaml'? (paths are relative to the file that uses them)]",
            "b.yaml:2:7: error: each: file 'rows.cvs' does not exist [help: did you mean 'rows.csv'? (paths are relative to the request file)]",
            "c.yaml:1:27: error: file 'fixture/photo.png' does not exist [help: did you mean 'fixtures/Photo.png'? (paths are relative to the request file)]",
            "d.yaml:1:27: error: file 'fixtures/other.png' does not exist [help: paths are relative to the request file]",
        ])
        // A used file that is missing is said at each use of it, in every file; `./` is the path written.
        scratch.write("e.yaml", "steps:\n  - use: ./_gone.yaml\n  - use: _gone.yaml\n")
        scratch.write("f.yaml", "steps:\n  - use: _gone.yaml\n")
        #expect(problems(of: await scratch.readCollection(["e.yaml", "f.yaml"])) == [
            "e.yaml:2:10: error: used file './_gone.yaml' does not exist [help: paths are relative to the file that uses them]",
            "e.yaml:3:10: error: used file '_gone.yaml' does not exist [help: paths are relative to the file that uses them]",
            "f.yaml:2:10: error: used file '_gone.yaml' does not exist [help: paths are relative to the file that uses them]",
        ])
        // A directory named without the `/`: a file inside it is what to name (trial helper-175).
        scratch.write("steps/_a.yaml", "request: { url: /a }\n")
        scratch.write("i.yaml", "steps:\n  - use: steps\n")
        #expect(problems(of: await scratch.readCollection(["i.yaml"]))
                == ["i.yaml:2:10: error: used file 'steps' is a directory [help: name a file inside it, such as 'steps/_steps.yaml']"])
        // A path ending in `/` names a directory, even where the path without it is a file.
        scratch.write("g.yaml", "steps:\n  - use: _login.yaml/\n")
        scratch.write("h.yaml", "request: { url: \"/h/{{ id }}\", file: fixtures/Photo.png/ }\neach: \"\"\n")
        #expect(problems(of: await scratch.readCollection(["g.yaml", "h.yaml"])) == [
            "g.yaml:2:10: error: 'use' is '_login.yaml/', which ends with '/': expected a file path, not a directory [help: name a file: '_login.yaml' if that is one, or a file inside that directory]",
            "h.yaml:1:38: error: 'request.file' is 'fixtures/Photo.png/', which ends with '/': expected a file path, not a directory [help: name a file: 'fixtures/Photo.png' if that is one, or a file inside that directory]",
            "h.yaml:2:7: error: 'each' is empty: expected a file path",
        ])
    }

    @Test func referencedFilesMustExistAndSchemasBeJSON() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/fixtures/a.png", "png")
        scratch.write("requests/schemas/bad.json", "{ nope")
        scratch.write("requests/up.yaml", """
            request:
              url: /upload
              multipart:
                - { name: a, file: fixtures/a.png }
                - { name: b, file: fixtures/missing.png }
                - { name: "{{ c", file: fixtures/gone.png }
                - { name: "{{ d", value: "{{ undefinedValue }}" }
                - { name: "{{ undefinedName }}", value: "{{ e" }
            expect: { schema: schemas/bad.json }
            """)
        scratch.write("requests/raw.yaml", "request: { url: /raw, file: fixtures }\nexpect: { schema: schemas/none.json }\n")
        #expect(problems(of: await scratch.readCollection(["requests"])) == [
            "requests/raw.yaml:1:29: error: file 'fixtures' is a directory (looked for 'requests/fixtures') [help: paths are relative to the request file]",
            "requests/raw.yaml:2:19: error: file 'schemas/none.json' does not exist (looked for 'requests/schemas/none.json') [help: paths are relative to the request file]",
            "requests/up.yaml:5:24: error: file 'fixtures/missing.png' does not exist (looked for 'requests/fixtures/missing.png') [help: paths are relative to the request file]",
            // A broken name or value does not hide the other's problems.
            "requests/up.yaml:6:16: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
            "requests/up.yaml:6:29: error: file 'fixtures/gone.png' does not exist (looked for 'requests/fixtures/gone.png') [help: paths are relative to the request file]",
            "requests/up.yaml:7:16: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
            "requests/up.yaml:7:31: error: undefined variable 'undefinedValue' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var undefinedValue=VALUE]",
            "requests/up.yaml:8:16: error: undefined variable 'undefinedName' [help: define it in the environment's 'variables', capture it in an earlier request, or pass --var undefinedName=VALUE]",
            "requests/up.yaml:8:46: error: unterminated '{{' (missing '}}') [help: close the expression with '}}']",
            "requests/up.yaml:9:19: error: schema 'schemas/bad.json' is not valid JSON: expected a string key in object, found 'n'",
        ])
    }

    @Test func schemasMustCompileAndProblemsAreLocatedInTheSchemaFiles() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/schemas/user.json", ##"{"properties": {"id": {"$ref": "common/id.json"}}}"##)
        scratch.write("requests/schemas/common/id.json", "{\n  \"type\": \"integr\"\n}\n")
        scratch.write("requests/schemas/bad-draft.json", ##"{"$schema": "http://json-schema.org/draft-04/schema#"}"##)
        scratch.write("requests/a.yaml", "request: { url: /a }\nexpect: { schema: schemas/user.json }\n")
        scratch.write("requests/b.yaml", "request: { url: /b }\nexpect: { schema: schemas/user.json }\n")
        scratch.write("requests/c.yaml", "request: { url: /c }\nexpect: { schema: schemas/bad-draft.json }\n")
        // The same file by another path (trial helper-166: an environment's `../api.yaml` beside a request's).
        scratch.write("requests/d/d.yaml", "request: { url: /d }\nexpect: { schema: ../schemas/user.json }\n")
        let diagnostics = await scratch.readCollection(["requests"]).diagnostics
        #expect(diagnostics.map(\.description) == [
            #"requests/a.yaml:2:19: error: schema 'schemas/user.json' is invalid: unknown type "integr"; expected one of null, boolean, integer, number, string, array, object"#,
            // Listed once: a later request naming the file says where (trial helper-163: 18 copies of a document's problems).
            "requests/b.yaml:2:19: error: schema 'schemas/user.json' cannot be used: its problems are listed at requests/a.yaml:2:19",
            "requests/c.yaml:2:19: error: schema 'schemas/bad-draft.json' is invalid: unknown $schema 'http://json-schema.org/draft-04/schema#'; "
                + "supported: https://json-schema.org/draft/2020-12/schema, http://json-schema.org/draft-07/schema#",
            "requests/d/d.yaml:2:19: error: schema '../schemas/user.json' cannot be used: its problems are listed at requests/a.yaml:2:19",
        ])
        #expect(diagnostics.map(\.notes) == [
            ["at requests/schemas/common/id.json:2:11 (#/type)"],
            [],
            ["at requests/schemas/bad-draft.json:1:13 (#/$schema)"],
            [],
        ])
    }

    @Test func envBuiltinNeedsTheProcessVariable() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("r.yaml", "request: { url: \"/{{ $env.API_KEY }}\" }\n")
        #expect(problems(of: await scratch.readCollection(["r.yaml"])) == [
            "r.yaml:1:19: error: environment variable 'API_KEY' is not set (used as '$env.API_KEY')",
        ])
        #expect(await scratch.readCollection(["r.yaml"], processEnvironment: ["API_KEY": "k"]).diagnostics.isEmpty)
    }

    /// A process variable whose value is not UTF-8 text is not read with its bytes replaced: a secret from it (even one with
    /// a default) and `$env.NAME` are errors naming it.
    @Test func aProcessVariableThatIsNotUTF8IsAnErrorWhereUsed() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "secrets:\n  pw: { env: T9_PW, default: fallback }\n")
        scratch.write("requests/a.yaml", "request: { url: \"http://127.0.0.1:1/{{ $env.T9_HOME }}\", headers: { X-P: \"{{ pw }}\" } }\n")
        let environment = ProcessEnvironment(["OTHER": "x"], notUTF8: ["T9_PW", "T9_HOME"])
        let words = "is not UTF-8 text (runner reads values as UTF-8: one with its bytes replaced would send another value)"
        #expect(problems(of: await scratch.readCollection(["requests"], env: "e", processEnvironment: environment)) == [
            "environments/e.yaml:2:14: error: secret 'pw': environment variable T9_PW \(words) [help: set T9_PW to UTF-8 text]",
            "requests/a.yaml:1:37: error: environment variable 'T9_HOME' (used as '$env.T9_HOME') \(words) [help: set T9_HOME to UTF-8 text]",
        ])
    }

    /// An environment whose values have errors (an unset secret, a variable that does not resolve, a baseURL over it)
    /// still checks the requests: their own problems are reported at once, and what uses the unresolved names is not.
    @Test func anEnvironmentWithErrorsStillChecksTheRequests() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/e.yaml", "baseURL: \"http://{{ host }}\"\nsecrets:\n  pw: { env: T9_PW }\nvariables:\n  host: \"{{ nohost }}\"\n  key: \"k={{ pw }}\"\n")
        scratch.write("requests/a.yaml", "request: { url: \"/x/{{ $env.T9_HOME }}\", headers: { X-P: \"{{ pw }}\", X-H: \"{{ host }}\" } }\n")
        #expect(problems(of: await scratch.readCollection(["requests"], env: "e")) == [
            "environments/e.yaml:3:14: error: secret 'pw': environment variable T9_PW is not set [help: set T9_PW in the environment, give the secret a 'default', or pass --var pw=VALUE]",
            // No capture can give it (trial helper-160: the help said to capture it in an earlier request).
            "environments/e.yaml:5:10: error: undefined variable 'nohost' [help: define it above in 'variables', or pass --var nohost=VALUE: "
                + "an environment's variables are resolved when it loads, before any request captures; its headers and auth, resolved "
                + "for each request, may use a capture]",
            "requests/a.yaml:1:21: error: environment variable 'T9_HOME' is not set (used as '$env.T9_HOME')",
        ])
    }

    @Test func allProblemsOfARunAreReportedAndRendered() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("requests/users/create.yaml", "request:\n  method: GET\n  url: /users\n  heders:\n    A: b\n")
        scratch.write("requests/bad.yaml", "request: [\n")
        scratch.write("requests/empty.yaml", "")
        let collection = await scratch.readCollection(["requests"], vars: [("bad name", "x")])
        #expect(collection.diagnostics.count == 4)
        let rendered = DiagnosticRenderer.render(collection.diagnostics, sources: collection.sources, color: false)
        #expect(rendered.hasSuffix("""
            requests/users/create.yaml:4:3: error: unknown key 'heders' in 'request'
             4 |   heders:
               |   ^
               = help: did you mean 'headers'?

            """))
        #expect(rendered.hasPrefix("error: invalid variable name 'bad name' in --var\n"))
        #expect(collection.files.map(\.path) == ["requests/empty.yaml", "requests/users/create.yaml"])
    }
}

@Suite struct BaseURLTests {
    @Test func aRelativeURLNeedsABaseURLFromTheSelectedEnvironment() async {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("environments/bare.yaml", "variables: { a: 1 }\n")
        scratch.write("environments/full.yaml", "baseURL: http://127.0.0.1:1/api\n")
        scratch.write("requests/a.yaml", "request: { url: /users }\n")
        scratch.write("requests/b.yaml", "request: { url: \"{{ $env.BASE }}/users\" }\n")
        scratch.write("requests/c.yaml", "request: { url: http://127.0.0.1:1/x }\n")
        let bare = await scratch.readCollection(["requests"], env: "bare", processEnvironment: ["BASE": "http://h"])
        #expect(problems(of: bare) == [
            "requests/a.yaml:1:17: error: the relative URL '/users' needs a baseURL, but environment 'bare' has no baseURL"
                + " [help: set baseURL in the environment, or write an absolute http(s) URL]",
        ])
        #expect(await scratch.readCollection(["requests"], env: "full", processEnvironment: ["BASE": "http://h"]).diagnostics.isEmpty)
        // Without --env, validate cannot know the baseURL to come; a run must have one.
        #expect(await scratch.readCollection(["requests"], processEnvironment: ["BASE": "http://h"]).diagnostics.isEmpty)
        let run = await scratch.readCollection(["requests"], processEnvironment: ["BASE": "http://h"], forSending: true)
        #expect(problems(of: run) == [
            "requests/a.yaml:1:17: error: the relative URL '/users' needs a baseURL, but no environment is selected"
                + " [help: pass --env NAME, or write an absolute http(s) URL]",
        ])
    }
}

/// The files discovery finds under the paths, in the order found, and its problems.
func discover(_ paths: [String], currentDirectory: String, skipping: String?) -> ([DiscoveredFile], [Diagnostic]) {
    var files: [DiscoveredFile] = []
    let problems = Discovery.requestFiles(paths, currentDirectory: currentDirectory, skipping: skipping) { files.append($0) }
    return (files, problems)
}

@Suite struct ShownPathTests {
    /// A referenced file is shown with the `../` it starts with taken away against its file's directory, as far as it
    /// names components.
    @Test(arguments: [
        ("t2/environments", "../../badpat.yaml", "badpat.yaml"), ("t2/environments", "../api.yaml", "t2/api.yaml"),
        ("environments", "../../api.yaml", "../api.yaml"), ("", "../api.yaml", "../api.yaml"), ("/srv/c", "../a.yaml", "/srv/a.yaml"),
        ("requests", "./body.json", "requests/body.json"), ("../x", "../a.yaml", "../a.yaml"), ("requests", "a/../b.json", "requests/a/../b.json"),
    ])
    func aReferencedFileIsShownWithoutStepsOutOfItsDirectory(directory: String, written: String, shown: String) {
        #expect(PathText.shown(directory, written) == shown)
    }
}
