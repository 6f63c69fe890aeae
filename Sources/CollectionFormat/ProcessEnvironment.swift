#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process environment as secrets, `$env.NAME` and the proxy variables read it: each variable's value as text, and
/// apart, the names of the variables whose values are not UTF-8 text. Those are not read: a value with U+FFFD in place
/// of its bytes would send another password, so using one is an error naming it.
public struct ProcessEnvironment: Sendable, ExpressibleByDictionaryLiteral {
    /// The variables whose values are text.
    public var variables: [String: String]
    /// The names of the variables whose values are not UTF-8 text.
    public var notUTF8: Set<String>
    /// Where each variable an `--env-file` line set was set (`path:line`), for messages about its value.
    public var origins: [String: String] = [:]

    public init(_ variables: [String: String], notUTF8: Set<String> = []) {
        self.variables = variables
        self.notUTF8 = notUTF8
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements) { _, last in last })
    }

    /// The value of the variable `name`, when it is set and text.
    public subscript(name: String) -> String? { variables[name] }

    /// The environment of this process, read from its bytes (a variable whose name is not text cannot be named, and is
    /// left out; of a name set twice, the first counts, as `getenv` reads it).
    public static func current() -> ProcessEnvironment {
        var environment = ProcessEnvironment([:])
        var entry = environ
        while let pointer = entry.pointee {
            defer { entry += 1 }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
                  let name = String(validating: bytes[..<equals], as: UTF8.self),
                  environment.variables[name] == nil, !environment.notUTF8.contains(name) else { continue }
            if let value = String(validating: bytes[(equals + 1)...], as: UTF8.self) {
                environment.variables[name] = value
            } else {
                environment.notUTF8.insert(name)
            }
        }
        return environment
    }

    /// What is wrong with a variable whose value is not UTF-8 text, said after its name where it is used.
    public static let notUTF8Problem =
        "is not UTF-8 text (runner reads values as UTF-8: one with its bytes replaced would send another value)"
}
