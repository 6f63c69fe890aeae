public import CollectionFormat

/// `--shard I/N`: the I-th of N parts of a collection's selected files.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// Which part, from 1.
    public let index: Int
    /// How many parts.
    public let total: Int

    public init(index: Int, total: Int) {
        self.index = index
        self.total = total
    }

    public var description: String { "\(index)/\(total)" }

    /// Reads `I/N` (1 ≤ I ≤ N), or says what is wrong with `text`.
    public static func parse(_ text: String) -> Result<Shard, ShardSyntaxError> {
        let words = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        // Whole numbers are digits alone (`Int` would read `+1`).
        let isNumber = { (word: String) in !word.isEmpty && word.allSatisfy { $0.isASCII && $0.isNumber } }
        let parts = words.map { isNumber($0) ? Int($0) : nil }
        guard parts.count == 2, let index = parts[0], let total = parts[1] else {
            guard words.count == 2, words.allSatisfy(isNumber) else {
                let signed = words.count == 2 && words.contains { $0.first == "+" || $0.first == "-" }
                return .failure(ShardSyntaxError(message: "'\(text)' is not I/N, such as 2/4" + (signed ? ": write the numbers without a sign" : "")))
            }
            return .failure(ShardSyntaxError(message: "'\(text)': I must be from 1 to N, and N at most \(Int.max)"
                                                 + (parts[1] != nil ? ": I is past it" : "")))
        }
        guard total >= 1, (1...total).contains(index) else {
            let why = total < 1 ? "N is \(total)" : index < 1 ? "I is \(index)" : "\(index) is past \(total)"
            return .failure(ShardSyntaxError(message: "'\(text)': I must be from 1 to N, and N at least 1: \(why)"))
        }
        return .success(Shard(index: index, total: total))
    }
}

/// Why a `--shard` value cannot be read.
public struct ShardSyntaxError: Error, Sendable {
    public let message: String
}

extension RunPlanner {
    /// The planned files of part `shard`, in run order.
    ///
    /// Files that share captures (one reads a variable another captures, transitively, the environment's templates
    /// included) form a component that stays in one part. Components are dealt to the parts largest first (by
    /// request count, rows counted), each to the part with the fewest requests so far (the lowest part on a tie), so
    /// parts differ by at most one component's size; components are ordered by size and then by their first file's
    /// path, so the same files give the same parts whatever order they were found or listed in.
    public func files(in shard: Shard, environment: ResolvedEnvironment?) -> [RequestFile] {
        let parts = parts(count: shard.total, environment: environment)
        return files.indices.filter { parts[$0] == shard.index - 1 }.map { files[$0].file }
    }

    /// For each planned file, the part (from 0) it belongs to among `count`.
    func parts(count: Int, environment: ResolvedEnvironment?) -> [Int] {
        var components = CaptureComponents(dependencies(environment: environment), count: files.count)
        var members: [Int: [Int]] = [:]
        for index in files.indices { members[components.root(of: index), default: []].append(index) }
        let ordered = members.values.map { indices in
            Component(indices: indices, size: indices.reduce(0) { $0 + files[$1].stepCount },
                      key: indices.map { files[$0].file.path }.min() ?? "")
        }.sorted(by: Component.dealtBefore)
        // Parts past the number of components never get one (each goes to an empty part while there is one, the
        // lowest first), so only those are kept: `--shard 1/1000000000` costs no array of a billion parts.
        var loads = Array(repeating: 0, count: min(count, ordered.count))
        var part = Array(repeating: 0, count: files.count)
        for component in ordered {
            let lightest = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) } ?? 0
            loads[lightest] += component.size
            for index in component.indices { part[index] = lightest }
        }
        return part
    }
}

/// Files that stay in one part, with their request count and first path.
private struct Component {
    let indices: [Int]
    let size: Int
    let key: String

    /// Whether `first` is dealt before `second`: larger first, then by first path.
    static func dealtBefore(_ first: Component, _ second: Component) -> Bool {
        first.size != second.size ? first.size > second.size : first.key < second.key
    }
}

/// The planned files joined by capture use: a union-find over file indexes.
///
/// A file waiting for the first k capturers of a variable is joined to all of them; the capturers of a variable are
/// joined to each other only as far as some file needs, so a chain of 10,000 files costs one join per capture, not
/// one per pair.
struct CaptureComponents {
    private var parents: [Int]

    init(_ dependencies: FileDependencies, count: Int) {
        parents = Array(0..<count)
        var joinedUpTo = Array(repeating: 1, count: dependencies.capturers.count)
        for file in 0..<count {
            for wait in dependencies.waits[file] where wait.capturersBefore > 0 {
                let capturers = dependencies.capturers[wait.variable]
                while joinedUpTo[wait.variable] < wait.capturersBefore {
                    join(capturers[0], capturers[joinedUpTo[wait.variable]])
                    joinedUpTo[wait.variable] += 1
                }
                join(file, capturers[0])
            }
        }
    }

    /// The representative of the component holding `index`.
    mutating func root(of index: Int) -> Int {
        var root = index
        while parents[root] != root { root = parents[root] }
        var next = index
        while parents[next] != root { (parents[next], next) = (root, parents[next]) }
        return root
    }

    private mutating func join(_ first: Int, _ second: Int) {
        let (a, b) = (root(of: first), root(of: second))
        if a != b { parents[max(a, b)] = min(a, b) }
    }
}
