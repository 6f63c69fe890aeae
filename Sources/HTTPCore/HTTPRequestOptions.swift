public import Foundation

/// Typed per-request options that loaders read from the request.
public struct HTTPRequestOptions: Sendable, Hashable {
    /// Limit for one attempt, from sending to the last body byte (redirects and token fetches included);
    /// nil means no limit.
    public var timeout: Duration?
    /// Wait before sending, once per request.
    public var delay: Duration?
    /// Whether redirects are followed.
    public var followRedirects: Bool
    /// How many redirects are followed before failing with `tooManyRedirects`.
    public var maxRedirects: Int
    /// Whether TLS certificate verification is skipped.
    public var insecure: Bool
    /// How failed attempts are retried; nil means one attempt.
    public var retry: RetryStrategy?
    /// A rate shared by every request of the run that sets it.
    public var throttle: ThrottleRate?
    /// How the request authenticates.
    public var auth: AuthMethod
    /// The largest response body accepted, after decompression.
    public var maxResponseBytes: Int
    /// Whether the cookie jar of the request's file sends its cookies and stores the ones the answer sets.
    public var cookies: Bool
    /// PEM bundles of certificates trusted besides the system's for `https://` (absolute paths).
    public var trustedCertificateFiles: [String]
    /// The TLS client certificate presented to `https://` servers that ask for one.
    public var clientCertificate: ClientCertificate?
    /// The proxies the request goes through; nil until the run fills in the process environment's.
    public var proxy: ProxySettings?
    /// The headers whose values hold a secret (`X-Api-Key: "{{ apiKey }}"`): as credential headers, never carried to
    /// another origin by a redirect.
    public var secretHeaders: [String] = []
    /// Whether the body holds a secret or a credential (`password: "{{ password }}"`, a member or field named as a
    /// credential whatever gives it): no redirect sends it again to another origin.
    public var bodyHoldsCredential = false

    /// The default response body cap: 10 MiB.
    public static let defaultMaxResponseBytes = 10 * 1024 * 1024

    /// Creates options; every argument has the documented default.
    public init(
        timeout: Duration? = nil, delay: Duration? = nil, followRedirects: Bool = true, maxRedirects: Int = 10,
        insecure: Bool = false, retry: RetryStrategy? = nil, throttle: ThrottleRate? = nil,
        auth: AuthMethod = .none, maxResponseBytes: Int = HTTPRequestOptions.defaultMaxResponseBytes,
        cookies: Bool = true, trustedCertificateFiles: [String] = []
    ) {
        self.timeout = timeout
        self.delay = delay
        self.followRedirects = followRedirects
        self.maxRedirects = maxRedirects
        self.insecure = insecure
        self.retry = retry
        self.throttle = throttle
        self.auth = auth
        self.maxResponseBytes = maxResponseBytes
        self.cookies = cookies
        self.trustedCertificateFiles = trustedCertificateFiles
    }
}

/// A TLS client certificate: PEM files of the certificate (with any intermediates) and of its key, and the key's
/// password when it is encrypted.
public struct ClientCertificate: Sendable, Hashable {
    public var certificateFile: String
    public var keyFile: String
    public var password: String?

    public init(certificateFile: String, keyFile: String, password: String? = nil) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.password = password
    }
}

/// A request rate: at most `perSecond` requests start each second.
public struct ThrottleRate: Sendable, Hashable {
    public var perSecond: Double

    /// Creates a rate; values at or below zero mean no throttling.
    public init(perSecond: Double) { self.perSecond = perSecond }

    /// The slowest rate: one request a day (a slower one's spacing would pass what a duration holds).
    public static let slowest = 1.0 / 86_400

    /// The spacing between two request starts, nil when the rate does not throttle; at most a day.
    public var interval: Duration? {
        perSecond > 0 ? .nanoseconds(Int64((1_000_000_000 / max(perSecond, Self.slowest)).rounded())) : nil
    }
}

/// How a request authenticates.
public enum AuthMethod: Sendable, Hashable {
    case none
    case basic(username: String, password: String)
    case bearer(token: String)
    case oauth2ClientCredentials(OAuth2ClientCredentials)
}

/// OAuth 2.0 client credentials (RFC 6749 section 4.4): where and how to get an access token.
public struct OAuth2ClientCredentials: Sendable, Hashable {
    public var tokenURL: URL
    public var clientID: String
    public var clientSecret: String
    public var scope: String?

    public init(tokenURL: URL, clientID: String, clientSecret: String, scope: String? = nil) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }
}

/// How failed attempts are retried.
public struct RetryStrategy: Sendable, Hashable {
    /// How the wait between attempts grows.
    public enum Backoff: Sendable, Hashable {
        /// The same delay every time.
        case constant
        /// `delay * 2^(attempt-1)`, scaled by a random factor in 0.5...1 ("equal jitter").
        case exponential
    }

    /// What makes an attempt worth retrying.
    public enum Condition: Sendable, Hashable {
        /// The response has this status code.
        case status(Int)
        /// The attempt timed out.
        case timeout
        /// The connection could not be made or broke.
        case connection
    }

    /// Total tries, including the first.
    public var attempts: Int
    /// The base wait between attempts.
    public var delay: Duration
    public var backoff: Backoff
    public var retryOn: Set<Condition>

    /// The longest wait a retry makes unless told to: exponential backoff grows to it (or to `delay`, when that is
    /// longer) and stops, and a `Retry-After` asking for more is not waited for. So a large `attempts` or a server
    /// cannot turn retrying into a hang.
    public static let longestWait = Duration.seconds(300)

    /// The conditions used when none are given: 429, 502, 503, 504, timeouts and connection failures.
    public static let defaultConditions: Set<Condition> = [
        .status(429), .status(502), .status(503), .status(504), .timeout, .connection,
    ]

    public init(
        attempts: Int, delay: Duration = .milliseconds(200), backoff: Backoff = .constant,
        retryOn: Set<Condition> = RetryStrategy.defaultConditions
    ) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.retryOn = retryOn
    }

    /// Whether a response with this status should be retried.
    public func shouldRetry(status: HTTPStatus) -> Bool {
        retryOn.contains(.status(status.code))
    }

    /// Whether an error should be retried.
    public func shouldRetry(error: HTTPError) -> Bool {
        switch error.code {
        case .timedOut: retryOn.contains(.timeout)
        case .cannotConnect: retryOn.contains(.connection)
        default: false
        }
    }

    /// The wait after the failed attempt number `attempt` (1-based); `jitter` in 0...1 picks within the
    /// exponential jitter range and is ignored for constant backoff.
    public func delay(afterAttempt attempt: Int, jitter: Double) -> Duration {
        switch backoff {
        case .constant:
            return delay
        case .exponential:
            let growth = Double(1 << min(max(attempt - 1, 0), 30))
            let factor = 0.5 + 0.5 * min(max(jitter, 0), 1)
            return min(delay * (growth * factor), max(delay, Self.longestWait))
        }
    }
}
