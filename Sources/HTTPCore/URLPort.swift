public import Foundation

extension URLComponents {
    /// The ports a URL may name: a socket takes 16 bits of whatever number is written, so port 99999 would reach 34463.
    public static let validPorts = 1...65535

    /// How to fix a URL whose port is out of range.
    public static let portSuggestion = "write a port from 1 to 65535, or none for the scheme's default (80 for http, 443 for https)"

    /// Why the URL's port cannot be used ("the port 99999 is not a number from 1 to 65535"); nil when it has none
    /// or a valid one.
    public var portProblem: String? {
        guard let port, !Self.validPorts.contains(port) else { return nil }
        return "the port \(port) is not a number from 1 to 65535"
    }
}
