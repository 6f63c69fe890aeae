internal import Foundation

/// The credentials and limits of a demo API instance.
public struct DemoSettings: Sendable {
    /// The user name `POST /api/login` accepts (also for Basic auth on uploads).
    public var username: String
    /// The password of that user.
    public var password: String
    /// The OAuth2 client id `POST /oauth/token` accepts.
    public var clientID: String
    /// The OAuth2 client secret of that client.
    public var clientSecret: String
    /// How many requests per second one client may send to `/api/limited`.
    public var requestsPerSecond: Int
    /// How long login and OAuth tokens stay valid, in seconds.
    public var tokenLifetime: Int

    /// Settings with the given values; the defaults are the documented demo credentials.
    public init(
        username: String = "demo",
        password: String = "demo-password",
        clientID: String = "runner-example",
        clientSecret: String = "demo-secret",
        requestsPerSecond: Int = 5,
        tokenLifetime: Int = 3600
    ) {
        self.username = username
        self.password = password
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.requestsPerSecond = requestsPerSecond
        self.tokenLifetime = tokenLifetime
    }

    /// The default settings with the password and client secret taken from
    /// `RUNNER_DEMO_PASSWORD` and `RUNNER_DEMO_CLIENT_SECRET` when those are set (default: the process environment).
    public static func fromEnvironment(_ variables: [String: String]? = nil) -> DemoSettings {
        let environment = variables ?? ProcessInfo.processInfo.environment
        var settings = DemoSettings()
        if let password = environment["RUNNER_DEMO_PASSWORD"] {
            settings.password = password
        }
        if let secret = environment["RUNNER_DEMO_CLIENT_SECRET"] {
            settings.clientSecret = secret
        }
        return settings
    }
}
