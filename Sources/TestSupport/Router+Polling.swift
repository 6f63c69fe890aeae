internal import LoopbackHTTP
internal import NIOHTTP1

extension Router {
    /// `/poll/KEY/N[?fail=F]`: a job that reports `{"state":"pending"}` until its Nth call, then `"done"`; with
    /// `fail`, it reports `"FAILED"` from its Fth call on (a terminal state). Every answer is 200 with the call count.
    func poll(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        guard rest.count == 2, let ready = Int(rest[1]) else { return badRequest("key and ready count expected", writer) }
        let call = state.nextAttempt(for: "poll:" + rest[0])
        let failsAt = request.query("fail").flatMap(Int.init)
        let jobState = failsAt.map { call >= $0 } == true ? "FAILED" : call >= ready ? "done" : "pending"
        writer.sendJSON(.ok, ["state": jobState, "call": call])
    }
}
