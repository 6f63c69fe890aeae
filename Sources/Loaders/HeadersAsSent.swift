public import HTTPCore

extension HTTPRequest {
    /// The header fields the transport writes besides Host and the framing: the request's own, then the body's
    /// (`Content-Type`) where the request has none of that name, then `Accept-Encoding: gzip, deflate` unless either
    /// has one.
    public var headersForTransport: HTTPHeaders {
        var headers = self.headers
        let extra = body.additionalHeaders
        for field in extra where !headers.contains(field.name) { headers.add(name: field.name, value: field.value) }
        if !headers.contains("Accept-Encoding") { headers.add(name: "Accept-Encoding", value: "gzip, deflate") }
        return headers
    }

    /// Every header field as sent, for showing an exchange: `Host`, the fields of `headersForTransport`, and
    /// `Content-Length` for a body of `bodyLength` bytes.
    public func headersAsSent(bodyLength: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if !self.headers.contains("Host"), let host {
            let defaultPort = scheme?.lowercased() == "https" ? 443 : 80
            headers.add(name: "Host", value: port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host)
        }
        for field in headersForTransport { headers.add(name: field.name, value: field.value) }
        if bodyLength > 0, !headers.contains("Content-Length") { headers.add(name: "Content-Length", value: String(bodyLength)) }
        return headers
    }
}
