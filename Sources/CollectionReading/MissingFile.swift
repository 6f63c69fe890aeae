import CollectionFormat

/// What a message says of a file a collection names that is not there.
extension FileReference {
    /// ` (looked for 'PATH')` when the path looked for is not the one written (a file in another directory); empty
    /// otherwise, where it would say the path again (`./a.csv` is `a.csv`).
    var lookedFor: String {
        let looked = PathText.normalized(path)
        return looked == PathText.normalized(written) ? "" : " (looked for '\(looked)')"
    }

    /// `did you mean 'PATH'?` for a file beside the one named whose name differs in case or by a single typo
    /// (`_login.yml` for `_login.yaml`, `users.cvs` for `users.csv`), when exactly one does; the path as it would be
    /// written.
    var didYouMean: String? {
        Self.didYouMean(absolutePath, written: written)
    }

    /// `did you mean 'PATH'?` for the missing `absolutePath` (written `written`), as `didYouMean` says it; a directory
    /// beside it counts too when `directories`. A directory on its way that is missing too is corrected alike
    /// (`requsts/users.yaml` for `requests/users.yaml`).
    static func didYouMean(_ absolutePath: String, written: String, directories: Bool = false) -> String? {
        let (directory, name) = split(absolutePath)
        guard !name.isEmpty else { return nil }
        let onTheWay = FileSystem.kind(of: directory.isEmpty ? "/" : directory).isDirectory ? (path: directory, corrected: 0)
            : nearDirectory(directory)
        guard let onTheWay, let near = near(name, in: onTheWay.path, directories: directories) else { return nil }
        // The last parts of the path as written, each corrected one in place of the one written.
        let parts = (onTheWay.path + "/" + near).split(separator: "/", omittingEmptySubsequences: false)
        // A `.` part past the first stands for nothing (`requsts/./users`).
        var writtenParts = written.split(separator: "/", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset == 0 || $0.element != "." }.map(\.element)
        let replaced = onTheWay.corrected + 1
        guard writtenParts.count >= replaced, !writtenParts.suffix(replaced).contains(where: { $0 == "." || $0 == ".." })
        else { return nil }
        writtenParts.replaceSubrange((writtenParts.count - replaced)..., with: parts.suffix(replaced))
        return "did you mean '\(writtenParts.joined(separator: "/"))'?"
    }

    /// The directory and the last part of `path`.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// The missing directory `path` with each missing part of it replaced by the one directory beside it that differs in
    /// case or by a single typo, and how many of its last parts were so replaced; nil when one has no such directory.
    private static func nearDirectory(_ path: String) -> (path: String, corrected: Int)? {
        let (parent, name) = split(path)
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        let onTheWay = FileSystem.kind(of: parent.isEmpty ? "/" : parent).isDirectory ? (path: parent, corrected: 0)
            : nearDirectory(parent)
        guard let onTheWay, let near = near(name, in: onTheWay.path, directories: true, files: false) else { return nil }
        return (onTheWay.path + "/" + near, onTheWay.corrected + 1)
    }

    /// The one entry of `directory` (files, directories when `directories`) whose name is `name` in another case (which a
    /// file system that ignores case would have opened), or else a single typo from it.
    private static func near(_ name: String, in directory: String, directories: Bool, files: Bool = true) -> String? {
        guard let entries = FileSystem.visibleEntries(of: directory.isEmpty ? "/" : directory) else { return nil }
        let names = entries.compactMap { entry -> String? in
            switch entry.kind {
            case .file: files ? entry.name : nil
            case .statted(let status):
                files && status?.isRegular == true || directories && status?.isDirectory == true ? entry.name : nil
            case .nameNotUTF8: nil
            }
        }
        return names.first(where: { $0.lowercased() == name.lowercased() }) ?? Suggestions.oneTypoAway(from: name, among: names)
    }

    /// The help for a missing file: `didYouMean` before `otherwise`.
    func missingHelp(_ otherwise: String) -> String {
        didYouMean.map { "\($0) (\(otherwise))" } ?? otherwise
    }
}
