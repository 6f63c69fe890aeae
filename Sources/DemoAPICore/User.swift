internal import Foundation

/// A user of the demo API as it is stored and sent.
struct User: Codable, Sendable, Equatable {
    /// The identifier the server assigned.
    var id: Int
    /// The display name; never empty.
    var name: String
    /// The age in years, when known.
    var age: Int?
    /// How many items the user may own, when limited.
    var quota: Int?
    /// Free labels, used by the list filter `?tag=`.
    var tags: [String]
}

/// The fields a client sends to create or update a user; absent fields are nil.
struct UserFields: Decodable, Sendable {
    var name: String?
    var age: Int?
    var quota: Int?
    var tags: [String]?

    /// The fields of a form body: `name` as text, `age` and `quota` converted to integers, `tag` repeated.
    static func fromForm(_ items: [(name: String, value: String)]) throws(ValidationError) -> UserFields {
        var fields = UserFields()
        for (name, value) in items {
            switch name {
            case "name": fields.name = value
            case "age": fields.age = try integer(value, field: name)
            case "quota": fields.quota = try integer(value, field: name)
            case "tag", "tags": fields.tags = (fields.tags ?? []) + [value]
            default: continue
            }
        }
        return fields
    }

    /// Checks the values that are present: a non-empty name, a non-negative age and quota.
    func validate() throws(ValidationError) {
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError(field: "name", message: "must not be empty")
        }
        if let age, age < 0 {
            throw ValidationError(field: "age", message: "must be 0 or more")
        }
        if let quota, quota < 0 {
            throw ValidationError(field: "quota", message: "must be 0 or more")
        }
    }

    /// `value` as an integer, or a validation error naming `field`.
    private static func integer(_ value: String, field: String) throws(ValidationError) -> Int {
        guard let number = Int(value) else {
            throw ValidationError(field: field, message: "must be an integer")
        }
        return number
    }
}

/// A request whose content is well-formed but not acceptable, answered with 422.
struct ValidationError: Error, Sendable {
    /// The offending field, when there is one.
    let field: String?
    /// What is wrong with it.
    let message: String
}
