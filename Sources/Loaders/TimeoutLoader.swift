public import HTTPCore

/// Ends a request after `options.timeout` with a `timedOut` error.
///
/// Sets the request's absolute `deadline` (the earlier of an existing one and now + timeout), which the
/// transport hands to AsyncHTTPClient: no timer task per request. Placed inside the retry loader, the limit
/// applies per attempt (redirect hops and a token fetch included), so a timed-out attempt can be retried
/// with a fresh deadline. Whatever fails once the deadline has passed is reported as the timeout of the request that
/// was under way: the request, a redirect hop of it, or the OAuth2 token request sent for it, with how far it had come when
/// the transport says so (not connected, sent without answer, its body incomplete).
public struct TimeoutLoader: HTTPLoader {
    public let next: any HTTPLoader

    public init(next: any HTTPLoader) { self.next = next }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let timeout = request.options.timeout else { return try await next.load(request) }
        let limit = ContinuousClock.now + timeout
        let deadline = request.deadline.map { min($0, limit) } ?? limit
        request.deadline = deadline
        do {
            return try await next.load(request)
        } catch where (!Task.isCancelled || HTTPClientTransport.finishesExchangeUnderWay) && ContinuousClock.now >= deadline {
            let failed = error.request
            let through = failed.proxy.map { " through the proxy \($0.authority)" } ?? ""
            let phase = (error.underlyingError as? HTTPClientTransport.DeadlinePassed).map { ": " + $0.phase } ?? ""
            // A response that began keeps its status, headers and the body that came.
            var timedOut = HTTPError(.timedOut, request: failed, response: error.response, underlyingError: error,
                                     message: "no complete response from \(failed.displayURL)\(through) within \(timeout.readable)\(phase)")
            timedOut.redirected(from: error.redirectedFrom)
            (timedOut.requestWritten, timedOut.resentAfterConnectionLoss) = (error.requestWritten, error.resentAfterConnectionLoss)
            throw timedOut
        }
    }
}

extension Duration {
    /// A short human form: `250ms`, `5s`, `1.5s`.
    var readable: String {
        // To the microsecond: the sum of the parts is not exact in binary (700ms reads 700.0000000000001).
        let milliseconds = ((Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15) * 1000).rounded() / 1000
        // As written: "0.5ms" (a timeout under 1ms is allowed, and "1ms" would say another limit than the one set).
        if milliseconds < 1000 { return milliseconds == milliseconds.rounded() ? "\(Int(milliseconds))ms" : "\(milliseconds)ms" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}

extension LoaderLayer {
    /// Limits each pass through the rest of the chain to `options.timeout`.
    public static let timeout = LoaderLayer { TimeoutLoader(next: $0) }
}
