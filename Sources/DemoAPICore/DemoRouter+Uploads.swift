internal import LoopbackHTTP
internal import NIOHTTP1

/// `POST /api/uploads`: multipart or form-urlencoded bodies, described back as fields and files.
extension DemoRouter {
    /// What the server received in an upload.
    private struct UploadSummary: Encodable {
        /// A received file, described without its content.
        struct File: Encodable {
            let name: String
            let filename: String
            let size: Int
            let contentType: String
        }

        let fields: [String: String]
        let files: [File]
    }

    /// `POST /api/uploads` (Basic auth as the demo user): 201 with the fields and files received; any
    /// other non-empty body is described as one file named `body`.
    func upload(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard let credentials = request.basicCredentials,
              credentials.user == settings.username, credentials.password == settings.password
        else {
            return sendError(.unauthorized, "Basic credentials of the demo user are required",
                             headers: [("WWW-Authenticate", "Basic realm=\"demo\"")], writer)
        }
        let contentType = request.header("Content-Type") ?? ""
        if let boundary = MultipartForm.boundary(ofContentType: contentType) {
            guard let parts = MultipartForm.parts(of: request.body, boundary: boundary) else {
                return sendError(.badRequest, "the multipart body is not well-formed", writer)
            }
            sendEncoded(.created, summary(of: parts), writer)
        } else if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            let fields = request.formItems.map { ($0.name, $0.value) }
            sendEncoded(.created, UploadSummary(fields: Dictionary(fields) { first, _ in first }, files: []), writer)
        } else if !request.body.isEmpty {
            let file = UploadSummary.File(name: "body", filename: "", size: request.body.count,
                                          contentType: contentType.isEmpty ? "application/octet-stream" : contentType)
            sendEncoded(.created, UploadSummary(fields: [:], files: [file]), writer)
        } else {
            sendError(.badRequest, "send a body: multipart/form-data, application/x-www-form-urlencoded or raw bytes", writer)
        }
    }

    /// The fields (text parts) and files (parts with a file name) of a multipart body.
    private func summary(of parts: [MultipartPart]) -> UploadSummary {
        var fields: [String: String] = [:]
        var files: [UploadSummary.File] = []
        for part in parts {
            if let filename = part.filename {
                files.append(.init(
                    name: part.name,
                    filename: filename,
                    size: part.body.count,
                    contentType: part.contentType ?? "application/octet-stream"
                ))
            } else if fields[part.name] == nil {
                fields[part.name] = String(decoding: part.body, as: UTF8.self)
            }
        }
        return UploadSummary(fields: fields, files: files)
    }
}
