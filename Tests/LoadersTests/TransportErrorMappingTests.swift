import AsyncHTTPClient
import Foundation
import Testing
import HTTPCore
@testable import Loaders
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL

/// Errors of SwiftNIO, NIOSSL and AsyncHTTPClient, most of which the test servers cannot provoke, each given
/// the code and message its type stands for.
@Suite struct TransportErrorMappingTests {
    /// A type the mapping does not know.
    struct OtherError: Error, CustomStringConvertible {
        var description: String { "something else" }
    }

    static let target = "https://example.test:8443/items"
    static let closedEarly = "the connection to example.test:8443 closed before the response from \(target) was complete"
    static let badHead = "the response from \(target) was not valid HTTP: invalid character in header"
    static let badRequestHead = "the request to \(target) is invalid: a header name or value holds a character HTTP does not allow"

    /// Each error, its code, and its message or the start of it.
    static var cases: [(error: any Error, code: HTTPError.Code, message: String)] { [
        (ChannelError.connectTimeout(.seconds(10)), .cannotConnect, "could not connect to example.test:8443: connect timed out"),
        (ChannelError.ioOnClosedChannel, .cannotConnect, "could not connect to example.test:8443: "),
        (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .cannotConnect, "could not connect to example.test:8443: connection refused"),
        (SocketAddressError.unsupported, .cannotConnect, "could not connect to example.test:8443: "),
        (HTTPParserError.invalidEOFState, .cannotConnect, closedEarly),
        (HTTPParserError.invalidHeaderToken, .invalidResponse, badHead),
        (NIOHTTPDecompression.DecompressionError.inflationError(-3), .invalidResponse,
         "the body of the response from \(target) could not be decoded: its body is not the gzip or deflate data its Content-Encoding says"),
        (NIOHTTPDecompression.ExtraDecompressionError.truncatedData, .invalidResponse,
         "the body of the response from \(target) could not be decoded: its gzip or deflate body ends before its compressed data does"),
        (HTTPParserError.invalidConstant, .invalidResponse,
         "the response from \(target) was not valid HTTP: it does not start with a status line such as HTTP/1.1 200 OK"),
        (HTTPParserError.unknown, .invalidResponse, "the response from \(target) was not valid HTTP: its head could not be read as HTTP/1.1"),
        (HTTPParserError.closedConnection, .invalidResponse,
         "the response from \(target) was not valid HTTP: it sent more bytes after an answer that said the connection closes"),
        // After the handshake (NIOSSL reports one cut short as handshakeFailed): the connection ended without close_notify.
        (NIOSSLError.uncleanShutdown, .cannotConnect, "the connection to example.test:8443 closed before the response from \(target) was complete"),
        (NIOSSLError.handshakeFailed(.sslError([])), .insecureConnection, "the TLS handshake with example.test:8443 failed"),
        (HTTPClientTransport.ClosedWhileConnecting(underlying: IOError(errnoCode: ECONNRESET, reason: "read")), .cannotConnect,
         "the connection to example.test:8443 was reset while it was being made (the TLS handshake): the request to \(target) was not sent"),
        (HTTPClientTransport.ClosedWhileConnecting(underlying: OtherError()), .cannotConnect,
         "the connection to example.test:8443 closed while it was being made (the TLS handshake): the request to \(target) was not sent"),
        (NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake])), .cannotConnect,
         "the connection to example.test:8443 closed while it was being made (the TLS handshake): the request to \(target) was not sent"),
        (NIOSSLExtraError.failedToValidateHostname, .insecureConnection,
         "the certificate of example.test:8443 was issued for another host name: reach the server by a name its certificate lists"),
        (IOError(errnoCode: ECONNRESET, reason: "read"), .cannotConnect,
         "the connection to example.test:8443 was reset before the response from \(target) was complete"),
        (HTTPClientError.httpProxyHandshakeTimeout, .cannotConnect, "could not connect to example.test:8443: no answer to CONNECT in time"),
        (BoringSSLError.syscallError, .insecureConnection, "the TLS handshake with example.test:8443 failed: syscallError"),
        (HTTPClientError.remoteConnectionClosed, .cannotConnect, closedEarly),
        (HTTPClientError.deadlineExceeded, .timedOut, "no complete response from \(target) in time: the deadline passed"),
        (HTTPClientError.tlsHandshakeTimeout, .insecureConnection, "the TLS handshake with example.test:8443 failed: TLS handshake timed out"),
        (HTTPClientError.invalidHeaderFieldValues(["a\nb"]), .invalidRequest, badRequestHead),
        (HTTPClientError.invalidHeaderFieldNames(["a b"]), .invalidRequest, badRequestHead),
        (HTTPClientError.bodyLengthMismatch, .unknown, "the request to \(target) failed: HTTPClientError.bodyLengthMismatch"),
        (OtherError(), .unknown, "the request to \(target) failed: something else"),
    ] }

    @Test func errorsAreClassifiedByTheirTypes() throws {
        let request = try #require(HTTPRequest(url: Self.target))
        for (error, code, message) in Self.cases {
            let mapped = TransportErrorMapping.httpError(for: error, request: request)
            #expect(mapped.code == code, "\(error)")
            #expect(mapped.message.hasPrefix(message), "\(error): \(mapped.message)")
        }
    }

    /// A certificate that does not name a URL's IP address is said to lack the address, not a host name.
    @Test(arguments: ["https://127.0.0.1:8443/a", "https://[::1]:8443/a"])
    func aCertificateLackingTheURLsAddressSaysSo(url: String) throws {
        let mapped = TransportErrorMapping.httpError(for: NIOSSLExtraError.failedToValidateHostname, request: try #require(HTTPRequest(url: url)))
        #expect(mapped.message.contains("does not list this address among its IP addresses"), "\(mapped.message)")
    }
}
