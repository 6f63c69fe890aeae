public import HTTPCore

extension LoaderLayer {
    /// The layers of the runner's chain, outermost first: the environment (when given, for requests that are
    /// still relative), User-Agent and request id, delay, retry, throttle, timeout (per attempt), auth, redirects, cookies
    /// (each hop, in the current task's jar), then trace (each hop) when `trace` is given.
    public static func standard(
        environment: ServerEnvironment?, userAgent: String? = nil, requestIDHeader: String? = nil,
        tokens: OAuth2TokenStore = OAuth2TokenStore(), trace: LoaderLayer? = nil
    ) -> [LoaderLayer] {
        var layers: [LoaderLayer] = []
        if let environment { layers.append(.applyEnvironment(environment)) }
        if let userAgent { layers.append(.userAgent(userAgent)) }
        if let requestIDHeader { layers.append(.requestID(header: requestIDHeader)) }
        layers += [.delay(), .retry(), .throttle(), .timeout, .auth(tokens: tokens), .redirects, .cookies]
        if let trace { layers.append(trace) }
        return layers
    }
}
