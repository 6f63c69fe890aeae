public import HTTPCore

/// Holds requests that set `options.throttle` to a shared rate: one start per interval across all of them.
public struct ThrottleLoader: HTTPLoader {
    public let next: any HTTPLoader
    let schedule: ThrottleSchedule
    let sleeper: Sleeper

    /// Creates a throttle; every request through this loader shares `schedule`.
    public init(next: any HTTPLoader, schedule: ThrottleSchedule = ThrottleSchedule(), sleeper: Sleeper = .continuous) {
        self.next = next
        self.schedule = schedule
        self.sleeper = sleeper
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if let interval = request.options.throttle?.interval {
            let now = ContinuousClock.now
            let slot = await schedule.reserveSlot(now: now, interval: interval)
            // Time spent queueing in the client, left out of the request's duration.
            try await WaitsBeforeSending.wait(now.duration(to: slot), sleeper: sleeper, for: request, leftOutOfDuration: true)
        }
        return try await next.load(request)
    }
}

/// Hands out start times spaced by the rate's interval; the state behind a throttle.
public actor ThrottleSchedule {
    private var nextFree: ContinuousClock.Instant?

    public init() {}

    /// The earliest free start at or after `now`; the slot after it is `interval` later.
    public func reserveSlot(now: ContinuousClock.Instant, interval: Duration) -> ContinuousClock.Instant {
        let slot = max(now, nextFree ?? now)
        nextFree = slot.advanced(by: interval)
        return slot
    }
}

extension LoaderLayer {
    /// Spaces requests that set `options.throttle`; one schedule for everything through this chain.
    public static func throttle(sleeper: Sleeper = .continuous) -> LoaderLayer {
        let schedule = ThrottleSchedule()
        return LoaderLayer { ThrottleLoader(next: $0, schedule: schedule, sleeper: sleeper) }
    }
}
