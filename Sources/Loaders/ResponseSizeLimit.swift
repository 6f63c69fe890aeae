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

    /// Fails at once when an uncompressed response declares a Content-Length above the limit.
    func checkDeclaredLength(of head: HTTPResponseHead) throws(HTTPError) {
        guard let declared = head.headers.first(name: "Content-Length").flatMap(Int.init), declared > maxBytes,
              head.headers.first(name: "Content-Encoding") == nil
        else { return }
        throw HTTPError(.responseTooLarge, request: request,
                        message: "\(target) declares \(declared) bytes (Content-Length), more than the limit of \(HTTPClientTransport.byteCount(maxBytes))")
    }

    /// Fails when `received` bytes plus a part of `partSize` bytes would pass the limit.
    func checkGrowth(received: Int, partSize: Int) throws(HTTPError) {
        guard received + partSize > maxBytes else { return }
        throw HTTPError(.responseTooLarge, request: request,
                        message: "\(target) is larger than the limit of \(HTTPClientTransport.byteCount(maxBytes)); reading stopped there")
    }

    private var target: String { "the response from \(request.displayURL)" }
}
