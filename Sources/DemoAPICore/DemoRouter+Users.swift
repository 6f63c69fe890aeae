internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// The users resource: create, read, update (JSON or form, with `If-Match`), delete and a paginated list.
extension DemoRouter {
    /// One page of the user list as sent.
    private struct UserPage: Encodable {
        let items: [User]
        let page: Int
        let perPage: Int
        let total: Int
        let next: String?

        enum CodingKeys: String, CodingKey {
            case items, page, perPage = "per_page", total, next
        }

        /// Encodes `next` as null when there is no further page, rather than leaving it out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(page, forKey: .page)
            try container.encode(perPage, forKey: .perPage)
            try container.encode(total, forKey: .total)
            try container.encode(next, forKey: .next)
        }
    }

    /// `POST /api/users`: 201 with the new user, its `Location` and `ETag`.
    func createUser(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer), let fields = userFields(request, writer) else { return }
        guard fields.name != nil else {
            return sendInvalid(ValidationError(field: "name", message: "is required"), writer)
        }
        let entry = users.create(fields)
        sendEncoded(.created, headers: [("Location", "/api/users/\(entry.user.id)"), ("ETag", entry.etag)], entry.user, writer)
    }

    /// `GET /api/users/{id}`: the user with its `ETag`, or 404.
    func fetchUser(_ id: String, _ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let entry = Int(id).flatMap(users.entry(id:)) else {
            return sendError(.notFound, "no user \(id)", writer)
        }
        sendEncoded(.ok, headers: [("ETag", entry.etag)], entry.user, writer)
    }

    /// `PUT /api/users/{id}` (JSON or form): updates the given fields; 412 when `If-Match` names another version.
    func updateUser(_ id: String, _ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let number = Int(id), users.entry(id: number) != nil else {
            return sendError(.notFound, "no user \(id)", writer)
        }
        guard let fields = userFields(request, writer) else { return }
        do {
            let entry = try users.update(id: number, with: fields, ifMatch: request.header("If-Match"))
            sendEncoded(.ok, headers: [("ETag", entry.etag)], entry.user, writer)
        } catch {
            switch error {
            case .notFound: sendError(.notFound, "no user \(id)", writer)
            case .preconditionFailed: sendError(.preconditionFailed, "If-Match does not match the current version", writer)
            }
        }
    }

    /// `DELETE /api/users/{id}`: 204, or 404 when there is no such user.
    func deleteUser(_ id: String, _ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let number = Int(id), users.delete(id: number) else {
            return sendError(.notFound, "no user \(id)", writer)
        }
        writer.send(.noContent, body: [])
    }

    /// `GET /api/users?page=N&per_page=M&tag=T…`: one page of the users carrying every given tag.
    func listUsers(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let page = Int(request.query("page") ?? "1"), page >= 1 else {
            return sendInvalid(ValidationError(field: "page", message: "must be an integer of 1 or more"), writer)
        }
        guard let perPage = Int(request.query("per_page") ?? "10"), (1...100).contains(perPage) else {
            return sendInvalid(ValidationError(field: "per_page", message: "must be an integer from 1 to 100"), writer)
        }
        let tags = request.queryItems.filter { $0.name == "tag" }.map(\.value)
        let matching = users.users(taggedWithAll: tags)
        let items = Array(matching.dropFirst((page - 1) * perPage).prefix(perPage))
        let hasNext = page * perPage < matching.count
        let next = hasNext ? Self.listLink(page: page + 1, perPage: request.query("per_page").map { _ in perPage }, tags: tags) : nil
        sendEncoded(.ok, UserPage(items: items, page: page, perPage: perPage, total: matching.count, next: next), writer)
    }

    /// The path of a list page keeping the client's `per_page` and tags, e.g. `/api/users?page=2&tag=a`.
    private static func listLink(page: Int, perPage: Int?, tags: [String]) -> String {
        var components = URLComponents()
        components.path = "/api/users"
        components.queryItems = [URLQueryItem(name: "page", value: String(page))]
            + (perPage.map { [URLQueryItem(name: "per_page", value: String($0))] } ?? [])
            + tags.map { URLQueryItem(name: "tag", value: $0) }
        return components.string ?? "/api/users?page=\(page)"
    }

    /// Whether the request carries a login token; answers 401 when it does not.
    func requireSession(_ request: IncomingRequest, _ writer: ResponseWriter) -> Bool {
        if tokens.isValid(request.bearerToken, for: .session) {
            return true
        }
        sendError(.unauthorized, "a bearer token from POST /api/login is required",
                  headers: [("WWW-Authenticate", "Bearer realm=\"demo\"")], writer)
        return false
    }

    /// The validated user fields of a JSON or form body; answers 400, 415 or 422 and returns nil when unusable.
    private func userFields(_ request: IncomingRequest, _ writer: ResponseWriter) -> UserFields? {
        let contentType = (request.header("Content-Type") ?? "").lowercased()
        do throws(ValidationError) {
            let fields: UserFields
            if contentType.hasPrefix("application/json") {
                fields = try Self.decodeUserFields(request.body)
            } else if contentType.hasPrefix("application/x-www-form-urlencoded") {
                fields = try UserFields.fromForm(request.formItems.map { ($0.name, $0.value) })
            } else {
                sendError(.unsupportedMediaType, "send application/json or application/x-www-form-urlencoded", writer)
                return nil
            }
            try fields.validate()
            return fields
        } catch {
            sendInvalid(error, writer)
            return nil
        }
    }

    /// The fields of a JSON object body, with type mismatches named by field.
    private static func decodeUserFields(_ body: [UInt8]) throws(ValidationError) -> UserFields {
        do {
            return try JSONDecoder().decode(UserFields.self, from: Data(body))
        } catch let DecodingError.typeMismatch(expected, context) {
            guard let field = context.codingPath.first?.stringValue else {
                throw ValidationError(field: nil, message: "the body must be a JSON object")
            }
            throw ValidationError(field: field, message: "must be \(describe(expected))")
        } catch {
            throw ValidationError(field: nil, message: "the body is not valid JSON")
        }
    }

    /// A readable name for an expected JSON type: "an integer", "a string", "a list of strings".
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "an integer"
        case is String.Type: "a string"
        case is [String].Type: "a list of strings"
        default: "of another type"
        }
    }
}
