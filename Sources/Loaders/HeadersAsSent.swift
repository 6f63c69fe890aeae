public import HTTPCore

extension HTTPRequest {
    /// The header fields the transport writes besides Host and the framing: the request's own (but the framing
    /// fields `Content-Length` and `Transfer-Encoding`, which the transport writes from the body, and
    /// `Proxy-Authorization`, which is the proxy's), then the body's
    /// (`Content-Type`) where the request has none of that name, then `Accept-Encoding: gzip, deflate` unless either
    /// has one. The one list of what goes on the wire: the transport sends it and `--verbose` shows it.
    public var headersForTransport: HTTPHeaders {
        var headers = self.headers
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        // A proxy's credentials go to the proxy alone (in its tunnel's CONNECT), never to the server (`validate` warns).
        headers.remove(name: "Proxy-Authorization")
        let extra = body.additionalHeaders
        for field in extra where !headers.contains(field.name) { headers.add(name: field.name, value: field.value) }
        if !headers.contains("Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        return headers
    }

    /// Every header field as sent, for showing an exchange: `Host` (unless set), the fields of `headersForTransport`,
    /// and `Content-Length` as the transport frames a body of `bodyLength` bytes (none for an empty body of GET, HEAD,
    /// DELETE or TRACE; 0 for other methods); a `CONNECT`'s own fields.
    public func headersAsSent(bodyLength: Int) -> HTTPHeaders {
        // A proxy's `CONNECT` is written with its own fields only.
        if method == .connect { return self.headers }
        var headers = HTTPHeaders()
        if !self.headers.contains("Host"), let host = hostAsSent {
            let defaultPort = usesTLS ? 443 : 80
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            headers.add(name: "Host", value: port.map { $0 == defaultPort ? name : "\(name):\($0)" } ?? name)
        }
        for field in headersForTransport { headers.add(name: field.name, value: field.value) }
        if bodyLength > 0 {
            headers.add(name: "Content-Length", value: String(bodyLength))
        } else if !["GET", "HEAD", "DELETE", "TRACE"].contains(method.rawValue) {
            headers.add(name: "Content-Length", value: "0")
        }
        return headers
    }
}
