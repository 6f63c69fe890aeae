import Foundation
import Testing
import Synchronization
import HTTPCore
import Loaders
import TestSupport

@Suite struct ThrottleTests {
    /// Turns go first come, first served; a turn's start is the one the turn before gave, or now once that passed.
    @Test func turnsGoInOrderAndStartWhereTheTurnBeforeSaid() async throws {
        let schedule = ThrottleSchedule()
        #expect(await schedule.takeTurn())
        let order = Collected<Int>()
        var waiters: [Task<Void, Never>] = []
        for index in 1...2 {
            waiters.append(Task {
                guard await schedule.takeTurn() else { return }
                order.add(index)
                schedule.endTurn(nextFree: .now)
            })
            try await Task.sleep(for: .milliseconds(50))
        }
        let start = ContinuousClock.now
        #expect(schedule.start(now: start) == start)
        schedule.endTurn(nextFree: start.advanced(by: .seconds(1)))
        for waiter in waiters { await waiter.value }
        #expect(order.all == [1, 2])
        #expect(await schedule.takeTurn())
        let later = ContinuousClock.now.advanced(by: .seconds(5))
        schedule.endTurn(nextFree: later)
        #expect(await schedule.takeTurn())
        #expect(schedule.start(now: .now) == later)
        #expect(schedule.start(now: later.advanced(by: .seconds(1))) == later.advanced(by: .seconds(1)))
    }

    /// A request cancelled while it waits for its turn never takes it: the turn goes to the next.
    @Test func aCancelledWaitTakesNoTurn() async throws {
        let schedule = ThrottleSchedule()
        #expect(await schedule.takeTurn())
        let cancelled = Task { await schedule.takeTurn() }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        #expect(await cancelled.value == false)
        let next = Task { await schedule.takeTurn() }
        try await Task.sleep(for: .milliseconds(50))
        schedule.endTurn(nextFree: .now)
        #expect(await next.value)
    }

    /// Requests whose connections are all ready at one moment (a TLS handshake the server answers late) are written an
    /// interval apart: a start is when the request is written, not when it was handed to its connection.
    @Test func requestsReadyTogetherAreWrittenAnIntervalApart() async throws {
        let ready = ContinuousClock.now.advanced(by: .milliseconds(300))
        let written = Collected<ContinuousClock.Instant>()
        let connection = ConnectionReadyAt(ready) { written.add(.now) }
        let loader = ThrottleLoader(next: connection)
        let throttled = HTTPRequestOptions(throttle: ThrottleRate(perSecond: 10))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await loader.load(request(options: throttled)) } }
            try await group.waitForAll()
        }
        let times = written.all.sorted()
        #expect(times.count == 4)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(earlier.duration(to: later) >= .milliseconds(95))
        }
    }

    @Test func loaderWaitsForItsSlotOnlyWhenThrottled() async throws {
        let log = SleepLog()
        let loader = ThrottleLoader(next: ScriptedLoader(), sleeper: log.sleeper)
        let throttled = HTTPRequestOptions(throttle: ThrottleRate(perSecond: 10))
        for _ in 0..<3 { _ = try await loader.load(request(options: throttled)) }
        _ = try await loader.load(request())
        let waits = await log.durations
        #expect(waits.count == 2)
        #expect(waits.allSatisfy { $0 > .milliseconds(50) && $0 <= .milliseconds(200) })
        #expect(waits[1] > waits[0])
    }
}

@Suite struct TimeoutTests {
    @Test func endsASlowRequestWithTimedOut() async {
        let scripted = ScriptedLoader([.delayed(.seconds(10), .response(status: 200))])
        let start = ContinuousClock.now
        let error = await failure(of: TimeoutLoader(next: scripted), request(options: HTTPRequestOptions(timeout: .milliseconds(100))))
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("100ms") == true)
        // Well before the 10 s the request takes; generous for a busy machine.
        #expect(start.duration(to: .now) < .seconds(5))
    }

    @Test func namesATimeoutUnderAMillisecondAsWritten() async {
        let scripted = ScriptedLoader([.delayed(.seconds(10), .response(status: 200))])
        let error = await failure(of: TimeoutLoader(next: scripted), request(options: HTTPRequestOptions(timeout: .microseconds(500))))
        #expect(error?.message.contains("within 0.5ms") == true)
    }

    @Test func passesFastResponsesThrough() async throws {
        let loader = TimeoutLoader(next: ScriptedLoader([.delayed(.milliseconds(10), .response(status: 201))]))
        let response = try await loader.load(request(options: HTTPRequestOptions(timeout: .seconds(5))))
        #expect(response.status == .created)
    }

    @Test func cancellationPropagatesThroughTheChain() async {
        let scripted = ScriptedLoader([.delayed(.seconds(10), .response(status: 200))])
        let loader = chain([.timeout, .retry()], ending: scripted)
        let task = Task { await failure(of: loader, request(options: HTTPRequestOptions(timeout: .seconds(30)))) }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        #expect(await task.value?.code == .cancelled)
    }

    @Test func eachAttemptGetsAFreshDeadline() async throws {
        let scripted = ScriptedLoader([.delayed(.milliseconds(300), .response(status: 200)),
                                       .delayed(.milliseconds(100), .response(status: 201))])
        let loader = chain([.retry(), .timeout], ending: scripted)
        let options = HTTPRequestOptions(timeout: .milliseconds(200), retry: RetryStrategy(attempts: 2, delay: .zero))
        let response = try await loader.load(request(options: options))
        #expect(response.status == .created)
        let deadlines = await scripted.received.compactMap(\.deadline)
        #expect(deadlines.count == 2 && deadlines[1] > deadlines[0])
    }

    @Test func keepsAnEarlierDeadlineAndReportsItsOwnTimeout() async {
        var limited = request(options: HTTPRequestOptions(timeout: .seconds(5)))
        let earlier = ContinuousClock.now + .milliseconds(100)
        limited.deadline = earlier
        let error = await failure(of: TimeoutLoader(next: ScriptedLoader([.delayed(.seconds(10), .response(status: 200))])), limited)
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("within 5s") == true)
        #expect(ContinuousClock.now - earlier < .seconds(5))
    }
}

