import Foundation

/// The few file-system questions the loader asks, on absolute paths.
enum FileSystem {
    /// Whether a path exists, and whether it is a directory.
    static func kind(of path: String) -> (exists: Bool, isDirectory: Bool) {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        return (exists, isDirectory.boolValue)
    }

    /// What stat(2) says of an existing path (symbolic links followed): whether it is a directory, and
    /// which file it is, so that two paths to one file (links, `..`) count once.
    struct Status: Equatable {
        var isDirectory: Bool
        var identity: FileIdentity

        init(_ info: stat) {
            isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// The device and inode of a file: the same for every path that leads to it.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// stat(2) of a path; nil when it does not exist or cannot be stat'ed.
    static func status(of path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(info)
    }

    /// The visible entries of a directory (names not starting with `.`) in lexical order, each with what
    /// stat(2) says of it (nil for a broken link); nil if the directory cannot be listed.
    ///
    /// One descriptor for the directory: each entry is stat'ed relative to it (fstatat), not by its full path.
    static func visibleEntries(of directory: String) -> [(name: String, status: Status?)]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        let descriptor = dirfd(stream)
        return names.sorted().map { name in
            var info = stat()
            return (name, fstatat(descriptor, name, &info, 0) == 0 ? Status(info) : nil)
        }
    }

    /// The bytes of a file, or nil if it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The size of a file in bytes from stat(2), without opening it; nil if it cannot be stat'ed.
    static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// What `contents(of:limit:)` found.
    enum BoundedContents: Equatable {
        /// At most `limit + 1` bytes (one more than allowed tells a file that grew past the limit).
        case bytes([UInt8])
        /// The file's size (from fstat, or stat when it cannot be opened) is over the limit; nothing was read.
        case tooLarge(size: Int)
    }

    /// The bytes of a file up to `limit`, or its size when it is larger; nil if it cannot be read.
    ///
    /// One open(2), fstat(2) on the descriptor and read(2)s straight into arrays: one path lookup per file
    /// instead of stat plus FileHandle's open, no copy through `Data` and no read buffer besides the result. A
    /// regular file is read up to the size fstat gave (one read for a small file), which is within the limit.
    static func contents(of path: String, limit: Int) -> BoundedContents? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return size(of: path).flatMap { $0 > limit ? .tooLarge(size: $0) : nil }
        }
        defer { close(descriptor) }
        var info = stat()
        let statted = fstat(descriptor, &info) == 0
        if statted, Int(info.st_size) > limit { return .tooLarge(size: Int(info.st_size)) }
        var bytes: [UInt8] = []
        // A regular file: the size fstat gave (plus a byte to notice a file that grew) in one read(2). Anything else,
        // or a file larger than that by now, is read on 4 KiB at a time until its end or one byte past the limit.
        let regular = statted && (info.st_mode & S_IFMT) == S_IFREG
        var wanted = regular ? Int(info.st_size) + 1 : 4096
        while bytes.count <= limit {
            guard let chunk = read(descriptor, upTo: min(wanted, limit + 1 - bytes.count)) else { return nil }
            if chunk.isEmpty { break }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            // A regular file read up to its size has nothing more: no read(2) only to see the end.
            if regular, bytes.count == Int(info.st_size) { break }
            wanted = 4096
        }
        return .bytes(bytes)
    }

    /// One read(2) of at most `count` bytes, straight into a new array (empty at the end of the file); nil on an error.
    private static func read(_ descriptor: Int32, upTo count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var result: Int
            repeat { result = Foundation.read(descriptor, buffer.baseAddress, count) } while result < 0 && errno == EINTR
            failed = result < 0
            initialized = max(result, 0)
        }
        return failed ? nil : bytes
    }

    /// `path` made absolute against `directory`, with `.` and `..` removed.
    static func absolute(_ path: String, from directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : PathText.join(directory, path)
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }

    /// `path` relative to `directory` (with `..` where needed), for display.
    static func relative(_ path: String, to directory: String) -> String {
        let target = path.split(separator: "/").map(String.init)
        let base = directory.split(separator: "/").map(String.init)
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
