internal import Synchronization

/// The random values of a run, drawn from one seed: each file run draws from its own stream, derived from the seed
/// and the file's place, so a run with the same seed sends the same values whatever the order files run in.
public final class RandomValues: Sendable {
    /// The seed the run was given (`--seed`) or chose.
    public let seed: UInt64
    /// The generator's state (SplitMix64).
    private let state: Mutex<UInt64>
    /// Set when any stream of the run drew a value, shared by the streams.
    private let usage: Usage

    /// Whether a stream of the run drew a value: the run then prints its seed.
    private final class Usage: Sendable {
        let used = Atomic(false)
    }

    /// The values of a run seeded with `seed`.
    public convenience init(seed: UInt64) {
        self.init(seed: seed, state: seed, usage: Usage())
    }

    private init(seed: UInt64, state: UInt64, usage: Usage) {
        self.seed = seed
        self.state = Mutex(state)
        self.usage = usage
    }

    /// A seed chosen at random, for a run without `--seed`.
    public static func randomSeed() -> UInt64 { UInt64.random(in: 1...999_999_999) }

    /// Whether any stream of the run drew a value.
    public var wereUsed: Bool { usage.used.load(ordering: .relaxed) }

    /// The stream of the run named `key` (a file and a row): the same key gives the same values for the same seed.
    public func stream(_ key: String) -> RandomValues {
        var hash = FNVHash()
        hash.add(key)
        return RandomValues(seed: seed, state: Self.mix(seed ^ hash.value), usage: usage)
    }

    /// The next 64 random bits.
    func next() -> UInt64 {
        usage.used.store(true, ordering: .relaxed)
        return state.withLock { state in
            state &+= 0x9e37_79b9_7f4a_7c15
            return Self.mix(state)
        }
    }

    /// SplitMix64's output function.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A random integer in `range`, both ends included.
    public func int(in range: ClosedRange<Int>) -> Int {
        var generator = Generator(values: self)
        return Int.random(in: range, using: &generator)
    }

    /// A random version 4 UUID, lower case.
    public func uuid() -> String {
        var bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: next().bigEndian, Array.init) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).leftPadded(to: 2) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// `length` random letters and digits.
    public func string(length: Int) -> String {
        String((0..<length).map { _ in Self.alphanumerics[int(in: 0...Self.alphanumerics.count - 1)] })
    }

    /// A random full name, such as `Grace Okafor`.
    public func name() -> String {
        "\(pick(Self.givenNames)) \(pick(Self.familyNames))"
    }

    /// A random address at example.com that reruns do not repeat, such as `grace.okafor.x7k2p9@example.com`.
    public func email() -> String {
        "\(pick(Self.givenNames).lowercased()).\(pick(Self.familyNames).lowercased()).\(string(length: 6).lowercased())@example.com"
    }

    private func pick(_ words: [String]) -> String { words[int(in: 0...words.count - 1)] }

    private static let alphanumerics = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    private static let givenNames = [
        "Ada", "Alan", "Amara", "Ana", "Arjun", "Chen", "Dara", "Elena", "Emeka", "Farah", "Grace", "Hana", "Ines", "Ivan",
        "Jonas", "Kofi", "Lea", "Liam", "Maya", "Mateo", "Nadia", "Noah", "Omar", "Priya", "Rosa", "Sami", "Sofia", "Tariq",
        "Yara", "Yusuf",
    ]
    private static let familyNames = [
        "Alvarez", "Bauer", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ito", "Jansen", "Kowalski", "Larsen",
        "Mensah", "Moreau", "Nakamura", "Novak", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Silva", "Tanaka", "Usman",
        "Varga", "Weber", "Xu", "Yilmaz", "Zhang", "Ziegler",
    ]

    /// The run's stream as a generator for the standard library's `random(in:using:)`.
    private struct Generator: RandomNumberGenerator {
        let values: RandomValues

        mutating func next() -> UInt64 { values.next() }
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
