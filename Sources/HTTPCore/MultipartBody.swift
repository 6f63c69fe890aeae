public import Foundation

/// A `multipart/form-data` body of text fields and files.
public struct MultipartBody: HTTPBody {
    /// Where a file part's bytes come from.
    public enum FileContent: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A file on disk, read when the body is encoded.
        case file(URL)
    }

    /// One part of the body.
    public enum Part: Sendable, Hashable {
        /// A text field.
        case field(name: String, value: String)
        /// A file with its name as sent and its content type.
        case file(name: String, filename: String, contentType: String, content: FileContent)
    }

    public var parts: [Part]
    /// The delimiter between parts; must not occur in any part.
    public var boundary: String

    /// Creates a body from parts; the boundary defaults to a random one.
    public init(parts: [Part], boundary: String = "runner-boundary-" + UUID().uuidString) {
        self.parts = parts
        self.boundary = boundary
    }

    public var isEmpty: Bool { false }

    public var additionalHeaders: HTTPHeaders {
        ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
    }

    /// The body bytes; throws when a file part cannot be read.
    public func encode() throws -> Data {
        var data = Data()
        for part in parts {
            data.append(Data("--\(boundary)\r\n".utf8))
            switch part {
            case let .field(name, value):
                data.append(Data("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n".utf8))
                data.append(Data(value.utf8))
            case let .file(name, filename, contentType, content):
                data.append(Data(("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; "
                    + "filename=\"\(Self.quoted(filename))\"\r\nContent-Type: \(contentType)\r\n\r\n").utf8))
                data.append(try Self.bytes(of: content))
            }
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }

    private static func bytes(of content: FileContent) throws -> Data {
        switch content {
        case .data(let data): return data
        case .file(let url):
            do { return try Data(contentsOf: url) } catch {
                throw BodyEncodingError("cannot read file \(url.path) for a multipart body: \(error.localizedDescription)")
            }
        }
    }

    /// Escapes a name for a quoted header parameter: quotes and line breaks become percent escapes.
    public static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
