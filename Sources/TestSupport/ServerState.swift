internal import Foundation
internal import NIOConcurrencyHelpers

/// The mutable memory of a test server: received requests, issued tokens and per-key attempt counters.
final class ServerState: Sendable {
    /// Everything behind the lock.
    private struct Storage {
        var requests: [RecordedRequest] = []
        /// When each of `requests` arrived whole.
        var arrivals: [ContinuousClock.Instant] = []
        var tokenExpiries: [String: Date] = [:]
        var tokensIssued = 0
        var attemptsByKey: [String: Int] = [:]
        /// The ids of the `/things` that exist, and how many were ever created.
        var things: [Int] = []
        var thingsCreated = 0
    }

    private let storage = NIOLockedValueBox(Storage())

    /// Remembers a received request.
    func record(_ request: RecordedRequest) {
        let now = ContinuousClock.now
        storage.withLockedValue { storage in
            storage.requests.append(request)
            storage.arrivals.append(now)
        }
    }

    /// All requests received so far, oldest first.
    var requests: [RecordedRequest] {
        storage.withLockedValue { $0.requests }
    }

    /// When each received request arrived whole, oldest first.
    var arrivals: [ContinuousClock.Instant] {
        storage.withLockedValue { $0.arrivals }
    }

    /// Issues the next token `tok-N` (`long`: `tok-N-` and 16 hex digits, long enough to be hidden as a credential),
    /// valid for `lifetime` seconds from now.
    func issueToken(lifetime: TimeInterval, long: Bool = false) -> String {
        storage.withLockedValue { storage in
            storage.tokensIssued += 1
            let token = "tok-\(storage.tokensIssued)" + (long ? "-" + String(UInt64(storage.tokensIssued) &* 0x9E37_79B9_7F4A_7C15, radix: 16) : "")
            storage.tokenExpiries[token] = Date().addingTimeInterval(lifetime)
            return token
        }
    }

    /// How many tokens were issued so far.
    var tokensIssued: Int {
        storage.withLockedValue { $0.tokensIssued }
    }

    /// Whether `token` was issued and has not expired yet.
    func isValid(token: String) -> Bool {
        storage.withLockedValue { storage in
            guard let expiry = storage.tokenExpiries[token] else { return false }
            return expiry > Date()
        }
    }

    /// Makes every issued token invalid from now on.
    func expireAllTokens() {
        storage.withLockedValue { storage in
            for token in storage.tokenExpiries.keys {
                storage.tokenExpiries[token] = .distantPast
            }
        }
    }

    /// Counts one more attempt for `key` and returns the attempt number (1 for the first).
    func nextAttempt(for key: String) -> Int {
        storage.withLockedValue { storage in
            let attempt = storage.attemptsByKey[key, default: 0] + 1
            storage.attemptsByKey[key] = attempt
            return attempt
        }
    }

    /// Creates the next thing and returns its id (from 1).
    func createThing() -> Int {
        storage.withLockedValue { storage in
            storage.thingsCreated += 1
            storage.things.append(storage.thingsCreated)
            return storage.thingsCreated
        }
    }

    /// Deletes thing `id`; returns whether it existed.
    func deleteThing(_ id: Int) -> Bool {
        storage.withLockedValue { storage in
            guard let position = storage.things.firstIndex(of: id) else { return false }
            storage.things.remove(at: position)
            return true
        }
    }

    /// The ids of the things that exist, oldest first.
    var things: [Int] { storage.withLockedValue { $0.things } }
}
