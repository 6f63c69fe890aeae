internal import LoopbackHTTP
internal import NIOHTTP1

/// The `/hostile` route: bodies made to break reports and terminals if printed raw.
extension Router {
    /// The text `/hostile` sends: markup, a CDATA end, a colour escape, an OSC title with a bell, a C1 CSI.
    static let hostileText = "<script>alert(1)</script> ]]> red:\u{1B}[31mRED\u{1B}[0m osc:\u{1B}]0;pwned\u{07} c1:\u{9B}2J end"

    /// `/hostile[?nul=1][&json=1]`: `hostileText` (with a NUL byte appended for `nul`) as text/plain,
    /// or as JSON `{"text": …}`.
    func hostile(_ request: RecordedRequest, _ writer: ResponseWriter) {
        let text = Self.hostileText + (request.query("nul") != nil ? " nul:\u{0}" : "")
        if request.query("json") != nil {
            writer.sendJSON(.ok, ["text": text])
        } else {
            writer.send(.ok, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
        }
    }
}
