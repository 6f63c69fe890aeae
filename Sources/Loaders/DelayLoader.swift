public import HTTPCore

/// Waits `options.delay` before handing a request on.
public struct DelayLoader: HTTPLoader {
    public let next: any HTTPLoader
    let sleeper: Sleeper

    public init(next: any HTTPLoader, sleeper: Sleeper = .continuous) {
        self.next = next
        self.sleeper = sleeper
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if let delay = request.options.delay {
            // A throttle slot, when the request has a throttle, is waited for after the delay.
            try await WaitsBeforeSending.wait(delay, sleeper: sleeper, for: request, leftOutOfDuration: false,
                                              lastBeforeSending: request.options.throttle == nil)
        }
        return try await next.load(request)
    }
}

extension LoaderLayer {
    /// Waits each request's `options.delay` before sending.
    public static func delay(sleeper: Sleeper = .continuous) -> LoaderLayer {
        LoaderLayer { DelayLoader(next: $0, sleeper: sleeper) }
    }
}
