import CollectionFormat
import Foundation
import Reporting
import Running
import RunnerVersion
import Synchronization
import Dispatch

/// A report `run` can write, named after its flag.
enum ReportFormat: Sendable {
    case junit, json, markdown, tap, html

    /// The flag that asks for the report.
    var flag: String {
        switch self {
        case .junit: "--report-junit"
        case .json: "--report-json"
        case .markdown: "--report-markdown"
        case .tap: "--report-tap"
        case .html: "--report-html"
        }
    }

    /// Whether the report shows each failure's exchange, its bodies: all but Markdown's.
    var showsExchanges: Bool { self != .markdown }

    /// The report of `summary`, redacted by `redactor`.
    func render(_ summary: RunSummary, sources: SourceCache, redactor: Redactor) -> String {
        switch self {
        case .junit: JUnitReport.render(summary, sources: sources, redactor: redactor)
        case .json: JSONReport.render(summary, sources: sources, redactor: redactor)
        case .markdown: MarkdownReport.render(summary, sources: sources, redactor: redactor)
        case .tap: TAPReport.render(summary, sources: sources, redactor: redactor)
        case .html: HTMLReport.render(summary, sources: sources, redactor: redactor, version: RunnerVersion.current)
        }
    }
}

/// `--report-junit`, `--report-json`, `--report-markdown`, `--report-tap` and `--report-html`, written once on every way out: by the
/// run, or, when a second signal ends the process at once, from the outcomes reported so far.
final class ReportFiles: Sendable {
    /// A report asked for on the command line and the file it goes to.
    struct Request: Sendable {
        var format: ReportFormat
        var path: String
    }

    private struct State {
        var sources = SourceCache()
        var redactor = Redactor(secrets: [])
        /// The outcomes printed so far, in run order (kept only when a report is asked for).
        var outcomes: [RequestOutcome] = []
        /// The part this run is and its plan, once known.
        var shard: Shard?
        var plan: PlanRecord?
    }

    private let requests: [Request]
    private let started = ContinuousClock.now
    private let state = Mutex(State())
    /// The status the reports give once their writing has begun, and the paths of those written, complete, so far: read
    /// by a second signal also while the lock is held.
    private let progress = Mutex<(status: Int32?, done: Set<String>)>((nil, []))

    init(_ requests: [Request]) {
        self.requests = requests
    }

    /// The sources that diagnostics point into and the redactor of every output, once they are known.
    func use(sources: SourceCache, redactor: Redactor) {
        state.withLock { state in
            state.sources = sources
            state.redactor = redactor
        }
    }

    /// The part this run is and what it planned, once known, for a report written before the run ends.
    func use(shard: Shard?, plan: PlanRecord?) {
        state.withLock { ($0.shard, $0.plan) = (shard, plan) }
    }

    /// Keeps an outcome for a report written before the run ends.
    func record(_ outcome: RequestOutcome) {
        guard !requests.isEmpty else { return }
        state.withLock { $0.outcomes.append(outcome) }
    }

    /// Writes the reports of `summary`; false (after saying why) when one cannot be written. They are rendered before the
    /// lock is taken: a second signal meanwhile writes its own (see `writeAndExit`) without waiting for them.
    func write(_ summary: RunSummary) -> Bool {
        let (sources, redactor) = state.withLock { ($0.sources, $0.redactor) }
        let texts = Self.render(summary, as: requests, sources: sources, redactor: redactor)
        return state.withLock { state in
            progress.withLock { $0.status = Int32(summary.exitStatus) }
            return write(texts)
        }
    }

    /// Ends the process at once with the status of `signal`, after writing the reports from what ran so far and
    /// `message`; once the run has written its reports, with the status they give instead (the reports and the exit
    /// status agree). Holding the lock until the end keeps the run from writing them at the same time; while the run
    /// writes them (the lock held, a FIFO's reader perhaps slow), it ends as `exitUnwritten` says.
    func writeAndExit(stoppedBy signal: Int32, message: String) -> Never {
        let status = Interruption.status(for: signal)
        _ = state.withLockIfAvailable { state -> Never in
            if let written = progress.withLock({ $0.status }) { _exit(written) }
            Console.error("error: \(message)")
            var summary = RunSummary(outcomes: state.outcomes + RunSummary.notSent([.error(message, path: nil, at: nil)],
                                                                                      status: status.rawValue).outcomes,
                                     duration: ContinuousClock.now - started)
            (summary.stopStatus, summary.shard, summary.plan) = (status.rawValue, state.shard, state.plan)
            _ = write(Self.render(summary, as: requests, sources: state.sources, redactor: state.redactor))
            _exit(status.rawValue)
        }
        exitWhileWriting(stoppedBy: Interruption.name(of: signal), status: status)
    }

