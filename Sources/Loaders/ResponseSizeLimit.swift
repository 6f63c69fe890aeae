internal import HTTPCore
internal import NIOCore
internal import NIOHTTP1

/// The cap on a response body (`options.maxResponseBytes`, after decompression) and the errors for passing it,
/// for the transport's body collector.
///
/// A class: it is consulted for every part of a response, and a reference costs one retain where a copy of the
/// request it keeps for messages costs one per field.
final class ResponseSizeLimit: Sendable {
    /// The request whose response is read, for messages.
    let request: HTTPRequest
    /// The limit of the request.
    let maxBytes: Int

    init(request: HTTPRequest) {
        self.request = request
        maxBytes = request.options.maxResponseBytes
    }

    /// Fails at once when an uncompressed response that has a body declares a Content-Length above the limit. An answer
    /// to HEAD and a 1xx, 204 or 304 have none, whatever Content-Length says (RFC 9110 sections 6.4.1 and 8.6): it is the
    /// length of the representation they describe.
    func checkDeclaredLength(of head: HTTPResponseHead) throws(HTTPError) {
        let code = head.status.code
        guard request.method != .head, code >= 200, code != 204, code != 304,
              let declared = head.headers.first(name: "Content-Length").flatMap(Int.init), declared > maxBytes,
              head.headers.first(name: "Content-Encoding") == nil
        else { return }
        throw HTTPError(.responseTooLarge, request: request,
                        message: "\(target) declares \(declared) bytes (Content-Length), more than \(limit)\(remedy)")
    }

    /// Fails when `received` bytes plus a part of `partSize` bytes would pass the limit; `encoding` is the response's
    /// `Content-Encoding`, which the bytes counted are decoded from.
    func checkGrowth(received: Int, partSize: Int, encoding: String?) throws(HTTPError) {
        guard received + partSize > maxBytes else { return }
        let decoded = encoding.map { ", once decoded (Content-Encoding: \($0))" } ?? ""
        throw HTTPError(.responseTooLarge, request: request, message: "\(target) is larger than \(limit)\(decoded); reading stopped there\(remedy)")
    }

    private var limit: String { "maxResponseBytes, \(HTTPClientTransport.byteCount(maxBytes))" }
    private var remedy: String { ": a larger options.maxResponseBytes accepts it" }

    private var target: String { "the response from \(request.displayURL)" }
}