@Suite struct ScriptedDeadlineTests {
    @Test func aDelayedReplyPastTheDeadlineFailsAtTheDeadline() async {
        var late = request()
        late.deadline = ContinuousClock.now + .milliseconds(100)
        let error = await failure(of: ScriptedLoader([.delayed(.seconds(10), .response(status: 200))]), late)
        #expect(error?.code == .timedOut)
        #expect(ContinuousClock.now >= late.deadline!)
    }
}

@Suite struct RetryTests {
    let strategy = RetryStrategy(attempts: 3, delay: .milliseconds(100))

    @Test func retriesListedStatusesUntilSuccess() async throws {
        let log = SleepLog()
        let scripted = ScriptedLoader([.response(status: 503), .response(status: 502), .response(status: 200)])
        let response = try await RetryLoader(next: scripted, sleeper: log.sleeper)
            .load(request(options: HTTPRequestOptions(retry: strategy)))
        #expect(response.status == .ok)
        #expect(response.attempts == 3)
        #expect(await log.durations == [.milliseconds(100), .milliseconds(100)])
    }

    @Test func stopsAfterTheLastAttempt() async throws {
        let scripted = ScriptedLoader(fallback: .response(status: 503))
        let response = try await RetryLoader(next: scripted, sleeper: SleepLog().sleeper)
            .load(request(options: HTTPRequestOptions(retry: strategy)))
        #expect(response.status == .serviceUnavailable)
        #expect(response.attempts == 3)
        #expect(await scripted.count == 3)
    }

    @Test func doesNotRetryUnlistedStatusesOrErrors() async throws {
        let scripted = ScriptedLoader([.response(status: 404), .failure(.invalidResponse)])
        let loader = RetryLoader(next: scripted, sleeper: SleepLog().sleeper)
        let options = HTTPRequestOptions(retry: strategy)
        #expect(try await loader.load(request(options: options)).status == .notFound)
        #expect(await failure(of: loader, request(options: options))?.code == .invalidResponse)
        #expect(await scripted.count == 2)
    }

    /// An attempt cancelled before anything of it was written (waiting for a throttle slot) is not counted, and the
    /// cancellation keeps the last attempt's answer; so does one cancelled while waiting between attempts (trial
    /// helper-180: two attempts said, one sent, no status).
    @Test func aCancelledAttemptNotSentIsNotCountedAndTheLastAnswerIsKept() async throws {
        let notSent = ScriptedLoader([.response(status: 503), .failure(.cancelled)])
        let error = await failure(of: RetryLoader(next: notSent, sleeper: SleepLog().sleeper), request(options: HTTPRequestOptions(retry: strategy)))
        #expect(error?.code == .cancelled && error?.attempts == 1 && error?.response?.status == .serviceUnavailable, "\(String(describing: error))")
        let waiting = RetryLoader(next: ScriptedLoader([.response(status: 503)]), sleeper: Sleeper { _ in throw CancellationError() })
        let waited = await failure(of: waiting, request(options: HTTPRequestOptions(retry: strategy)))
        #expect(waited?.code == .cancelled && waited?.attempts == 1 && waited?.response?.status == .serviceUnavailable)
    }