    /// Ends the process at once with the run's `status`, once the run has ended and its reports are being rendered or
    /// written, after naming those not written.
    func exitUnwritten(stoppedBy signal: String, status: ExitStatus) -> Never {
        switch state.withLockIfAvailable({ _ in progress.withLock { $0.status == nil } }) {
        case false?: _exit(status.rawValue)
        case true?:
            Self.nameUnwritten(requests, by: signal, while: "rendered")
            _exit(status.rawValue)
        case nil: exitWhileWriting(stoppedBy: signal, status: status)
        }
    }

    /// Ends the process at once while the reports are written, with the status they give (else `status`), after naming
    /// those not written yet: the one being written is left as it was before the run (its temporary file removed).
    private func exitWhileWriting(stoppedBy signal: String, status: ExitStatus) -> Never {
        let flight = ReportFileWriting.stop()
        let (done, written) = progress.withLock { ($0.done.union(flight.renamed), $0.status) }
        // One written in place (a FIFO, a device) is cut short, not left as it was.
        let cut = requests.filter { $0.path == flight.inPlace }
        Self.nameUnwritten(requests.filter { !done.contains($0.path) && $0.path != flight.inPlace }, by: signal, while: "written",
                           cutShort: cut)
        _exit(written ?? status.rawValue)
    }

    /// Says that a second signal left `requests` unwritten (and `cutShort` cut short), while the reports were rendered
    /// or written.
    private static func nameUnwritten(_ requests: [Request], by signal: String, while doing: String, cutShort: [Request] = []) {
        let named = [("not written", requests), ("cut short", cutShort)].filter { !$0.1.isEmpty }
            .map { "\($0.0): " + $0.1.map { "'\($0.path)'" }.joined(separator: ", ") }
        guard !named.isEmpty else { return }
        Console.error("error: stopped at once by a second signal (\(signal)) while the reports were \(doing); " + named.joined(separator: "; "))
    }

    /// Renders the reports side by side (each is independent; they share the thread-safe redactor, and each text it
    /// redacted for one of them).
    private static func render(_ summary: RunSummary, as requests: [Request], sources: SourceCache, redactor: Redactor) -> [String] {
        let redactor = redactor.sharingResults()
        // What every outcome revealed is learnt first; then the longest texts the reports show, each exchange's bodies.
        for outcome in summary.outcomes { redactor.learn(from: outcome) }
        if requests.contains(where: \.format.showsExchanges) {
            redactor.redactAhead(summary.outcomes.compactMap(\.exchange).flatMap { [$0.requestBody, $0.responseBody].compactMap { $0 } })
        }
        let texts = Mutex([String](repeating: "", count: requests.count))
        // The HTML page takes longest: begun first, it leaves the other threads the other reports (begun last, it
        // would run alone after them).
        let order = requests.indices.filter { requests[$0].format == .html } + requests.indices.filter { requests[$0].format != .html }
        DispatchQueue.concurrentPerform(iterations: order.count) { position in
            let index = order[position]
            let text = requests[index].format.render(summary, sources: sources, redactor: redactor)
            texts.withLock { $0[index] = text }
        }
        return texts.withLock { $0 }
    }

    /// Writes the rendered reports in order, each whatever happened to the ones before it; false, having said why for
    /// each, when one cannot be written.
    private func write(_ texts: [String]) -> Bool {
        var written = true
        for (request, text) in zip(requests, texts) {
            if let reason = ReportFileWriting.write(text, to: request.path) {
                // Stopped by a second signal, which names the reports not written itself.
                guard !ReportFileWriting.isStopped else { return false }
                Console.error("error: cannot write the report '\(request.path)': \(reason)")
                written = false
            } else {
                progress.withLock { _ = $0.done.insert(request.path) }
            }
        }
        return written
    }

    /// A system error number in words: "no space left on device".
    private static func reason(_ code: Int32) -> String { InputFile.reason(errno: code) }

    /// What makes a report unusable, in words naming the flag and path: a directory, a path whose directory is missing
    /// or not writable, a file that cannot be written, or two flags naming one file.
    static func problem(_ requests: [Request]) -> String? {
        var files: [(request: Request, file: String)] = []
        // Where the console's output goes (`/dev/stdout` with `> run.log` or `| jq`, the log itself): the report would
        // truncate or mix with it, as `-` would. `/dev/null` takes anything.
        var consoleFiles = [STDOUT_FILENO, STDERR_FILENO].compactMap(FileIdentity.init(writtenBy:))
            .filter { $0 != FileIdentity(ofFileAt: "/dev/null") }
        // `/dev/tty` is the terminal the console writes to when its output goes to one.
        if isatty(STDOUT_FILENO) == 1 || isatty(STDERR_FILENO) == 1, let terminal = FileIdentity(ofFileAt: "/dev/tty") {
            consoleFiles.append(terminal)
        }
        for request in requests {
            if let file = FileIdentity(ofFileAt: request.path), consoleFiles.contains(file) {
                return "\(request.format.flag): cannot write '\(request.path)': it is where the console's output goes; "
                    + "the report would overwrite or mix with that output; give the report a file of its own"
            }
            switch check(request.path) {
            case .failure(let problem): return "\(request.format.flag): cannot write '\(request.path)': \(problem.text)"
            case .success(let file):
                if let earlier = files.first(where: { $0.file == file })?.request {
                    return "\(earlier.format.flag) and \(request.format.flag) name the same file ('\(earlier.path)'"
                        + (earlier.path == request.path ? "" : " and '\(request.path)'") + "); give each report its own file"
                }
                files.append((request, file))
            }
        }
        return nil
    }

