import CollectionFormat
import Foundation
import HTTPCore
import YAML

/// A problem found in one of the Postman files given to `import postman`, placed in that file.
public struct PostmanProblem: Error, Sendable {
    /// The file as the command line named it.
    public var file: String
    public var problem: InteropProblem
}

/// A Postman JSON file being read: its name and text, so that every problem can be placed at a line and column.
public struct PostmanSource: Sendable {
    /// The file as the command line named it.
    public let path: String
    public let bytes: [UInt8]
    /// Where the values of `bytes` are written.
    private let places: JSONTextPlaces

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        places = JSONTextPlaces(bytes)
    }

    /// The file parsed as JSON; a located problem (the parser's line and column) when it is not JSON, whose help says to
    /// export it again from where Postman exports it (`exportedFrom`: `⋯ › Export › Collection v2.1`).
    func root(exportedFrom: String) throws(PostmanProblem) -> PostmanValue {
        do throws(JSONParseError) {
            return PostmanValue(json: try JSONValue.parse(bytes), pointer: [], source: self)
        } catch {
            var problem = InteropProblem("not JSON: \(error.message)", at: Mark(line: error.line, column: error.column),
                                         suggestion: "export it again from Postman (\(exportedFrom))")
            problem.hidden = Self.credentialTexts(onLine: error.line, of: bytes)
            throw PostmanProblem(file: path, problem: problem)
        }
    }

    /// The texts of line `number` of `bytes` that may be credentials, which the quoted line of a problem there hides: a
    /// `"value"` member's (Postman's key-value pairs: auth, variables, environments) and a member's named as a credential
    /// (`"password"`, `"api_key"`), up to the line's end when its quote is not closed there.
    static func credentialTexts(onLine number: Int, of bytes: [UInt8]) -> [String] {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return [] }
        return lines[number - 1].matches(of: /"([^"\\]*)"\s*:\s*"((?:[^"\\]|\\.)*)/).compactMap { match in
            let (name, value) = (String(match.output.1), String(match.output.2))
            return !value.isEmpty && (name == "value" || HTTPHeaders.namesCredential(name)) ? value : nil
        }
    }

    /// A problem at the value `pointer` leads to (the start of the file when the pointer leads nowhere), the pointer
    /// ending the message: `has no request (at /item/0/item/2)`.
    func problem(_ message: String, at pointer: [String], suggestion: String? = nil) -> PostmanProblem {
        let position = places.position(of: pointer)
        let mark = Mark(line: position?.line ?? 1, column: position?.column ?? 1)
        return PostmanProblem(file: path, problem: InteropProblem("\(message) (at \(Self.pointerText(pointer)))", at: mark,
                                                                  suggestion: suggestion))
    }

    /// A pointer as RFC 6901 writes it: `/item/0/request`, `~` and `/` escaped; `/` for the root.
    static func pointerText(_ pointer: [String]) -> String {
        pointer.isEmpty ? "/" : pointer.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }
}

/// A value of a Postman file with the JSON pointer that leads to it.
struct PostmanValue {
    let json: JSONValue
    let pointer: [String]
    let source: PostmanSource

    /// The member `key` of an object; nil when it is absent, null, or this is not an object.
    subscript(key: String) -> PostmanValue? {
        guard case .object(let object) = json, let member = object[key], member != .null else { return nil }
        return PostmanValue(json: member, pointer: pointer + [key], source: source)
    }

    /// Whether this is a JSON object.
    var isObject: Bool {
        if case .object = json { true } else { false }
    }

    /// A string, or a number or boolean as text (Postman writes some values either way); nil for other values.
    var text: String? {
        switch json {
        case .string(let string): string
        case .int, .double, .bool: json.interpolatedText
        default: nil
        }
    }

    /// The member `key`, a string; nil when absent or null, a problem (its message starting with `owner`, when given)
    /// when it is of another type.
    func string(_ key: String, of owner: String? = nil) throws(PostmanProblem) -> String? {
        guard let member = self[key] else { return nil }
        guard case .string(let text) = member.json else { throw member.wrongType(key, of: owner, expected: "a string") }
        return text
    }

    /// The member `key` as text (a string, number or boolean, as Postman writes a port either way); nil when absent or
    /// null, a problem when it is an object or a list.
    func scalarText(_ key: String, of owner: String? = nil) throws(PostmanProblem) -> String? {
        guard let member = self[key] else { return nil }
        guard let text = member.text else { throw member.wrongType(key, of: owner, expected: "a string") }
        return text
    }

    /// The problem of this value, the member `key` (of `owner`, when given), not being what was `expected`:
    /// `'Get user': 'method' is a number, not a string`.
    func wrongType(_ key: String, of owner: String? = nil, expected: String) -> PostmanProblem {
        problem((owner.map { $0 + ": " } ?? "") + "'\(key)' is \(json.kindName), not \(expected)")
    }

    /// The elements of the list `key`; nil when absent or null, a problem when it is not a list.
    func list(_ key: String) throws(PostmanProblem) -> [PostmanValue]? {
        guard let member = self[key] else { return nil }
        guard case .array = member.json else { throw member.wrongType(key, expected: "a list") }
        return member.elements
    }

    /// The elements of this value when it is a list, else none.
    var elements: [PostmanValue] {
        guard case .array(let elements) = json else { return [] }
        return elements.enumerated().map { PostmanValue(json: $0.element, pointer: pointer + [String($0.offset)], source: source) }
    }

    /// Whether `disabled: true` is written on this entry.
    var isDisabled: Bool {
        self["disabled"]?.json == .bool(true)
    }

    /// The `key`/`value` entries of a Postman list (`[{key, value, disabled}]`) or the members of an object, in order.
    func entries() -> [(key: String, value: String, disabled: Bool, place: PostmanValue)] {
        switch json {
        case .array:
            return elements.compactMap { element in
                guard let key = element["key"]?.text else { return nil }
                return (key, element["value"]?.text ?? "", element.isDisabled, element)
            }
        case .object(let object):
            return object.members.map { member in
                let place = PostmanValue(json: member.value, pointer: pointer + [member.key], source: source)
                return (member.key, place.text ?? "", false, place)
            }
        default:
            return []
        }
    }

    /// `entries()` of the member `name` (of `owner`): a problem when it is not a list or an object, or when one of its
    /// entries is not an object whose `key` is a string and (unless `structuredValues`, as an auth's settings may be)
    /// whose `value` is text.
    func checkedEntries(_ name: String, of owner: String,
                        structuredValues: Bool = false) throws(PostmanProblem) -> [(key: String, value: String, disabled: Bool, place: PostmanValue)] {
        switch json {
        case .array:
            for element in elements {
                guard element.isObject else { throw element.wrongType("\(name) entry", of: owner, expected: "an object with a key and a value") }
                guard let key = element["key"], case .string = key.json else {
                    throw (element["key"] ?? element).wrongType("key", of: owner, expected: "a string")
                }
                if !structuredValues, let value = element["value"], value.text == nil, value.json != .null {
                    throw value.wrongType("value", of: owner, expected: "a string")
                }
            }
        case .object: break
        default: throw wrongType(name, of: owner, expected: "a list")
        }
        return entries()
    }

    /// A problem placed at this value.
    func problem(_ message: String, suggestion: String? = nil) -> PostmanProblem {
        source.problem(message, at: pointer, suggestion: suggestion)
    }
}
