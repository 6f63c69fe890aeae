/// "Did you mean" suggestions by edit distance.
public enum Suggestions {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let candidates = Array(candidates)
        let target = Array(word.lowercased())
        var best: (candidate: String, distance: Int, prefix: Int)?
        for candidate in candidates {
            let lowered = Array(candidate.lowercased())
            let distance = editDistance(target, lowered)
            // Of two as far, the one that begins alike (`proxies`: `proxy`, not `cookies`).
            let prefix = zip(target, lowered).prefix { $0 == $1 }.count
            if best == nil || distance < best!.distance || (distance == best!.distance && prefix > best!.prefix) {
                best = (candidate, distance, prefix)
            }
        }
        guard let best else { return nil }
        // About a third of the letters may differ, one in a word of four letters or less: `base` is no typo of `name`.
        let longer = max(target.count, best.candidate.count)
        let allowed = longer <= 4 ? 1 : min(3, (longer + 2) / 3)
        if best.distance <= allowed { return best.candidate }
        // An abbreviation (`str`, `bool`, `qa` of `qa-2`): the one candidate it starts.
        let started = target.count >= 2 ? candidates.filter { $0.lowercased().hasPrefix(String(target)) } : []
        return started.count == 1 ? started[0] : nil
    }

    /// The candidate a single typo away from `word` (one letter wrong, missing or extra, or two swapped), when exactly
    /// one is.
    public static func oneTypoAway(from word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        let near = candidates.filter { editDistance(target, Array($0.lowercased())) == 1 }
        return near.count == 1 ? near[0] : nil
    }

    /// `did you mean 'x'?` for the closest candidate, or nil.
    public static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
