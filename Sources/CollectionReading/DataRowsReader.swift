import CollectionFormat
import YAML

/// Reads the rows of an `each:` file: a `.csv` file whose first record names the columns, or a `.json`, `.yaml` or
/// `.yml` file holding a list of mappings. Problems inside the file are located there; a missing, empty or
/// unreadable file at the `each:` of the request file.
enum DataRowsReader {
    /// The rows of the file `reference` names (written in the request file at `path`), with every problem found.
    static func rows(_ reference: FileReference, in path: String, sources: SourceCache) -> (rows: DataRows?, problems: [Diagnostic]) {
        let kind = FileSystem.kind(of: reference.absolutePath)
        guard kind.exists, !kind.isDirectory else {
            let problem = kind.isDirectory ? "is a directory" : FileSystem.missingReason(reference.absolutePath)
            let near = kind.exists ? nil : reference.didYouMean.map { "\($0) (paths are relative to the request file)" }
            return (nil, [.error("each: file '\(reference.written)' \(problem)\(reference.lookedFor)", path: path,
                                 at: reference.mark,
                                 suggestion: near ?? (VariablePath.isValidName(reference.written) && !kind.exists
                                     ? "to loop over the list in a variable, write each: \"{{ \(reference.written) }}\""
                                     : DataRowsDecoding.isDataFile(reference.written) ? "paths are relative to the request file"
                                     : "each: takes a .csv, .json or .yaml file (relative to the request file), a list of mappings, "
                                         + "or a template naming a list, such as \"{{ ids }}\""))])
        }
        guard DataRowsDecoding.isDataFile(reference.written) else {
            return (nil, [.error("each: file '\(reference.written)' is not a .csv, .json, .yaml or .yml file", path: path,
                                 at: reference.mark)])
        }
        // Every data file is held to the limit of every file, checked before reading (docs/format.md, Limits).
        let limit = Limits.default.maxInputBytes
        guard let read = FileSystem.contents(of: reference.absolutePath, limit: limit) else {
            return (nil, [.error("cannot read each: file '\(reference.written)'", path: path, at: reference.mark)])
        }
        guard case .bytes(let bytes) = read.contents, bytes.count <= limit else {
            let size = if case .tooLarge(let size) = read.contents { "\(size) bytes" } else { "grown past \(limit) bytes" }
            return (nil, [.error("each: file '\(reference.written)' has \(size), more than the limit of \(limit >> 20) MiB for every file",
                                 path: path, at: reference.mark,
                                 suggestion: "split the rows over several data files, each named by its own request file")])
        }
        return DataRowsDecoding.rows(bytes, of: reference, in: path, sources: sources)
    }
}
