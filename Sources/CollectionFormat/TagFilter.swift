/// Which requests `--tag` and `--exclude-tag` select: a request's own tags and its file's count.
public struct TagFilter: Sendable, Hashable {
    /// Select only requests with one of these tags; empty selects every request.
    public var tags: [String]
    /// Leave out requests with one of these tags.
    public var excludedTags: [String]

    public init(tags: [String] = [], excludedTags: [String] = []) {
        self.tags = tags
        self.excludedTags = excludedTags
    }

    /// Whether the filter selects every request.
    public var selectsAll: Bool { tags.isEmpty && excludedTags.isEmpty }

    /// Whether a request with these tags is selected.
    public func selects(tags requestTags: [String]) -> Bool {
        if excludes(tags: requestTags) { return false }
        return tags.isEmpty || requestTags.contains(where: tags.contains)
    }

    /// Whether one of these tags is one `--exclude-tag` names.
    private func excludes(tags requestTags: [String]) -> Bool {
        !excludedTags.isEmpty && requestTags.contains(where: excludedTags.contains)
    }

    /// Whether a step of `file` is selected.
    public func selects(_ step: RequestDefinition, of file: RequestFile) -> Bool {
        selects(tags: file.tags + step.tags)
    }

    /// The steps of a file that the filter selects, in order: a flow's cleanup (`finally:`) steps too whenever one of its
    /// other steps is selected, so what the selected steps create is cleaned up, unless `--exclude-tag` names one of the
    /// cleanup step's own tags; a used file's cleanup steps when one of that use's steps is.
    public func selectedSteps(of file: RequestFile) -> [RequestDefinition] {
        guard !selectsAll else { return file.steps }
        return file.steps.filter { runs($0, of: file) }
    }

    /// Whether a step of `file` runs: it is selected, or it is a cleanup step kept for a selected step.
    public func runs(_ step: RequestDefinition, of file: RequestFile) -> Bool {
        selects(step, of: file) || keepsCleanup(step, of: file)
    }

    /// Whether `step` is a cleanup step kept because a step it cleans up after is selected (one of its flow's, or of the
    /// `use:` that brought in a used file's cleanup step) and no tag of its own is excluded.
    private func keepsCleanup(_ step: RequestDefinition, of file: RequestFile) -> Bool {
        guard step.isCleanup, !excludes(tags: step.tags) else { return false }
        let use = step.cleansUpAfterUse
        return file.steps.contains { !$0.isCleanup && (use.map($0.useSites.starts) ?? true) && selects($0, of: file) }
    }

    /// The filter as written on the command line, such as `--tag smoke --exclude-tag slow`.
    public var commandLine: String {
        (tags.map { "--tag \($0)" } + excludedTags.map { "--exclude-tag \($0)" }).joined(separator: " ")
    }
}
