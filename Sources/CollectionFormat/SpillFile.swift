import Foundation
internal import Synchronization

/// A temporary file holding the parsed documents of the request files a run checked, so that each file is taken up
/// again at its turn from one read of its image instead of reading and parsing its YAML, while memory holds only
/// where each image is.
///
/// The file is removed from its directory as soon as it is created (it goes away with the process, however that
/// ends) and readable by its owner only. Images are appended by the check in run order through a buffer of
/// `bufferSize` bytes and read by any thread with pread(2). A write that fails stops the spilling: the files from
/// then on are read again from their paths, as without a spill file.
public final class SpillFile: Sendable {
    private struct Writing {
        var buffer: [UInt8] = []
        /// The bytes written to the file so far; the buffer's bytes come next.
        var written = 0
        var failed = false
    }

    private let descriptor: Int32
    private let writing = Mutex(Writing())
    private let bufferSize: Int

    private init(descriptor: Int32, bufferSize: Int) {
        self.descriptor = descriptor
        self.bufferSize = bufferSize
    }

    deinit {
        close(descriptor)
    }

    /// A new spill file in `directory` (by default `TMPDIR`, or `/tmp`); nil when none can be created there.
    public static func temporary(in directory: String = NSTemporaryDirectory(), bufferSize: Int = 64 << 10) -> SpillFile? {
        var template = Array(PathText.join(directory, "runner-spill-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return SpillFile(descriptor: descriptor, bufferSize: bufferSize)
    }

    /// Appends the image `write` appends to the bytes it is given (the end of the buffer); nil once writing has failed.
    func append(_ write: (inout [UInt8]) -> Void) -> SpilledFile? {
        writing.withLock { writing -> SpilledFile? in
            guard !writing.failed else { return nil }
            let start = writing.buffer.count
            if writing.buffer.capacity == 0 { writing.buffer.reserveCapacity(2 * bufferSize) }
            write(&writing.buffer)
            let place = SpilledFile(spill: self, offset: writing.written + start, count: writing.buffer.count - start)
            if writing.buffer.count >= bufferSize { flush(&writing) }
            return writing.failed ? nil : place
        }
    }

    /// Calls `body` with the bytes of an image appended earlier (in memory only for the call); nil when they
    /// cannot be read.
    func withImage<Result>(of file: SpilledFile, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        let unwritten = writing.withLock { writing -> Bool in
            if file.offset + file.count > writing.written { flush(&writing) }
            return writing.failed && file.offset + file.count > writing.written
        }
        guard !unwritten, file.count > 0 else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: file.count, alignment: 8) { buffer -> Result? in
            var done = 0
            while done < file.count {
                let result = pread(descriptor, buffer.baseAddress! + done, file.count - done, off_t(file.offset + done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return nil }
                done += result
            }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Writes the buffer to the file; marks the spill failed when a write fails.
    private func flush(_ writing: inout Writing) {
        guard !writing.failed, !writing.buffer.isEmpty else { return }
        let complete = writing.buffer.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let result = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                done += result
            }
            return true
        }
        guard complete else {
            writing.failed = true
            return
        }
        writing.written += writing.buffer.count
        writing.buffer.removeAll(keepingCapacity: true)
    }
}

/// Where a checked file's image is in a spill file.
public struct SpilledFile: Sendable {
    let spill: SpillFile
    let offset: Int
    let count: Int

    /// Calls `body` with the image's bytes; nil when they cannot be read.
    func withImage<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result? { spill.withImage(of: self, body) }
}
