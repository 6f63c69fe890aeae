public import LoopbackHTTP

/// One request as the test server received it: method, target, headers and the complete body.
public typealias RecordedRequest = IncomingRequest

/// One decoded `name=value` pair of a query string or a form body.
public typealias QueryItem = LoopbackHTTP.QueryItem
