import HTTPCore

/// A check on a value, as the matcher table of docs/format.md defines it; generic over the value type so that
/// the collection can hold templated values and resolve them to `JSONValue` before evaluation.
public indirect enum Matcher<Value: Sendable>: Sendable {
    case equals(Value)
    case notEquals(Value)
    case lessThan(Value)
    case lessThanOrEqual(Value)
    case greaterThan(Value)
    case greaterThanOrEqual(Value)
    case contains(Value)
    case notContains(Value)
    case startsWith(Value)
    case endsWith(Value)
    case matches(Value)
    case exists(Bool)
    case type(JSONType)
    case length(Matcher<Value>)
    case `in`([Value])
    /// `in` with one operand that gives the whole list (`in: "{{ allowed }}"`, a capture or a variable holding a list).
    case inList(Value)
    case isEmpty(Bool)
    case each(Matcher<Value>)
    case not(Matcher<Value>)
    /// Every one must hold (a mapping of several operators).
    case all([Matcher<Value>])
}

/// The types a `type:` matcher names.
public enum JSONType: String, Sendable, CaseIterable {
    case string, number, integer, boolean, array, object, null
}

extension Matcher {
    /// The operator names of docs/format.md, in table order.
    public static var operatorNames: [String] {
        ["equals", "notEquals", "lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual",
         "contains", "notContains", "startsWith", "endsWith", "matches", "exists", "type", "length",
         "in", "isEmpty", "each", "not"]
    }

    /// Calls `body` with every operand in order, nested matchers included, building nothing.
    public func forEachOperand(_ body: (Value) -> Void) {
        switch self {
        case .equals(let v), .notEquals(let v), .lessThan(let v), .lessThanOrEqual(let v), .greaterThan(let v),
             .greaterThanOrEqual(let v), .contains(let v), .notContains(let v), .startsWith(let v), .endsWith(let v),
             .matches(let v):
            body(v)
        case .exists, .type, .isEmpty: break
        case .length(let m), .each(let m), .not(let m): m.forEachOperand(body)
        case .in(let vs): vs.forEach(body)
        case .inList(let v): body(v)
        case .all(let ms): for m in ms { m.forEachOperand(body) }
        }
    }

    /// Calls `body` with every value a subject is compared to for equality (`equals`, `notEquals`, each of `in`), under
    /// `not` and mappings of operators; not a length's or an element's.
    public func forEachCandidate(_ body: (Value) -> Void) {
        switch self {
        case .equals(let v), .notEquals(let v): body(v)
        case .in(let vs): vs.forEach(body)
        case .not(let m): m.forEachCandidate(body)
        case .all(let ms): for m in ms { m.forEachCandidate(body) }
        default: break
        }
    }

    /// Calls `body` with the operand of each `inList` (the template that gives an `in:` list), under `not`, `each`,
    /// `length` and mappings of operators.
    public func forEachListOperand(_ body: (Value) -> Void) {
        switch self {
        case .inList(let v): body(v)
        case .length(let m), .each(let m), .not(let m): m.forEachListOperand(body)
        case .all(let ms): for m in ms { m.forEachListOperand(body) }
        default: break
        }
    }

    /// The same matcher with every value transformed (used to resolve templates).
    public func map<T: Sendable, E: Error>(_ transform: (Value) throws(E) -> T) throws(E) -> Matcher<T> {
        switch self {
        case .equals(let v): .equals(try transform(v))
        case .notEquals(let v): .notEquals(try transform(v))
        case .lessThan(let v): .lessThan(try transform(v))
        case .lessThanOrEqual(let v): .lessThanOrEqual(try transform(v))
        case .greaterThan(let v): .greaterThan(try transform(v))
        case .greaterThanOrEqual(let v): .greaterThanOrEqual(try transform(v))
        case .contains(let v): .contains(try transform(v))
        case .notContains(let v): .notContains(try transform(v))
        case .startsWith(let v): .startsWith(try transform(v))
        case .endsWith(let v): .endsWith(try transform(v))
        case .matches(let v): .matches(try transform(v))
        case .exists(let b): .exists(b)
        case .type(let t): .type(t)
        case .length(let m): .length(try m.map(transform))
        case .in(let vs): .in(try vs.map { (v) throws(E) -> T in try transform(v) })
        case .inList(let v): .inList(try transform(v))
        case .isEmpty(let b): .isEmpty(b)
        case .each(let m): .each(try m.map(transform))
        case .not(let m): .not(try m.map(transform))
        case .all(let ms): .all(try ms.map { (m) throws(E) -> Matcher<T> in try m.map(transform) })
        }
    }
}

extension Matcher where Value == JSONValue {
    /// The matcher with each `inList` read as `in` of its list's elements; `notAList` is told the first operand of one
    /// that gives no list, or an empty one (of which no value is one: negated, it would always hold), and its error ends
    /// the reading.
    public func spreadingLists<E: Error>(_ notAList: (JSONValue) throws(E) -> Never) throws(E) -> Matcher {
        switch self {
        case .inList(.array(let elements)) where !elements.isEmpty: .in(elements)
        case .inList(let other): try notAList(other)
        case .length(let m): .length(try m.spreadingLists(notAList))
        case .each(let m): .each(try m.spreadingLists(notAList))
        case .not(let m): .not(try m.spreadingLists(notAList))
        case .all(let ms): .all(try ms.map { (m) throws(E) -> Matcher in try m.spreadingLists(notAList) })
        default: self
        }
    }
}
