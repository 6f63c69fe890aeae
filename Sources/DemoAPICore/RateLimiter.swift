internal import NIOConcurrencyHelpers

/// Admits at most a number of requests per client within any one-second window.
final class RateLimiter: Sendable {
    private let limit: Int
    private let admitted = NIOLockedValueBox([String: [ContinuousClock.Instant]]())

    /// A limiter admitting `limit` requests per second per client.
    init(perSecond limit: Int) {
        self.limit = limit
    }

    /// Whether `client` may send a request now; an admitted request counts against the window, a refused one not.
    func admit(_ client: String, now: ContinuousClock.Instant = .now) -> Bool {
        admitted.withLockedValue { admitted in
            let recent = (admitted[client] ?? []).filter { now - $0 < .seconds(1) }
            guard recent.count < limit else {
                admitted[client] = recent
                return false
            }
            admitted[client] = recent + [now]
            return true
        }
    }
}
