internal import Synchronization

/// Values collected from concurrent tasks, in the order they came.
public final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    /// Adds `item` after those collected so far.
    public func add(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    /// Everything collected so far, in the order it came.
    public var all: [Element] { items.withLock { $0 } }
}
