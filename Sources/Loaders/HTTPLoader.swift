public import HTTPCore

/// Turns a request into a response: one link of a loader chain, or the transport at its end.
public protocol HTTPLoader: Sendable {
    /// Loads the request; every failure arrives as an `HTTPError`.
    ///
    /// The request is taken, not borrowed: a loader that changes it changes it in place and hands it on, where a
    /// copy would retain each of its fields again (eleven, for every loader, for every request).
    func load(_ request: consuming HTTPRequest) async throws(HTTPError) -> HTTPResponse
}

/// One link of a chain before its next loader is known; `chain(_:ending:)` joins them.
public struct LoaderLayer: Sendable {
    private let wrap: @Sendable (any HTTPLoader) -> any HTTPLoader

    /// Creates a layer from a function that builds the loader around its `next`.
    public init(_ wrap: @escaping @Sendable (_ next: any HTTPLoader) -> any HTTPLoader) {
        self.wrap = wrap
    }

    /// The loader of this layer in front of `next`.
    public func wrapping(_ next: any HTTPLoader) -> any HTTPLoader { wrap(next) }
}

/// Builds a chain: the first layer sees each request first, `terminal` (usually the transport) last.
public func chain(_ layers: [LoaderLayer], ending terminal: any HTTPLoader) -> any HTTPLoader {
    layers.reversed().reduce(terminal) { next, layer in layer.wrapping(next) }
}

/// Waits for a duration; injectable so tests of waiting loaders need not wait.
public struct Sleeper: Sendable {
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a sleeper from a function that waits (and throws when cancelled).
    public init(_ sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.sleep = sleep
    }

    /// Sleeps on the continuous clock.
    public static let continuous = Sleeper { try await Task.sleep(for: $0) }

    /// Waits for `duration` on behalf of `request`; cancellation becomes a `cancelled` error.
    public func callAsFunction(_ duration: Duration, for request: HTTPRequest) async throws(HTTPError) {
        guard duration > .zero else { return }
        do { try await sleep(duration) } catch {
            throw HTTPError.cancelled(request, underlyingError: error)
        }
    }
}

extension HTTPError {
    /// The error, as the proxy's (`atProxy`).
    var atTheProxy: HTTPError {
        var error = self
        error.atProxy = true
        return error
    }

    /// The error for a request whose task was cancelled.
    static func cancelled(_ request: HTTPRequest, underlyingError: (any Error)? = nil) -> HTTPError {
        HTTPError(.cancelled, request: request, underlyingError: underlyingError,
                  message: "the request to \(request.displayURL) was cancelled")
    }
}
