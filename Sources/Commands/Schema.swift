import CollectionFormat

/// `runner schema`: prints the JSON Schema of request or environment files, for editors (yaml-language-server).
public struct Schema: Sendable {
    /// Which files the schema describes.
    public var kind: FormatSchema.FileKind

    public init(kind: FormatSchema.FileKind = .request) {
        self.kind = kind
    }

    /// Prints the schema to standard output.
    public func execute() -> ExitStatus {
        Console.out(FormatSchema.text(for: kind))
        return .success
    }
}
