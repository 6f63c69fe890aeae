internal import LoopbackHTTP
internal import NIOHTTP1

extension Router {
    /// `/things`: a resource with state, for cleanup tests. `POST /things` creates one (201 `{"id": N}`, after `?delay_ms=N`), `GET /things`
    /// lists the ids that exist (`{"ids": [...]}`), `DELETE /things/N` deletes one (204, or 404 when it does not exist).
    func things(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        switch (request.method, rest.count) {
        case ("POST", 0):
            // Created at once, answered after `delay_ms` (a server that acted on a request before it answers).
            let id = state.createThing()
            writer.after(milliseconds: request.query("delay_ms").flatMap(Int64.init) ?? 0) { writer.sendJSON(.created, ["id": id]) }
        case ("GET", 0): writer.sendJSON(.ok, ["ids": state.things])
        case ("DELETE", 1):
            guard let id = Int(rest[0]), state.deleteThing(id) else { return notFound(writer) }
            writer.send(.noContent, contentType: nil, body: [])
        default: badRequest("POST /things, GET /things or DELETE /things/ID expected", writer)
        }
    }
}
