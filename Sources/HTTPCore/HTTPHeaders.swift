/// HTTP header fields: names compare case-insensitively, order is kept, a name may repeat.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field as given, with its original name spelling.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    /// Creates empty headers.
    public init() {}

    /// Creates headers from name/value pairs, keeping their order.
    public init(_ pairs: [(String, String)]) {
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name: name, value: value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting repeated names separately.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value for a name; setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            if let newValue { set(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// All values for a name, in order.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        for field in fields where Self.sameName(field.name, name) { values.append(field.value) }
        return values
    }

    /// Whether a field with this name exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with one field, kept at the position of the first.
    public mutating func set(name: String, value: String) {
        if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[index] = Field(name: name, value: value)
            var position = fields.index(after: index)
            while position < fields.endIndex {
                if Self.sameName(fields[position].name, name) { fields.remove(at: position) } else { position += 1 }
            }
        } else {
            add(name: name, value: value)
        }
    }

    /// Removes every field of this name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Adds the fields of `other` whose names are not present here.
    public mutating func addMissing(from other: HTTPHeaders) {
        let missing = other.fields.filter { !contains($0.name) }
        fields.append(contentsOf: missing)
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Equal when the same fields appear in the same order, names compared case-insensitively.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { sameName($0.name, $1.name) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }

    /// The fields whose values are credentials: hidden in every output, never carried to another origin.
    public static let credentialNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// Whether `name` is one of `credentialNames`, in any case.
    public static func isCredential(_ name: String) -> Bool {
        credentialNames.contains { sameName($0, name) }
    }

    /// Whether `name` says its value is a credential: one of `credentialNames`, or a name holding `token`, an API, access,
    /// auth or private key, `secret`, a password, `session` or `bearer` (`X-Api-Key`, `api_key`, `X-Auth-Token`, `passwd`), in any
    /// case. What a file writes under such a name is hidden where a diagnostic quotes it, and an import lists it as a
    /// credential.
    public static func namesCredential(_ name: String) -> Bool {
        guard !isCredential(name) else { return true }
        // Searched over bytes: Foundation's `contains` on strings (a locale-aware search) took most of the time of quoting
        // a long document's lines.
        let lowered = Array(name.lowercased().utf8)
        return credentialWords.contains { word in
            lowered.count >= word.count && (0...lowered.count - word.count).contains { lowered[$0..<$0 + word.count].elementsEqual(word) }
        }
    }

    /// The words `namesCredential` looks for, as UTF-8.
    private static let credentialWords = (["token", "secret", "password", "passwd", "passphrase", "pwd", "session", "bearer"]
        + ["api", "access", "auth", "private", "subscription"].flatMap { word in ["", "-", "_"].map { word + $0 + "key" } }).map { Array($0.utf8) }

    /// Whether two header names are the same, ignoring ASCII case.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Names are nearly always ASCII: compared byte by byte with A-Z folded, without lowercased copies;
        // names with other characters are compared as before, by `lowercased()`.
        let folded = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in asciiEqualFoldingCase(x, y) }
        }
        switch folded {
        case .some(.some(let equal?)): return equal
        default: return a.lowercased() == b.lowercased()
        }
    }

    /// Whether two equally long ASCII byte strings are equal but for the case of letters; nil unless both are ASCII.
    private static func asciiEqualFoldingCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        var differ = false
        for index in x.indices {
            let (p, q) = (x[index], y[index])
            guard p < 0x80, q < 0x80 else { return nil }
            if p != q, !(p | 0x20 == q | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(p | 0x20)) { differ = true }
        }
        return !differ
    }
}
