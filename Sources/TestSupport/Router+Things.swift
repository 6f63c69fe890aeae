internal import LoopbackHTTP
internal import NIOHTTP1

extension Router {
    /// `/things`: a resource with state, for cleanup tests. `POST /things` creates one (201 `{"id": N}`), `GET /things`
    /// lists the ids that exist (`{"ids": [...]}`), `DELETE /things/N` deletes one (204, or 404 when it does not exist).
    func things(_ rest: [String], _ request: RecordedRequest, _ writer: ResponseWriter) {
        switch (request.method, rest.count) {
        case ("POST", 0): writer.sendJSON(.created, ["id": state.createThing()])
        case ("GET", 0): writer.sendJSON(.ok, ["ids": state.things])
        case ("DELETE", 1):
            guard let id = Int(rest[0]), state.deleteThing(id) else { return notFound(writer) }
            writer.send(.noContent, contentType: nil, body: [])
        default: badRequest("POST /things, GET /things or DELETE /things/ID expected", writer)
        }
    }
}
