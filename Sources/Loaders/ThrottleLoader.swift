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
            do throws(HTTPError) {
                try await WaitsBeforeSending.wait(now.duration(to: slot), sleeper: sleeper, for: request, leftOutOfDuration: true)
            } catch {
                // Not sent (stopped by --bail, cancelled): a request still to come, a cleanup step, takes the slot.
                await schedule.giveBack(slot, now: .now)
                throw error
            }
        }
        return try await next.load(request)
    }
}

/// Hands out start times spaced by the rate's interval; the state behind a throttle.
public actor ThrottleSchedule {
    private var nextFree: ContinuousClock.Instant?
    /// Slots given back by requests that were not sent, earliest first: taken before new ones.
    private var givenBack: [ContinuousClock.Instant] = []

    public init() {}

    /// The earliest free start at or after `now` (a slot given back, or a new one `interval` before the next).
    public func reserveSlot(now: ContinuousClock.Instant, interval: Duration) -> ContinuousClock.Instant {
        givenBack.removeAll { $0 < now }
        if !givenBack.isEmpty { return givenBack.removeFirst() }
        let slot = max(now, nextFree ?? now)
        nextFree = slot.advanced(by: interval)
        return slot
    }

    /// Frees a slot whose request was not sent, when it is still to come.
    public func giveBack(_ slot: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        guard slot > now else { return }
        givenBack.insert(slot, at: givenBack.firstIndex { $0 > slot } ?? givenBack.endIndex)
    }
}

extension LoaderLayer {
    /// Spaces requests that set `options.throttle`; one schedule for everything through this chain.
    public static func throttle(sleeper: Sleeper = .continuous) -> LoaderLayer {
        let schedule = ThrottleSchedule()
        return LoaderLayer { ThrottleLoader(next: $0, schedule: schedule, sleeper: sleeper) }
    }
}
