public import YAML

/// A value tree mirroring YAML/JSON whose strings are templates; every node keeps its mark.
public struct TemplateValue: Sendable, Hashable {
    /// What the node holds.
    public indirect enum Content: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(Template)
        case array([TemplateValue])
        case object([Member])
    }

    /// One member of an object, in source order.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var keyMark: Mark
        public var value: TemplateValue

        public init(key: String, keyMark: Mark, value: TemplateValue) {
            self.key = key
            self.keyMark = keyMark
            self.value = value
        }
    }

    public var content: Content
    public var mark: Mark

    public init(_ content: Content, mark: Mark) {
        self.content = content
        self.mark = mark
    }

}
