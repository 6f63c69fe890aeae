internal import NIOConcurrencyHelpers

/// The users of the demo API in memory, each with a version for its ETag.
final class UserStore: Sendable {
    /// A stored user and how many times it changed.
    struct Entry: Sendable {
        var user: User
        var version: Int

        /// The strong entity tag of this version, e.g. `"u3-v2"`.
        var etag: String { "\"u\(user.id)-v\(version)\"" }
    }

    /// Why an update did not happen.
    enum UpdateFailure: Error {
        /// No user has that id.
        case notFound
        /// The `If-Match` tags did not include the current one.
        case preconditionFailed
    }

    private struct Storage {
        var entries: [Int: Entry] = [:]
        var lastID = 0
    }

    private let storage = NIOLockedValueBox(Storage())

    /// A store holding `seed` users, numbered from 1.
    init(seed: [(name: String, age: Int?, tags: [String])] = []) {
        for person in seed {
            _ = create(UserFields(name: person.name, age: person.age, quota: nil, tags: person.tags))
        }
    }

    /// Stores a new user made of `fields` (a name is required beforehand) and returns it.
    func create(_ fields: UserFields) -> Entry {
        storage.withLockedValue { storage in
            storage.lastID += 1
            let user = User(
                id: storage.lastID, name: fields.name ?? "", age: fields.age, quota: fields.quota, tags: fields.tags ?? []
            )
            let entry = Entry(user: user, version: 1)
            storage.entries[user.id] = entry
            return entry
        }
    }

    /// The user with `id`, if any.
    func entry(id: Int) -> Entry? {
        storage.withLockedValue { $0.entries[id] }
    }

    /// Applies the present `fields` to user `id` when `ifMatch` (an `If-Match` value, nil: no condition) allows.
    func update(id: Int, with fields: UserFields, ifMatch: String?) throws(UpdateFailure) -> Entry {
        let result: Result<Entry, UpdateFailure> = storage.withLockedValue { storage in
            guard var entry = storage.entries[id] else { return .failure(.notFound) }
            if let ifMatch, !Self.matches(ifMatch, etag: entry.etag) {
                return .failure(.preconditionFailed)
            }
            entry.user.name = fields.name ?? entry.user.name
            entry.user.age = fields.age ?? entry.user.age
            entry.user.quota = fields.quota ?? entry.user.quota
            entry.user.tags = fields.tags ?? entry.user.tags
            entry.version += 1
            storage.entries[id] = entry
            return .success(entry)
        }
        return try result.get()
    }

    /// Removes user `id`; false when there was none.
    func delete(id: Int) -> Bool {
        storage.withLockedValue { $0.entries.removeValue(forKey: id) != nil }
    }

    /// All users carrying every one of `tags`, by ascending id.
    func users(taggedWithAll tags: [String]) -> [User] {
        storage.withLockedValue { storage in
            storage.entries.values.map(\.user)
                .filter { user in tags.allSatisfy(user.tags.contains) }
                .sorted { $0.id < $1.id }
        }
    }

    /// How many users there are.
    var count: Int {
        storage.withLockedValue { $0.entries.count }
    }

    /// Whether an `If-Match` header value (`*` or a comma-separated list of tags) matches `etag`.
    private static func matches(_ ifMatch: String, etag: String) -> Bool {
        let candidates = ifMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return candidates.contains("*") || candidates.contains(etag)
    }
}
