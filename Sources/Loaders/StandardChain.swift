extension LoaderLayer {
    /// The layers of the runner's chain, outermost first (requests come in absolute: the request builder applies
    /// the environment): User-Agent and request id, delay, retry, throttle, timeout (per attempt), auth, redirects, cookies
    /// (each hop, in the current task's jar), then trace (each hop) when `trace` is given.
    public static func standard(
        userAgent: String? = nil, requestIDHeader: String? = nil,
        tokens: OAuth2TokenStore = OAuth2TokenStore(), trace: LoaderLayer? = nil
    ) -> [LoaderLayer] {
        var layers: [LoaderLayer] = []
        if let userAgent { layers.append(.userAgent(userAgent)) }
        if let requestIDHeader { layers.append(.requestID(header: requestIDHeader)) }
        layers += [.delay(), .retry(), .throttle(), .timeout, .auth(tokens: tokens), .redirects, .cookies]
        if let trace { layers.append(trace) }
        return layers
    }
}
