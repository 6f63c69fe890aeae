internal import Foundation
internal import LoopbackHTTP
internal import NIOHTTP1

/// `POST /api/graphql`: a tiny GraphQL API over the users.
///
/// The schema: `type Query { user(id: ID!): User, users: [User!]! }` and
/// `type User { id: ID!, name: String!, age: Int, tags: [String!]! }`, plus `__typename`. Documents are read by
/// `GraphQLDocument`, which understands only what this schema needs.
extension DemoRouter {
    /// Answers `{"query": …, "variables": …, "operationName": …}` with `{"data": …}`, or `{"errors": [{"message": …}]}`:
    /// 400 when the body is not such a JSON object, 200 for errors in the GraphQL document itself (as GraphQL over
    /// HTTP answers `application/json` requests).
    func graphql(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let body = try? JSONDecoder().decode(GraphQLRequest.self, from: Data(request.body)) else {
            return sendGraphQLErrors(.badRequest, "send a JSON object with a 'query' string, and 'variables' of strings, numbers, booleans or null", writer)
        }
        do throws(GraphQLError) {
            let document = try GraphQLDocument(parsing: body.query)
            let operation = try Self.operation(named: body.operationName, in: document)
            let execution = GraphQLExecution(users: users, operation: operation, variables: body.variables ?? [:])
            let data = try execution.resolve(operation.selections, of: nil)
            writer.sendJSON(.ok, ["data": data])
        } catch {
            sendGraphQLErrors(.ok, error.message, writer)
        }
    }

    /// The operation `name` names, or the only one when no name is given.
    private static func operation(named name: String?, in document: GraphQLDocument) throws(GraphQLError) -> GraphQLDocument.Operation {
        if let name {
            guard let operation = document.operations.first(where: { $0.name == name }) else {
                throw GraphQLError("no operation named '\(name)'")
            }
            return operation
        }
        guard document.operations.count == 1 else {
            throw GraphQLError("the document has \(document.operations.count) operations: send an operationName")
        }
        return document.operations[0]
    }

    private func sendGraphQLErrors(_ status: HTTPResponseStatus, _ message: String, _ writer: ResponseWriter) {
        writer.sendJSON(status, ["errors": [["message": message]]])
    }
}

/// The body of a GraphQL request.
private struct GraphQLRequest: Decodable {
    let query: String
    let variables: [String: GraphQLValue]?
    let operationName: String?
}

extension GraphQLValue: Decodable {
    /// A variable's JSON value: a string, number, boolean or null (the schema has no list or object inputs).
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let float = try? container.decode(Double.self) {
            self = .float(float)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

/// Resolves the selections of one operation against the users, field by field.
private struct GraphQLExecution {
    let users: UserStore
    let operation: GraphQLDocument.Operation
    let variables: [String: GraphQLValue]

    /// The response object for `selections` on the query root (`user` nil) or on a user.
    func resolve(_ selections: [GraphQLField], of user: User?) throws(GraphQLError) -> [String: Any] {
        var result: [String: Any] = [:]
        for field in selections {
            if let user {
                result[field.responseKey] = try value(of: field, on: user)
            } else {
                result[field.responseKey] = try rootValue(of: field)
            }
        }
        return result
    }

    private func rootValue(of field: GraphQLField) throws(GraphQLError) -> Any {
        switch field.name {
        case "__typename": return try scalar("Query", field, type: "Query")
        case "users":
            try requireSubselection(field, type: "[User!]!")
            var list: [Any] = []
            for user in users.users(taggedWithAll: []) { list.append(try resolve(field.selections, of: user)) }
            return list
        case "user":
            try requireSubselection(field, type: "User")
            guard let id = try argument("id", of: field) else { throw GraphQLError("field 'user' needs the argument 'id'") }
            guard let number = Int(id), let entry = users.entry(id: number) else { return NSNull() }
            return try resolve(field.selections, of: entry.user)
        default:
            throw GraphQLError("cannot query field '\(field.name)' on type 'Query'")
        }
    }

    private func value(of field: GraphQLField, on user: User) throws(GraphQLError) -> Any {
        switch field.name {
        case "__typename": return try scalar("User", field, type: "User")
        case "id": return try scalar(String(user.id), field, type: "User")
        case "name": return try scalar(user.name, field, type: "User")
        case "age": return try scalar(user.age.map { $0 as Any } ?? NSNull(), field, type: "User")
        case "tags": return try scalar(user.tags, field, type: "User")
        default: throw GraphQLError("cannot query field '\(field.name)' on type 'User'")
        }
    }

    /// A scalar field's value; a selection set on it is an error.
    private func scalar(_ value: Any, _ field: GraphQLField, type: String) throws(GraphQLError) -> Any {
        guard field.selections.isEmpty, field.arguments.isEmpty else {
            throw GraphQLError("field '\(field.name)' of type '\(type)' takes no arguments or selection")
        }
        return value
    }

    private func requireSubselection(_ field: GraphQLField, type: String) throws(GraphQLError) {
        if field.selections.isEmpty {
            throw GraphQLError("field '\(field.name)' of type '\(type)' must have a selection of subfields")
        }
    }

    /// An ID argument as text (IDs accept strings and integers), from a literal or a variable; nil when null or absent.
    private func argument(_ name: String, of field: GraphQLField) throws(GraphQLError) -> String? {
        var value = field.arguments[name]
        if case .variable(let variable)? = value {
            guard let declared = operation.variables[variable] else { throw GraphQLError("variable '$\(variable)' is not declared") }
            value = variables[variable] ?? declared
        }
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        default: throw GraphQLError("argument '\(name)' of field '\(field.name)' must be an ID (a string or an integer)")
        }
    }
}
