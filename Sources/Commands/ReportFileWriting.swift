import Foundation
import Synchronization

/// Writes a report file whole or not at all. A regular file (or a new one) is written to a temporary file beside it,
/// renamed over it once complete: a crash, a SIGKILL or a second signal never leaves a report cut short, nor replaces the
/// last complete one with part of a new one. A FIFO, a device or a symbolic link is written in place, a FIFO once a
/// process reads it, waiting for one a while (not forever).
enum ReportFileWriting {
    /// The report being written: its temporary file, for a second signal to remove before the process ends, or the path
    /// written in place, which such a signal leaves cut short; `stopped` once that signal came: no temporary file is made
    /// after it (one made while it names what was not written would be left behind).
    /// `renamed`: the reports complete in place, which such a signal does not name as not written.
    static let inFlight = Mutex<(temporary: String?, inPlace: String?, stopped: Bool, renamed: Set<String>)>((nil, nil, false, []))

    /// Stops the writing for a process that ends at once: removes the temporary file being written, and makes no other;
    /// what was being written, and the reports written whole.
    static func stop() -> (temporary: String?, inPlace: String?, renamed: Set<String>) {
        inFlight.withLock { flight in
            flight.stopped = true
            if let temporary = flight.temporary { unlink(temporary) }
            return (flight.temporary, flight.inPlace, flight.renamed)
        }
    }

    /// Whether `stop` was called: a write failing now failed because of it.
    static var isStopped: Bool { inFlight.withLock { $0.stopped } }

    /// Writes `text` to the file at `path`; nil, or why it could not, in words.
    static func write(_ text: String, to path: String) -> String? {
        var link = stat(), target = stat()
        let exists = stat(path, &target) == 0
        if lstat(path, &link) == 0, link.st_mode & S_IFMT != S_IFREG {
            let fifo = exists && target.st_mode & S_IFMT == S_IFIFO
            guard let descriptor = openInPlace(path, fifo: fifo) else { return reason(errno, fifo: fifo) }
            // Named once opened: a FIFO no process has read yet is not written, not cut short.
            inFlight.withLock { $0.inPlace = path }
            defer { inFlight.withLock { $0.inPlace = nil } }
            return writeAll(text, to: descriptor)
        }
        let temporary = temporaryPath(for: path)
        // Made under the lock `stop` takes: a file is made before it (and removed by it) or not at all.
        let descriptor = inFlight.withLock { flight -> Int32 in
            guard !flight.stopped else { errno = ECANCELED; return -1 }
            flight.temporary = temporary
            return open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        defer { inFlight.withLock { $0.temporary = nil } }
        guard descriptor >= 0 else { return reason(errno, fifo: false) }
        // A report written again keeps the permissions its file had.
        if exists { fchmod(descriptor, target.st_mode & 0o7777) }
        if let failure = writeAll(text, to: descriptor) {
            unlink(temporary)
            return failure
        }
        // Renamed under the lock `stop` takes: a report in place is never named as not written.
        let renamed = inFlight.withLock { flight -> Int32? in
            guard rename(temporary, path) == 0 else { return errno }
            flight.renamed.insert(path)
            return nil
        }
        if let code = renamed {
            unlink(temporary)
            return reason(code, fifo: false)
        }
        return nil
    }

    /// Whether a new file can be made in `directory` (a read-only file system, or `/proc`, cannot take one whatever the
    /// permissions say); nil, or why not, in words.
    static func problemCreatingFiles(in directory: String) -> String? {
        let probe = directory + "/.runner-probe-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return reason(errno, fifo: false) }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// How long a FIFO report waits for a process to read it.
    static let readerWait = Duration.seconds(10)

    /// The file at `path` opened for writing where it is; a FIFO once a process reads it, waiting for one up to
    /// `readerWait` (none: nil, `ENXIO`), then written to as any file.
    private static func openInPlace(_ path: String, fifo: Bool) -> Int32? {
        let deadline = ContinuousClock.now + readerWait
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | (fifo ? O_NONBLOCK : 0), 0o644)
            if descriptor >= 0 {
                if fifo { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
                return descriptor
            }
            guard fifo, errno == ENXIO, ContinuousClock.now < deadline else { return nil }
            usleep(50_000)
        }
    }

    /// The temporary file beside `path` its report is written to first: hidden, named after it and this process.
    private static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + ".\(name).runner-\(getpid()).tmp"
    }

    /// Writes all of `text` to `descriptor` and closes it; nil, or why it could not, in words.
    private static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var failure: Int32?
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = errno }
        return failure.map { reason($0, fifo: false) }
    }

    /// A system error number in words ("no space left on device"); for a FIFO without a reader, that.
    private static func reason(_ code: Int32, fifo: Bool) -> String {
        fifo && code == ENXIO ? "no process read that FIFO within \(readerWait.components.seconds) s: start its reader first"
            : InputFile.reason(errno: code)
    }
}