    /// A report path that names a file the run reads (`LoadedCollection.filesRead`) or `merge-reports` merges (as
    /// `reader` says), in words; nil when none does.
    static func problem(_ requests: [Request], reading paths: [String], reader: String = "the run reads") -> String? {
        // Only report files that exist can be files read (a new one overwrites nothing): without one, nothing is looked at.
        let reports = requests.compactMap { request in FileIdentity(ofFileAt: request.path).map { (request, $0) } }
        guard !reports.isEmpty else { return nil }
        let identities = Set(reports.map(\.1))
        guard let read = paths.lazy.compactMap(FileIdentity.init(ofFileAt:)).first(where: identities.contains),
              let request = reports.first(where: { $0.1 == read })?.0 else { return nil }
        return "\(request.format.flag): '\(request.path)' is a file \(reader); writing the report would overwrite it; "
            + "give the report a path of its own"
    }

    /// What names an existing file whatever the path to it: its device and inode.
    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path`; nil when there is none.
        init?(ofFileAt path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
        }

        /// The identity of what `descriptor` writes to (a file, a pipe, a terminal); nil for a closed descriptor.
        init?(writtenBy descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
        }
    }

    /// Why a report path cannot be written.
    private struct PathProblem: Error {
        var text: String
    }

    /// The file a report path names (its device and inode when it exists, so that symbolic and hard links to one file
    /// are one file; else its absolute path with symbolic links resolved, a dangling link's target included), or why it
    /// cannot be written.
    private static func check(_ path: String, links: Int = 0) -> Result<String, PathProblem> {
        guard !path.isEmpty else { return .failure(PathProblem(text: "the path is empty")) }
        // As many tools read it, `-` would be standard output, where the console writes: not a file named `-`.
        guard path != "-" else { return .failure(PathProblem(text: "'-' is not standard output here (the console writes there); give the path of a file")) }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            return .failure(PathProblem(text: "it is a directory; give the path of a file"))
        }
        if path.hasSuffix("/") { return .failure(PathProblem(text: "it ends with '/'; give the path of a file")) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard stat(directory, &status) == 0 else {
            return .failure(PathProblem(text: errno == ENOENT ? "its directory '\(directory)' does not exist"
                                                               : "its directory '\(directory)': \(reason(errno))"))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return .failure(PathProblem(text: "'\(directory)' is not a directory")) }
        if let file = FileIdentity(ofFileAt: path) {
            guard access(path, W_OK) == 0 else { return .failure(PathProblem(text: "the file is not writable")) }
            // A device that cannot be opened (`/dev/tty` without a terminal) fails now, not after the run; so does a file
            // whose directory takes no new one (the report goes through one beside it). (A FIFO is not opened: its
            // reader would take that for the end of what it reads.)
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                guard descriptor >= 0 else { return .failure(PathProblem(text: reason(errno))) }
                close(descriptor)
            } else if status.st_mode & S_IFMT == S_IFREG, let problem = ReportFileWriting.problemCreatingFiles(in: directory) {
                return .failure(PathProblem(text: "its directory '\(directory)' takes no new file: \(problem)"))
            }
            return .success("device \(file.device) inode \(file.inode)")
        }
        // A symbolic link to a file still to be written is that file.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        if count > 0 {
            guard links < 8 else { return .failure(PathProblem(text: "too many levels of symbolic links")) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let resolved = target.hasPrefix("/") ? target : directory + "/" + target
            return check(resolved, links: links + 1).mapError { PathProblem(text: "it links to '\(target)': \($0.text)") }
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            return .failure(PathProblem(text: "its directory '\(directory)' is not writable"))
        }
        // Writable as permissions go, yet on a read-only file system or in `/proc`.
        if let problem = ReportFileWriting.problemCreatingFiles(in: directory) {
            return .failure(PathProblem(text: "its directory '\(directory)' takes no new file: \(problem)"))
        }
        guard let resolved = realpath(directory, nil) else { return .failure(PathProblem(text: reason(errno))) }
        defer { free(resolved) }
        return .success(String(cString: resolved) + "/" + name)
    }
}
