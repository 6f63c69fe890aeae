public import HTTPCore
public import Foundation

/// One request/response exchange as `--verbose` shows it, with credentials already masked.
public struct TracedExchange: Sendable {
    /// The request as sent (with the header fields the transport adds), credential header values replaced by `***`.
    public var request: HTTPRequest
    /// The encoded request body as text, when it is UTF-8 (secrets masked).
    public var requestBodyText: String?
    /// The encoded request body when it is not UTF-8 text (a file, a multipart body with a binary part): outputs tell its
    /// size and type.
    public var binaryRequestBody: Data?
    /// The response, with credential header values masked and the body masked when it is text.
    public var response: HTTPResponse?
    /// The failure, when there was no response.
    public var error: HTTPError?
    /// Time from handing the request on to the result.
    public var duration: Duration
}

/// Reports every exchange that passes through it to a callback, after masking credentials.
///
/// Values of `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` become `***`; the
/// `redacting` function (the reporter's secret masking) is applied to the URL, every other header value
/// and text bodies. Place it right before the transport to see each hop and attempt.
public struct TraceLoader: HTTPLoader {
    public let next: any HTTPLoader
    let redacting: @Sendable (String) -> String
    let report: @Sendable (TracedExchange) -> Void

    public init(next: any HTTPLoader, redacting: @escaping @Sendable (String) -> String = { $0 },
                report: @escaping @Sendable (TracedExchange) -> Void) {
        self.next = next
        self.redacting = redacting
        self.report = report
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let start = ContinuousClock.now
        do {
            let response = try await next.load(copy request)
            report(traced(request, response: response, error: nil, duration: start.duration(to: .now)))
            return response
        } catch {
            // A tunnel the proxy refused shows as the `CONNECT` written and the proxy's answer.
            let written = error.lastWritten.method == .connect ? error.lastWritten : request
            report(traced(written, response: error.response, error: error, duration: start.duration(to: .now)))
            throw error
        }
    }

    private func traced(_ request: HTTPRequest, response: HTTPResponse?, error: HTTPError?, duration: Duration) -> TracedExchange {
        let body = request.body.isEmpty ? nil : try? request.body.encode()
        var shownRequest = request
        shownRequest.headers = masked(request.headersAsSent(bodyLength: body?.count ?? 0))
        if request.method != .connect, let url = request.components.string, let redactedURL = URLComponents(string: redacting(url)) {
            shownRequest.components = redactedURL
        }
        let bodyText = body.flatMap { String(data: $0, encoding: .utf8) }
        var shownResponse = response
        if let response {
            shownResponse?.request = shownRequest
            shownResponse?.headers = masked(response.headers)
            if let text = String(data: response.shownBody, encoding: .utf8) { shownResponse?.body = Data(redacting(text).utf8) }
        }
        var shownError = error
        shownError?.request = shownRequest
        shownError?.response = shownResponse
        shownError?.message = error.map { redacting($0.message) } ?? ""
        return TracedExchange(request: shownRequest, requestBodyText: bodyText.map(redacting), binaryRequestBody: bodyText == nil ? body : nil,
                              response: shownResponse, error: shownError, duration: duration)
    }

    private func masked(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            let secret = HTTPHeaders.isCredential(field.name)
            return (field.name, secret ? "***" : redacting(field.value))
        })
    }
}

extension LoaderLayer {
    /// Reports each exchange to `report`, credentials masked and `redacting` applied.
    public static func trace(redacting: @escaping @Sendable (String) -> String = { $0 },
                             report: @escaping @Sendable (TracedExchange) -> Void) -> LoaderLayer {
        LoaderLayer { TraceLoader(next: $0, redacting: redacting, report: report) }
    }
}
