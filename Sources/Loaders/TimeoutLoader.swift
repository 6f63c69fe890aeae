public import HTTPCore

/// Ends a request after `options.timeout` with a `timedOut` error by cancelling the rest of the chain.
///
/// Placed inside the retry loader, the limit applies per attempt (redirect hops and a token fetch
/// included), so a timed-out attempt can be retried. Cancellation reaches the transport as task
/// cancellation, which abandons the connection.
public struct TimeoutLoader: HTTPLoader {
    public let next: any HTTPLoader

    public init(next: any HTTPLoader) { self.next = next }

    public func load(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let timeout = request.options.timeout else { return try await next.load(request) }
        let next = self.next
        let outcome = await withTaskGroup(of: Result<HTTPResponse, HTTPError>?.self) { group in
            group.addTask {
                do throws(HTTPError) { return .success(try await next.load(request)) } catch { return .failure(error) }
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .failure(HTTPError(.timedOut, request: request,
                                          message: "no complete response from \(request.displayURL) within \(timeout.readable)"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else { throw HTTPError.cancelled(request) }
        return try outcome.get()
    }
}

extension Duration {
    /// A short human form: `250ms`, `5s`, `1.5s`.
    var readable: String {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded()))ms" }
        let seconds = milliseconds / 1000
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}

extension LoaderLayer {
    /// Limits each pass through the rest of the chain to `options.timeout`.
    public static let timeout = LoaderLayer { TimeoutLoader(next: $0) }
}
