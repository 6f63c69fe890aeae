public import HTTPCore
public import Foundation

/// Retries attempts as `options.retry` says: on listed statuses and error kinds, with backoff, honouring
/// `Retry-After` up to `RetryStrategy.longestWait` (a response asking for more is kept, not retried); the
/// response or error records how many attempts were made.
public struct RetryLoader: HTTPLoader {
    public let next: any HTTPLoader
    let sleeper: Sleeper
    let jitter: @Sendable () -> Double

    /// Creates a retry loader; `jitter` returns a value in 0...1 for exponential backoff.
    public init(next: any HTTPLoader, sleeper: Sleeper = .continuous,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.next = next
        self.sleeper = sleeper
        self.jitter = jitter
    }

    public func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let strategy = request.options.retry, strategy.attempts > 1 else { return try await next.load(request) }
        var attempt = 1
        // An attempt of a `POST` written before it failed may have acted: the answer or error says it went again.
        var retriedAfterWritten = false
        // The answer of the last attempt, which a cancelled wait for the next one keeps.
        var answered: HTTPResponse?
        while true {
            let wait: Duration
            do {
                var response = try await next.load(copy request)
                response.attempts = attempt
                response.retriedAfterWritten = retriedAfterWritten
                answered = response
                guard attempt < strategy.attempts, strategy.shouldRetry(status: response.status) else { return response }
                let asked = Self.retryAfter(in: response.headers)
                // A server asking for a longer wait than a run can give gets its answer kept, not a hang.
                if let asked, asked > RetryStrategy.longestWait {
                    response.notRetried = Self.waitTooLong(asked, not: "retried")
                    return response
                }
                wait = asked ?? strategy.delay(afterAttempt: attempt, jitter: jitter())
            } catch {
                var error = error
                // An attempt cancelled before anything of it was written (waiting for a throttle slot) was not made.
                error.attempts = error.code == .cancelled && !error.requestWritten && attempt > 1 ? attempt - 1 : attempt
                if error.code == .cancelled, error.response == nil, !error.requestWritten { error.response = answered }
                error.retriedAfterWritten = retriedAfterWritten
                guard attempt < strategy.attempts, strategy.shouldRetry(error: error) else { throw error }
                retriedAfterWritten = retriedAfterWritten || error.requestWritten && !request.method.isIdempotent
                // This attempt ended without an answer: a cancelled wait after it keeps none.
                answered = nil
                wait = strategy.delay(afterAttempt: attempt, jitter: jitter())
            }
            do { try await sleeper(wait, for: request) } catch {
                // Cancelled while waiting for the next attempt: the last one's answer, when it had one, and its count.
                var error = error
                (error.attempts, error.response) = (attempt, answered)
                throw error
            }
            attempt += 1
        }
    }

    /// Why an answer is kept, not `done` again: `not retried: the server asked to wait 6 min 40 s (Retry-After), longer
    /// than the 5 min a retry waits at most`.
    public static func waitTooLong(_ asked: Duration, not done: String) -> String {
        let readable = asked >= .seconds(longestAsked) ? "a century or more" : spoken(asked)
        return "not \(done): the server asked to wait \(readable) (Retry-After), longer than the "
            + "\(spoken(RetryStrategy.longestWait)) a retry waits at most"
    }

    /// The wait a `Retry-After` header asks for: delay seconds or an HTTP-date (RFC 9110 section 10.2.3).
    public static func retryAfter(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        // Seconds past any wait a run gives (too many digits for an integer, too) are a century: not waited for.
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .seconds(min(Int64(value) ?? longestAsked, longestAsked))
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        // In whole seconds, as the header's own form gives them.
        return .seconds(min(Int64(max(0, date.timeIntervalSince(now)).rounded(.up)), longestAsked))
    }

    /// A wait in the unit that reads best: seconds under two minutes, then minutes, hours and days (`about` when
    /// rounded): `400s` is `about 7 min`, a date in five years `about 1826 days`.
    static func spoken(_ wait: Duration) -> String {
        let seconds = wait.components.seconds
        guard seconds >= 120 else { return wait.readable }
        // Exact under ten minutes: "about 5 min" would read as the 5 min limit it passes.
        if seconds < 600 { return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s") }
        let (size, unit): (Int64, String) = seconds < 7200 ? (60, "min") : seconds < 172_800 ? (3600, "h") : (86_400, "days")
        let rounded = (seconds + size / 2) / size
        return (seconds % size == 0 ? "" : "about ") + "\(rounded) \(unit)"
    }

    /// The longest wait a `Retry-After` is read as, in seconds (a century).
    static let longestAsked: Int64 = 100 * 365 * 86_400
}

extension LoaderLayer {
    /// Retries as each request's `options.retry` says.
    public static func retry(sleeper: Sleeper = .continuous) -> LoaderLayer {
        LoaderLayer { RetryLoader(next: $0, sleeper: sleeper) }
    }
}
