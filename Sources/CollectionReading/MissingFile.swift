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
    /// beside it counts too when `directories`.
    static func didYouMean(_ absolutePath: String, written: String, directories: Bool = false) -> String? {
        let slash = absolutePath.lastIndex(of: "/")
        let directory = slash.map { String(absolutePath[..<$0]) } ?? "."
        let name = slash.map { String(absolutePath[absolutePath.index(after: $0)...]) } ?? absolutePath
        guard !name.isEmpty, let entries = FileSystem.visibleEntries(of: directory.isEmpty ? "/" : directory) else { return nil }
        let files = entries.compactMap { entry -> String? in
            switch entry.kind {
            case .file: entry.name
            case .statted(let status): status?.isRegular == true || directories && status?.isDirectory == true ? entry.name : nil
            case .nameNotUTF8: nil
            }
        }
        // The name in another case (`Users.yaml`) first, which a file system that ignores case would have opened.
        guard let near = files.first(where: { $0.lowercased() == name.lowercased() }) ?? Suggestions.oneTypoAway(from: name, among: files)
        else { return nil }
        let writtenDirectory = written.lastIndex(of: "/").map { String(written[...$0]) } ?? ""
        return "did you mean '\(writtenDirectory + near)'?"
    }

    /// The help for a missing file: `didYouMean` before `otherwise`.
    func missingHelp(_ otherwise: String) -> String {
        didYouMean.map { "\($0) (\(otherwise))" } ?? otherwise
    }
}
