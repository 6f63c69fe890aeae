import CollectionFormat
import Foundation
import HTTPCore

/// The few file-system questions the reader asks, on absolute paths.
package enum FileSystem {
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
        /// A regular file: not a directory, FIFO, socket or device.
        var isRegular: Bool
        var identity: FileIdentity

        init(_ info: stat) {
            isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
            isRegular = (info.st_mode & S_IFMT) == S_IFREG
            identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// The device and inode of a file: the same for every path that leads to it.
    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// stat(2) of a path; nil when it does not exist or cannot be stat'ed.
    static func status(of path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(info)
    }

    /// What a directory entry is, as far as finding request files needs to know.
    enum EntryKind {
        /// A regular file, as the directory listing says: not stat'ed (a file reached twice is told by the identity its
        /// reading finds).
        case file
        /// An entry stat'ed (a directory, a link, or one the listing does not type) and what stat(2) says of it
        /// (symbolic links followed); nil for a broken link.
        case statted(Status?)
        /// An entry whose name is not UTF-8, which no path of ours can name again (its name is shown with U+FFFD), and
        /// whether it is a directory (symbolic links followed).
        case nameNotUTF8(isDirectory: Bool)
    }

    /// The visible entries of a directory (names not starting with `.`) in lexical order, with their kinds; nil if the
    /// directory cannot be listed, with `errno` saying why.
    ///
    /// Regular files are known from the listing's entry type; only the other entries are stat'ed, relative to the
    /// directory's descriptor (fstatat), not by their full path.
    static func visibleEntries(of directory: String) -> [(name: String, kind: EntryKind)]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var entries: [(name: String, regular: Bool, notUTF8Directory: Bool?)] = []
        while let entry = readdir(stream) {
            let (name, notUTF8Directory) = withUnsafeBytes(of: entry.pointee.d_name) { bytes -> (String, Bool?) in
                let text = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
                if let name = String(validatingCString: text) { return (name, nil) }
                // Stat'ed by the bytes of its name, which its shown name cannot give back.
                var info = stat()
                return (String(cString: text), fstatat(descriptor, text, &info, 0) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
            }
            if !name.hasPrefix(".") { entries.append((name, entry.pointee.d_type == UInt8(DT_REG), notUTF8Directory)) }
        }
        return entries.sorted { $0.name < $1.name }.map { entry in
            if let isDirectory = entry.notUTF8Directory { return (entry.name, .nameNotUTF8(isDirectory: isDirectory)) }
            if entry.regular { return (entry.name, .file) }
            var info = stat()
            return (entry.name, .statted(fstatat(descriptor, entry.name, &info, 0) == 0 ? Status(info) : nil))
        }
    }

    /// Why the file at `path` cannot be opened, in words: a directory, a symbolic link that leads nowhere
    /// (`brokenLink`), else the system's reason ("no such file or directory", "permission denied").
    package static func unreadableReason(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        let code = descriptor < 0 ? errno : 0
        var info = stat()
        let isDirectory = descriptor >= 0 && fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        if descriptor >= 0 { close(descriptor) }
        if isDirectory { return "it is a directory" }
        if code == ENOENT || code == ELOOP, let link = brokenLink(path) { return "it is " + link }
        guard code != 0 else { return "it could not be read" }
        return SystemErrorText.words(code)
    }

    /// What follows "the file 'PATH' " for a path that leads to no file: "does not exist", or how a symbolic link there
    /// leads nowhere.
    static func missingReason(_ path: String) -> String {
        brokenLink(path).map { "is " + $0 } ?? "does not exist"
    }

    /// How the symbolic link at `path` leads to no file, as what follows "it is": to a target that does not exist (the
    /// end of a chain of links named), or round a loop of links; nil when `path` is no such link.
    static func brokenLink(_ path: String) -> String? {
        var (link, target) = (stat(), stat())
        guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, stat(path, &target) != 0 else { return nil }
        if errno == ELOOP { return "a symbolic link in a loop of links (one leads back to another)" }
        var (current, targets) = (path, [String]())
        while targets.count < 40, let next = try? FileManager.default.destinationOfSymbolicLink(atPath: current) {
            targets.append(next)
            current = next.hasPrefix("/") ? next : (current as NSString).deletingLastPathComponent + "/" + next
        }
        guard let first = targets.first, let last = targets.last else { return "a symbolic link to a file that does not exist" }
        return targets.count == 1 ? "a symbolic link to '\(first)', which does not exist"
            : "a symbolic link to '\(first)', a link whose chain ends at '\(last)', which does not exist"
    }

    /// The bytes of a file, or nil if it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// What `contents(of:limit:)` found.
    enum BoundedContents: Equatable {
        /// At most `limit + 1` bytes (one more than allowed tells a file that grew past the limit).
        case bytes([UInt8])
        /// The file's size (from fstat, or stat when it cannot be opened) is over the limit; nothing was read.
        case tooLarge(size: Int)
    }

    /// The bytes of a file up to `limit`, or its size when it is larger, and which file it is; nil if it cannot be read.
    ///
    /// One open(2), fstat(2) on the descriptor and read(2)s straight into arrays: one path lookup per file
    /// instead of stat plus FileHandle's open, no copy through `Data` and no read buffer besides the result. A
    /// regular file is read up to the size fstat gave (one read for a small file), which is within the limit.
    static func contents(of path: String, limit: Int) -> (contents: BoundedContents, identity: FileIdentity?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            var info = stat()
            guard stat(path, &info) == 0, Int(info.st_size) > limit else { return nil }
            return (.tooLarge(size: Int(info.st_size)), Status(info).identity)
        }
        defer { close(descriptor) }
        var info = stat()
        let statted = fstat(descriptor, &info) == 0
        let identity = statted ? Status(info).identity : nil
        if statted, Int(info.st_size) > limit { return (.tooLarge(size: Int(info.st_size)), identity) }
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
        return (.bytes(bytes), identity)
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

    /// `path` (a command-line argument) made absolute against `directory` as the system reads it: its directory with
    /// links resolved before `..` (`link/..` is the parent of the link's target, as `ls` reads it), and a directory
    /// resolved itself, so that every spelling of a path names the same files and finds the same `environments`
    /// (`clink` and `c/../clink`, a link to `c/requests`, both find `c/environments`). A file keeps its name, as the
    /// files found in a directory do; a path that does not exist is its directory so resolved and its name.
    static func absolute(_ path: String, from directory: String) -> String {
        var joined = path.hasPrefix("/") ? path : PathText.join(directory, path)
        while joined.count > 1, joined.hasSuffix("/") { joined.removeLast() }
        let name = PathText.lastComponent(of: joined)
        guard name != ".", name != "..", let parent = resolved(PathText.directory(of: joined)) else {
            return resolved(joined) ?? URL(fileURLWithPath: joined).standardizedFileURL.path
        }
        let absolute = PathText.join(parent, name)
        return kind(of: absolute).isDirectory ? resolved(absolute) ?? absolute : absolute
    }

    /// `path` with every link, `.` and `..` resolved (realpath(3)); nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path.isEmpty ? "/" : path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
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
