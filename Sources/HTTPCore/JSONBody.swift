public import Foundation

/// A JSON body over a `JSONValue`, sent as `application/json`.
public struct JSONBody: HTTPBody {
    public var value: JSONValue

    /// Creates a body that sends `value` as compact JSON.
    public init(_ value: JSONValue) { self.value = value }

    public var additionalHeaders: HTTPHeaders { ["Content-Type": "application/json"] }

    /// The compact JSON text; throws for numbers JSON cannot express (NaN, infinity).
    public func encode() throws -> Data {
        if let number = value.firstNonFiniteNumber {
            throw BodyEncodingError("JSON cannot express \(Self.describeNonFinite(number))")
        }
        return Data(value.serialized().utf8)
    }

    /// How messages name a number JSON cannot write: NaN, or an infinity (YAML's `.inf`, or a number past a double's
    /// range such as `1e400`, which reads as one).
    public static func describeNonFinite(_ number: Double) -> String {
        number.isNaN ? "NaN (YAML's .nan)"
            : "\(number < 0 ? "minus " : "")infinity (YAML's \(number < 0 ? "-" : "").inf, or a number past a double's range such as 1e400)"
    }
}

extension JSONValue {
    /// The first NaN or infinity in the value, depth first; nil when every number is finite.
    public var firstNonFiniteNumber: Double? {
        switch self {
        case .double(let number): number.isFinite ? nil : number
        case .array(let elements): elements.lazy.compactMap(\.firstNonFiniteNumber).first
        case .object(let object): object.members.lazy.compactMap(\.value.firstNonFiniteNumber).first
        default: nil
        }
    }
}

/// The error thrown when a body cannot be encoded.
public struct BodyEncodingError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