    @Test func retriesErrorKindsAndRecordsAttempts() async throws {
        let scripted = ScriptedLoader([.failure(.timedOut), .failure(.cannotConnect), .failure(.timedOut)])
        let error = await failure(of: RetryLoader(next: scripted, sleeper: SleepLog().sleeper),
                                  request(options: HTTPRequestOptions(retry: strategy)))
        #expect(error?.code == .timedOut)
        #expect(error?.attempts == 3)
        let onlyTimeouts = RetryStrategy(attempts: 3, delay: .zero, retryOn: [.timeout])
        let second = ScriptedLoader([.failure(.cannotConnect)])
        #expect(await failure(of: RetryLoader(next: second), request(options: HTTPRequestOptions(retry: onlyTimeouts)))?.attempts == 1)
    }

    @Test func exponentialBackoffWithJitter() async throws {
        let log = SleepLog()
        let scripted = ScriptedLoader([.response(status: 429), .response(status: 429), .response(status: 204)])
        let exponential = RetryStrategy(attempts: 3, delay: .milliseconds(100), backoff: .exponential)
        _ = try await RetryLoader(next: scripted, sleeper: log.sleeper, jitter: { 1 })
            .load(request(options: HTTPRequestOptions(retry: exponential)))
        #expect(await log.durations == [.milliseconds(100), .milliseconds(200)])
    }

    @Test func exponentialBackoffStopsGrowingAtFiveMinutesUnlessTheDelayIsLonger() {
        let growing = RetryStrategy(attempts: 100, delay: .seconds(1), backoff: .exponential)
        #expect(growing.delay(afterAttempt: 9, jitter: 1) == .seconds(256))
        #expect(growing.delay(afterAttempt: 10, jitter: 1) == .seconds(300))
        #expect(growing.delay(afterAttempt: 60, jitter: 1) == .seconds(300))
        let long = RetryStrategy(attempts: 3, delay: .seconds(600), backoff: .exponential)
        #expect(long.delay(afterAttempt: 1, jitter: 1) == .seconds(600))
        #expect(long.delay(afterAttempt: 2, jitter: 1) == .seconds(600))
    }

    @Test func honoursRetryAfter() async throws {
        let log = SleepLog()
        let scripted = ScriptedLoader([.response(status: 429, headers: ["retry-after": "2"]), .response(status: 200)])
        _ = try await RetryLoader(next: scripted, sleeper: log.sleeper).load(request(options: HTTPRequestOptions(retry: strategy)))
        #expect(await log.durations == [.seconds(2)])
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        // Each HTTP-date form RFC 9110 has recipients accept: IMF-fixdate, RFC 850's and asctime (trial helper-153).
        for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryLoader.retryAfter(in: ["Retry-After": date], now: now) == .seconds(10), "\(date)")
        }
        for unusable in ["soon", "-5", "1.5", ""] { #expect(RetryLoader.retryAfter(in: ["Retry-After": unusable]) == nil, "\(unusable)") }
    }

    @Test func aRetryAfterLongerThanFiveMinutesKeepsTheResponseInsteadOfWaiting() async throws {
        let log = SleepLog()
        let scripted = ScriptedLoader([.response(status: 503, headers: ["Retry-After": "301"]), .response(status: 200)])
        let response = try await RetryLoader(next: scripted, sleeper: log.sleeper)
            .load(request(options: HTTPRequestOptions(retry: strategy)))
        #expect(response.status == .serviceUnavailable)
        #expect(response.attempts == 1)
        #expect(await log.durations.isEmpty)
        let patient = ScriptedLoader([.response(status: 503, headers: ["Retry-After": "300"]), .response(status: 200)])
        #expect(try await RetryLoader(next: patient, sleeper: log.sleeper).load(request(options: HTTPRequestOptions(retry: strategy))).status == .ok)
        #expect(await log.durations == [.seconds(300)])
        // Too many digits for an integer is longer still: not retried at once.
        let huge = ScriptedLoader([.response(status: 503, headers: ["Retry-After": "9999999999999999999999"]), .response(status: 200)])
        let kept = try await RetryLoader(next: huge, sleeper: log.sleeper).load(request(options: HTTPRequestOptions(retry: strategy)))
        #expect(kept.status == .serviceUnavailable && kept.notRetried?.contains("asked to wait a century or more") == true, "\(kept.notRetried ?? "")")
        #expect(RetryLoader.retryAfter(in: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"],
                                       now: Date(timeIntervalSince1970: 784_111_767.4)) == .seconds(10))
    }
}

/// A terminal loader whose connection is ready at `ready`: it writes each request then (calling the transport's
/// `writes`, then `written`) or at once when later, and answers 200.
struct ConnectionReadyAt: HTTPLoader {
    let ready: ContinuousClock.Instant
    let written: @Sendable () -> Void

    init(_ ready: ContinuousClock.Instant, written: @escaping @Sendable () -> Void) {
        (self.ready, self.written) = (ready, written)
    }

    func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try? await Task.sleep(until: ready)
        HTTPClientTransport.writes?.headWritten()
        written()
        return HTTPResponse(request: request, status: .ok)
    }
}
