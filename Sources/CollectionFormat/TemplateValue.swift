public import HTTPCore
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

    /// The value as written when it holds no template; nil otherwise.
    public var literalValue: JSONValue? {
        switch content {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let int): return .int(int)
        case .double(let double): return .double(double)
        case .string(let template): return template.isLiteral ? .string(template.source) : nil
        case .array(let items):
            let values = items.compactMap(\.literalValue)
            return values.count == items.count ? .array(values) : nil
        case .object(let members):
            let values = members.compactMap { member in member.value.literalValue.map { (member.key, $0) } }
            return values.count == members.count ? .object(JSONObject(values)) : nil
        }
    }
}
