/// An optional value kept out of line, so that a definition holding large options that most files never set stays
/// small: nil takes one word and no allocation. Setting it stores a new box; boxes are never mutated, so copies share them.
@propertyWrapper
public struct Boxed<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) { self.value = value }
    }

    private var box: Box?

    public init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    public var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }
}
